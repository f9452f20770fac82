// The contract store as the previous release of this package wrote it (store schema version 1), made at test time
// from a store this release wrote — never a committed database file. That release's meta row said version 1 and
// its rate row held the bare window state under the rate-window/v1 MAC (no audit-head binding). The MACs are
// computed here with the public crypto/canonical libs; the SQL runs in a child (the SQLite driver belongs to
// the contract-store layer, so this test's own imports stay inside the layering rules).
import { spawnSync } from 'node:child_process';
import { canonicalBytes, frame } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { deriveStoreKeys, hmacSha256, readMasterKeyFile } from '@pfsense-mcp/crypto';

const RATE_SCOPE = 'policy-windows';

/** Runs `script` in a child with better-sqlite3 `D`, the database `db`, and JSON `arg`; returns its stdout. */
function sqlite(db: string, script: string, arg: unknown = null): string {
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `const D = require('better-sqlite3'); const db = new D(process.argv[1]); const arg = JSON.parse(process.argv[2]); ${script}; db.close();`,
      db,
      JSON.stringify(arg),
    ],
    {
      encoding: 'utf8',
      cwd: process.cwd(),
    },
  );
  if (r.status !== 0) throw new Error(`sqlite child failed: ${r.stderr}`);
  return r.stdout;
}

/** Rewrites a closed contract store of this release into the previous release's layout (same key, same rows). */
export function rewriteAsPreviousRelease(contractsDatabase: string, masterKeyFile: string): void {
  const read = JSON.parse(
    sqlite(
      contractsDatabase,
      "const m = db.prepare('SELECT store_id, created_at FROM store_meta WHERE id = 1').get(); const r = db.prepare('SELECT state FROM rate_windows WHERE scope = ?').get('policy-windows');" +
        ' process.stdout.write(JSON.stringify({ storeId: m.store_id, createdAt: m.created_at, rate: r === undefined ? null : r.state.toString("utf8") }))',
    ),
  ) as { storeId: string; createdAt: number; rate: string | null };
  const master = readMasterKeyFile(masterKeyFile);
  const key = deriveStoreKeys(master).recordMac;
  master.fill(0);
  const mac = (domain: string, parts: readonly (string | Uint8Array)[]) =>
    Buffer.from(hmacSha256(key, frame([domain, ...parts]))).toString('hex');
  let rate: { state: string; mac: string } | null = null;
  if (read.rate !== null) {
    const bytes = canonicalBytes((JSON.parse(read.rate) as { windows: CanonicalValue }).windows);
    rate = {
      state: Buffer.from(bytes).toString('hex'),
      mac: mac('pfsense-mcp/contract-store/rate-window/v1', [read.storeId, RATE_SCOPE, bytes]),
    };
  }
  const metaMac = mac('pfsense-mcp/contract-store/meta/v1', [read.storeId, '1', String(read.createdAt)]);
  sqlite(
    contractsDatabase,
    "if (arg.rate !== null) db.prepare('UPDATE rate_windows SET state = ?, mac = ? WHERE scope = ?').run(Buffer.from(arg.rate.state, 'hex'), Buffer.from(arg.rate.mac, 'hex'), 'policy-windows');" +
      " db.prepare('UPDATE store_meta SET schema_version = 1, mac = ? WHERE id = 1').run(Buffer.from(arg.metaMac, 'hex'))",
    { rate, metaMac },
  );
}

/** A store as a newer release would leave it: a higher store schema version and a migration this release does not know. */
export function rewriteAsNewerRelease(contractsDatabase: string, version: number): void {
  sqlite(
    contractsDatabase,
    "db.prepare('UPDATE store_meta SET schema_version = ? WHERE id = 1').run(arg); db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run('0002_from_a_newer_release', 'x')",
    version,
  );
}

/** The store schema version the meta row records (read without the key). */
export function recordedStoreVersion(contractsDatabase: string): number {
  return Number(
    sqlite(
      contractsDatabase,
      "process.stdout.write(String(db.prepare('SELECT schema_version FROM store_meta WHERE id = 1').get().schema_version))",
    ),
  );
}

/** Changes the rate row's bytes without its MAC (e.g. someone clearing a cooldown while the store is closed); returns a function that puts the original bytes back. */
export function tamperRateRow(contractsDatabase: string): () => void {
  const original = sqlite(
    contractsDatabase,
    "const r = db.prepare('SELECT state FROM rate_windows WHERE scope = ?').get('policy-windows'); process.stdout.write(r.state.toString('hex'));" +
      " db.prepare('UPDATE rate_windows SET state = ? WHERE scope = ?').run(Buffer.from(r.state.toString('utf8').replace(/[0-9]{13}/g, '1000000000000')), 'policy-windows')",
  );
  return () => {
    sqlite(
      contractsDatabase,
      "db.prepare('UPDATE rate_windows SET state = ? WHERE scope = ?').run(Buffer.from(arg, 'hex'), 'policy-windows')",
      original,
    );
  };
}
