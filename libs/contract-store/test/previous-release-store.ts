// The store layout of the previous release (store schema version 1), produced at test time from a store this
// release wrote: the meta row says version 1, and the rate row holds the bare window state under the old
// rate-window/v1 MAC — exactly what that release wrote. Never a committed database file.
import Database from 'better-sqlite3';
import { canonicalBytes } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { deriveStoreKeys } from '@pfsense-mcp/crypto';
import { MacDomain, rowMac } from '../src/integrity/row-mac.js';

export function rewriteAsPreviousRelease(dbPath: string, masterKey: Uint8Array): void {
  const key = deriveStoreKeys(masterKey).recordMac;
  const db = new Database(dbPath);
  try {
    const meta = db.prepare('SELECT store_id, created_at FROM store_meta WHERE id = 1').get() as { store_id: string; created_at: number };
    const rate = db.prepare("SELECT state FROM rate_windows WHERE scope = 'policy-windows'").get() as { state: Buffer } | undefined;
    if (rate !== undefined) {
      const windows = (JSON.parse(rate.state.toString('utf8')) as { windows: CanonicalValue }).windows;
      const bytes = canonicalBytes(windows);
      const mac = rowMac(key, MacDomain.RATE_WINDOW_V1, [meta.store_id, 'policy-windows', bytes]);
      db.prepare("UPDATE rate_windows SET state = ?, mac = ? WHERE scope = 'policy-windows'").run(Buffer.from(bytes), Buffer.from(mac));
    }
    const metaMac = rowMac(key, MacDomain.META, [meta.store_id, '1', String(meta.created_at)]);
    db.prepare('UPDATE store_meta SET schema_version = 1, mac = ? WHERE id = 1').run(Buffer.from(metaMac));
  } finally {
    db.close();
  }
}
