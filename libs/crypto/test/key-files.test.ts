import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  KeyFileError,
  ed25519Sign,
  ed25519Verify,
  generateEd25519KeyPair,
  generateMasterKey,
  keyIdOf,
  opensWithPrivateKeyLabel,
  readApiKeyFile,
  readEd25519PrivateKeyFile,
  readLabGatePrivateKeyFile,
  readMasterKeyFile,
  readSecretFile,
  writeEd25519PrivateKeyFile,
  writeLabGatePrivateKeyFile,
  writeMasterKeyFile,
  writeSecretFile,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pfsense-mcp-crypto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name = 'k') => join(dir, `${name}-${n++}`);
const isRoot = process.getuid?.() === 0;

/** A file with exact content and mode (chmod after write, so the umask does not matter). */
function file(content: string | Buffer, mode = 0o600): string {
  const p = fresh();
  writeFileSync(p, content);
  chmodSync(p, mode);
  return p;
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(KeyFileError);
    return (e as KeyFileError).code;
  }
  return 'OK';
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const LABEL = 'pfsense-mcp-ed25519-private-key-v1';

describe('readSecretFile rules', () => {
  it('reads a 0600 or 0400 regular file owned by the current user', () => {
    expect(readSecretFile(file('s3cret', 0o600)).toString()).toBe('s3cret');
    expect(readSecretFile(file('s3cret', 0o400)).toString()).toBe('s3cret');
  });

  it('NOT_FOUND', () => {
    expect(codeOf(() => readSecretFile(join(dir, 'missing')))).toBe('NOT_FOUND');
  });

  it('SYMLINK: a link to a valid file and a dangling link', () => {
    const target = file('s3cret');
    const link = fresh('link');
    symlinkSync(target, link);
    expect(codeOf(() => readSecretFile(link))).toBe('SYMLINK');
    const dangling = fresh('dangling');
    symlinkSync(join(dir, 'nowhere'), dangling);
    expect(codeOf(() => readSecretFile(dangling))).toBe('SYMLINK');
  });

  it('NOT_REGULAR_FILE: a directory and a device', () => {
    const d = fresh('dir');
    mkdirSync(d, { mode: 0o700 });
    chmodSync(d, 0o600);
    expect(codeOf(() => readSecretFile(d))).toBe('NOT_REGULAR_FILE');
    expect(codeOf(() => readSecretFile('/dev/null'))).toBe('NOT_REGULAR_FILE');
  });

  it.each([0o644, 0o640, 0o604, 0o620, 0o602, 0o700, 0o601, 0o610, 0o660, 0o666, 0o200, 0o000, 0o4600, 0o2600, 0o1600, 0o500])(
    'UNSAFE_MODE for mode %o',
    (mode) => {
      expect(codeOf(() => readSecretFile(file('s3cret', mode)))).toBe('UNSAFE_MODE');
    },
  );

  it.skipIf(!isRoot)('WRONG_OWNER: a file owned by another uid (running as root: chown to 65534)', () => {
    const p = file('s3cret');
    chownSync(p, 65534, 65534);
    expect(statSync(p).uid).toBe(65534);
    expect(codeOf(() => readSecretFile(p))).toBe('WRONG_OWNER');
  });

  it('TOO_LARGE beyond the cap (default 4096, overridable); empty is BAD_FORMAT', () => {
    expect(codeOf(() => readSecretFile(file('x'.repeat(4097))))).toBe('TOO_LARGE');
    expect(readSecretFile(file('x'.repeat(4096))).length).toBe(4096);
    expect(codeOf(() => readSecretFile(file('x'.repeat(11)), { maxBytes: 10 }))).toBe('TOO_LARGE');
    expect(codeOf(() => readSecretFile(file('')))).toBe('BAD_FORMAT');
    expect(() => readSecretFile(file('x'), { maxBytes: 0 })).toThrow(RangeError);
  });

  it('errors name the rule and the base name, never the directory or the content', () => {
    const p = file('TOPSECRETVALUE', 0o644);
    try {
      readSecretFile(p);
      expect.unreachable();
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toContain('mode must be 0600 or 0400');
      expect(msg).not.toContain(dir);
      expect(msg).not.toContain('TOPSECRETVALUE');
    }
    expect(() => readSecretFile('' as string)).toThrow(TypeError);
    expect(() => readSecretFile('a\0b')).toThrow(TypeError);
  });
});

describe('writeSecretFile', () => {
  it.each([0o000, 0o022, 0o077, 0o277])('creates mode 0600 whatever the umask (%o)', (mask) => {
    const p = fresh('w');
    const old = process.umask(mask);
    try {
      writeSecretFile(p, 'content\n');
    } finally {
      process.umask(old);
    }
    expect(statSync(p).mode & 0o7777).toBe(0o600);
    expect(readSecretFile(p).toString()).toBe('content\n');
  });

  it('EXISTS: never overwrites a file, nor writes through a symlink', () => {
    const p = fresh('w');
    writeSecretFile(p, 'first');
    expect(codeOf(() => writeSecretFile(p, 'second'))).toBe('EXISTS');
    expect(readFileSync(p, 'utf8')).toBe('first');
    const target = fresh('target');
    const link = fresh('link');
    symlinkSync(target, link);
    expect(codeOf(() => writeSecretFile(link, 'x'))).toBe('EXISTS');
    expect(() => statSync(target)).toThrow(); // nothing was created through the link
  });

  it('NOT_FOUND for a missing directory; refuses empty content and bad arguments', () => {
    expect(codeOf(() => writeSecretFile(join(dir, 'no-such-dir', 'k'), 'x'))).toBe('NOT_FOUND');
    expect(() => writeSecretFile(fresh(), '')).toThrow(RangeError);
    expect(() => writeSecretFile(fresh(), 5 as never)).toThrow(TypeError);
  });

  it('does not clear the caller content buffer', () => {
    const content = new Uint8Array([1, 2, 3]);
    writeSecretFile(fresh(), content);
    expect(content).toEqual(new Uint8Array([1, 2, 3]));
  });
});

describe('Ed25519 private key file', () => {
  it('round-trips in the exact documented format (version 2: the role is in the label)', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    const p = fresh('ed');
    writeEd25519PrivateKeyFile(p, privateKey, 'confirmation');
    expect(readFileSync(p, 'utf8')).toBe(`pfsense-mcp-ed25519-private-key-v2 confirmation ${b64(privateKey)}\n`);
    const got = readEd25519PrivateKeyFile(p);
    expect(got.privateKey).toEqual(privateKey);
    expect(got.publicKey).toEqual(publicKey);
    expect(got.keyId).toBe(keyIdOf(publicKey));
    expect(got.role).toBe('confirmation');
    const m = new Uint8Array([1]);
    expect(ed25519Verify(got.publicKey, m, ed25519Sign(got.privateKey, m))).toBe(true);
    expect(codeOf(() => writeEd25519PrivateKeyFile(p, privateKey, 'confirmation'))).toBe('EXISTS');
    expect(() => writeEd25519PrivateKeyFile(fresh(), new Uint8Array(31), 'confirmation')).toThrow(RangeError);
    expect(() => writeEd25519PrivateKeyFile(fresh(), privateKey, 'lab-gate' as never)).toThrow(TypeError);
  });

  it('a version-1 file keeps working; its role comes from the name keygen or init gave it, else null', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    const sub = join(dir, `v1-${n++}`);
    mkdirSync(sub, { mode: 0o700 });
    const at = (name: string) => {
      const p = join(sub, name);
      writeFileSync(p, `${LABEL} ${b64(privateKey)}\n`, { mode: 0o600 });
      return readEd25519PrivateKeyFile(p);
    };
    expect(at('plan-authorization-0123456789abcdef.key')).toMatchObject({ role: 'plan-authorization', keyId: keyIdOf(publicKey) });
    expect(at('server-request.key').role).toBe('server-request');
    expect(at('reconciliation-0123456789abcdef.key').role).toBe('reconciliation');
    expect(at('my-key.key').role).toBeNull();
    expect(at('confirmation-xyz.key').role).toBeNull();
  });

  it('version 2: an unknown role, or another role spelled in, is BAD_FORMAT', () => {
    const k = b64(new Uint8Array(32).fill(0x11));
    for (const content of [
      `pfsense-mcp-ed25519-private-key-v2 admin ${k}\n`,
      `pfsense-mcp-ed25519-private-key-v2 lab-gate ${k}\n`,
      `pfsense-mcp-ed25519-private-key-v2 ${k}\n`,
      `pfsense-mcp-ed25519-private-key-v2 confirmation  ${k}\n`,
      `pfsense-mcp-ed25519-private-key-v2 Confirmation ${k}\n`,
    ])
      expect(
        codeOf(() => readEd25519PrivateKeyFile(file(content))),
        content,
      ).toBe('BAD_FORMAT');
  });

  it('applies the file rules before parsing', () => {
    const key = generateEd25519KeyPair().privateKey;
    expect(codeOf(() => readEd25519PrivateKeyFile(file(`${LABEL} ${b64(key)}\n`, 0o640)))).toBe('UNSAFE_MODE');
  });

  it('BAD_FORMAT for anything but the exact line', () => {
    const key = new Uint8Array(32).fill(0x11);
    const k = b64(key);
    const bad = [
      `${LABEL} ${k}`, // no newline
      `${LABEL} ${k}\n\n`,
      `${LABEL} ${k}\r\n`,
      `${LABEL}  ${k}\n`,
      ` ${LABEL} ${k}\n`,
      `${LABEL}\t${k}\n`,
      `${LABEL} ${k}=\n`,
      `${LABEL} ${Buffer.from(key).toString('base64')}=\n`, // padded standard base64
      `${LABEL} ${k.slice(0, 42)}\n`,
      `${LABEL} ${k.slice(0, 42)}R\n`, // non-canonical: low bits of the last character set
      `${LABEL} ${k.slice(0, 42)}+\n`,
      `pfsense-mcp-master-key-v1 ${k}\n`, // a master key file is not a signing key file
      `${LABEL.toUpperCase()} ${k}\n`,
      `${k}\n`,
      'garbage',
    ];
    for (const content of bad)
      expect(
        codeOf(() => readEd25519PrivateKeyFile(file(content))),
        content,
      ).toBe('BAD_FORMAT');
  });

  it('a format error never echoes the key material', () => {
    const k = b64(new Uint8Array(32).fill(0x22));
    try {
      readEd25519PrivateKeyFile(file(`${LABEL} ${k}`));
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain(k);
      expect((e as Error).message).toContain(LABEL);
    }
  });
});

describe('master key file', () => {
  it('generates, writes and reads back 32 random bytes', () => {
    const key = generateMasterKey();
    expect(key.length).toBe(32);
    expect(generateMasterKey()).not.toEqual(key);
    const p = fresh('master');
    writeMasterKeyFile(p, key);
    expect(readFileSync(p, 'utf8')).toBe(`pfsense-mcp-master-key-v1 ${b64(key)}\n`);
    expect(statSync(p).mode & 0o7777).toBe(0o600);
    expect(readMasterKeyFile(p)).toEqual(key);
    expect(codeOf(() => writeMasterKeyFile(p, key))).toBe('EXISTS');
  });

  it('refuses a signing key file, and the file rules apply', () => {
    const key = generateMasterKey();
    expect(codeOf(() => readMasterKeyFile(file(`${LABEL} ${b64(key)}\n`)))).toBe('BAD_FORMAT');
    expect(codeOf(() => readMasterKeyFile(file(`pfsense-mcp-master-key-v1 ${b64(key)}\n`, 0o604)))).toBe('UNSAFE_MODE');
    expect(() => writeMasterKeyFile(fresh(), new Uint8Array(16))).toThrow(RangeError);
  });
});

describe('API key file', () => {
  it('one line of visible ASCII, optional trailing newline', () => {
    expect(readApiKeyFile(file('abcDEF123-_.~!\n'))).toBe('abcDEF123-_.~!');
    expect(readApiKeyFile(file('abc'))).toBe('abc');
  });
  it('BAD_FORMAT otherwise', () => {
    for (const bad of ['abc def', 'abc\r\n', 'abc\n\n', 'a\nb', '\n', ' abc', 'abc\t', 'clé', 'abc\u0000']) {
      expect(
        codeOf(() => readApiKeyFile(file(bad))),
        JSON.stringify(bad),
      ).toBe('BAD_FORMAT');
    }
    expect(codeOf(() => readApiKeyFile(file('x'.repeat(1025))))).toBe('TOO_LARGE');
    expect(codeOf(() => readApiKeyFile(file('abc', 0o644)))).toBe('UNSAFE_MODE');
  });
});

describe('lab-gate private key file', () => {
  it("round-trips under its own label, and neither reader accepts the other role's file", () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    const gate = fresh('gate');
    writeLabGatePrivateKeyFile(gate, privateKey);
    expect(readFileSync(gate, 'utf8')).toBe(`pfsense-mcp-lab-gate-ed25519-private-key-v1 ${b64(privateKey)}\n`);
    const got = readLabGatePrivateKeyFile(gate);
    expect(got.publicKey).toEqual(publicKey);
    expect(got.keyId).toBe(keyIdOf(publicKey));
    expect(codeOf(() => readEd25519PrivateKeyFile(gate))).toBe('BAD_FORMAT');
    const operator = fresh('op');
    writeEd25519PrivateKeyFile(operator, privateKey, 'plan-authorization');
    expect(codeOf(() => readLabGatePrivateKeyFile(operator))).toBe('BAD_FORMAT');
    expect(codeOf(() => writeLabGatePrivateKeyFile(gate, privateKey))).toBe('EXISTS');
  });
});

describe('opensWithPrivateKeyLabel (what admin trust asks of a file beside a .pub)', () => {
  const reader = (content: string) => {
    const bytes = Buffer.from(content, 'latin1');
    const read: number[] = [];
    return {
      byteAt: (i: number) => {
        read.push(i);
        return i < bytes.length ? (bytes[i] as number) : null;
      },
      read,
    };
  };
  it('recognises every private key label and reads nothing after it', () => {
    const seed = b64(new Uint8Array(32).fill(7));
    for (const label of [LABEL, 'pfsense-mcp-ed25519-private-key-v2', 'pfsense-mcp-lab-gate-ed25519-private-key-v1']) {
      const r = reader(`${label} ${seed}\n`);
      expect(opensWithPrivateKeyLabel(r.byteAt)).toBe(true);
      expect(Math.max(...r.read)).toBeLessThan(label.length + 1);
    }
  });
  it('stops at the first byte no label continues with: a master key file, a public key, anything else', () => {
    const master = reader(`pfsense-mcp-master-key-v1 ${b64(new Uint8Array(32).fill(9))}\n`);
    expect(opensWithPrivateKeyLabel(master.byteAt)).toBe(false);
    expect(Math.max(...master.read)).toBe('pfsense-mcp-m'.length - 1);
    expect(opensWithPrivateKeyLabel(reader(`${'ab'.repeat(32)}\n`).byteAt)).toBe(false);
    expect(opensWithPrivateKeyLabel(reader('').byteAt)).toBe(false);
    expect(opensWithPrivateKeyLabel(reader('pfsense-mcp-ed25519-private-key-v1').byteAt)).toBe(false);
  });
});
