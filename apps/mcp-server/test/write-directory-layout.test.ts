import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { generateEd25519KeyPair, keyIdOf } from '@pfsense-mcp/crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  PinnedAuthoritiesFileError,
  WriteDirectoryError,
  assertWriteDirectory,
  loadPinnedAuthorities,
  pinnedAuthoritySetOf,
  savePinnedAuthorities,
  writeDirectoryLayout,
} from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'wdl-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function laidOut(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { mode: 0o700 });
  const layout = writeDirectoryLayout(dir);
  for (const d of [layout.storeDir, layout.keysDir, layout.localAnchorDir, layout.inboxDir, layout.outboxDir])
    mkdirSync(d, { mode: 0o700 });
  for (const f of [
    layout.contractsDatabase,
    layout.consumptionDatabase,
    layout.masterKeyFile,
    layout.serverRequestKeyFile,
    layout.serverRequestPublicKeyFile,
    layout.authoritiesFile,
  ]) {
    writeFileSync(f, 'x', { mode: 0o600 });
  }
  return dir;
}

function refusal(f: () => void): WriteDirectoryError {
  try {
    f();
  } catch (error) {
    if (error instanceof WriteDirectoryError) return error;
    throw error;
  }
  throw new Error('expected a WriteDirectoryError');
}

describe('writeDirectoryLayout', () => {
  it('computes the fixed, frozen layout; the anchor directory can move elsewhere', () => {
    const l = writeDirectoryLayout('/srv/w');
    expect(Object.isFrozen(l)).toBe(true);
    expect(l.contractsDatabase).toBe('/srv/w/store/contracts.sqlite');
    expect(l.consumptionDatabase).toBe('/srv/w/store/consumption.sqlite');
    expect(l.contractsAnchorFile).toBe('/srv/w/anchors/contracts.anchor');
    expect(l.authoritiesFile).toBe('/srv/w/authorities.json');
    const moved = writeDirectoryLayout('/srv/w', '/mnt/usb/anchors');
    expect(moved.anchorDirIsExternal).toBe(true);
    expect(moved.consumptionAnchorFile).toBe('/mnt/usb/anchors/consumption.anchor');
    expect(moved.localAnchorDir).toBe('/srv/w/anchors');
  });

  it('refuses a relative DIR and an anchor directory inside the store', () => {
    expect(refusal(() => writeDirectoryLayout('rel/dir')).code).toBe('NOT_ABSOLUTE');
    expect(refusal(() => writeDirectoryLayout('/srv/w', '/srv/w/store/a')).path).toBe('PFSENSE_WRITE_ANCHOR_DIR');
  });
});

describe('assertWriteDirectory', () => {
  it('accepts a laid-out owner-only directory', () => {
    expect(() => assertWriteDirectory(writeDirectoryLayout(laidOut('ok')))).not.toThrow();
  });

  it('refuses a group-readable DIR, a wide file, a symlinked inbox and a missing database, naming the path', () => {
    const a = laidOut('a');
    chmodSync(a, 0o750);
    expect(refusal(() => assertWriteDirectory(writeDirectoryLayout(a)))).toMatchObject({ code: 'UNSAFE_MODE', path: a });
    const b = writeDirectoryLayout(laidOut('b'));
    chmodSync(b.masterKeyFile, 0o644);
    expect(refusal(() => assertWriteDirectory(b))).toMatchObject({ code: 'UNSAFE_MODE', path: b.masterKeyFile });
    const c = writeDirectoryLayout(laidOut('c'));
    rmSync(c.inboxDir, { recursive: true });
    mkdirSync(join(root, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(root, 'elsewhere'), c.inboxDir);
    expect(refusal(() => assertWriteDirectory(c))).toMatchObject({ code: 'SYMLINK', path: c.inboxDir });
    const d = writeDirectoryLayout(laidOut('d'));
    rmSync(d.consumptionDatabase);
    expect(refusal(() => assertWriteDirectory(d))).toMatchObject({ code: 'NOT_FOUND', path: d.consumptionDatabase });
  });
});

describe('pinned authorities file', () => {
  const key = () => {
    const { publicKey } = generateEd25519KeyPair();
    return { publicKey: bytesToHex(publicKey), keyId: keyIdOf(publicKey) };
  };

  it('round-trips atomically with mode 0600 and builds the verifier set', () => {
    const path = join(laidOut('auth'), 'authorities.json');
    rmSync(path);
    const k1 = key();
    const k2 = key();
    savePinnedAuthorities(path, [
      { role: 'plan-authorization', ...k1 },
      { role: 'confirmation', ...k2 },
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const loaded = loadPinnedAuthorities(path);
    expect(loaded.map((e) => e.role)).toEqual(['plan-authorization', 'confirmation']);
    expect(pinnedAuthoritySetOf(loaded).get(k1.keyId)?.role).toBe('plan-authorization');
    savePinnedAuthorities(path, []);
    expect(loadPinnedAuthorities(path)).toEqual([]);
  });

  it('refuses a duplicate key, a wrong key id, a server-request role, a malformed file and a wide mode', () => {
    const path = join(root, 'auth2.json');
    const k = key();
    const code = (f: () => unknown): string => {
      try {
        f();
      } catch (error) {
        if (error instanceof PinnedAuthoritiesFileError) {
          expect(error.message).not.toContain(k.publicKey);
          return error.code;
        }
        throw error;
      }
      return 'none';
    };
    expect(
      code(() =>
        savePinnedAuthorities(path, [
          { role: 'confirmation', ...k },
          { role: 'reconciliation', ...k },
        ]),
      ),
    ).toBe('DUPLICATE_KEY');
    expect(code(() => savePinnedAuthorities(path, [{ role: 'confirmation', publicKey: k.publicKey, keyId: key().keyId }]))).toBe(
      'INVALID_KEY',
    );
    writeFileSync(
      path,
      JSON.stringify({ version: 1, authorities: [{ role: 'server-request', key_id: k.keyId, public_key: k.publicKey }] }),
      { mode: 0o600 },
    );
    expect(code(() => loadPinnedAuthorities(path))).toBe('MALFORMED');
    writeFileSync(path, '{not json', { mode: 0o600 });
    expect(code(() => loadPinnedAuthorities(path))).toBe('MALFORMED');
    savePinnedAuthorities(path, [{ role: 'confirmation', ...k }]);
    expect(readFileSync(path, 'utf8')).toContain('"version": 1');
    chmodSync(path, 0o644);
    expect(code(() => loadPinnedAuthorities(path))).toBe('UNSAFE_FILE');
  });
});
