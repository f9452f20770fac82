import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@pfsense-mcp/canonical';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  APPROVE_CODE_INFO,
  HKDF_SHA256_MAX_INFO_BYTES,
  STORE_KEY_LABELS,
  approveCodeOf,
  constantTimeEqual,
  deriveStoreKeys,
  hkdfSha256,
  hmacSha256,
} from '../src/index.js';

const ascii = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const fill = (byte: number, n: number) => new Uint8Array(n).fill(byte);
const range = (from: number, to: number) => Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);

// RFC 4231 §4.2–4.8 (HMAC-SHA-256 column).
const HMAC_VECTORS = [
  { tc: 1, key: fill(0x0b, 20), data: ascii('Hi There'), mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7' },
  {
    tc: 2,
    key: ascii('Jefe'),
    data: ascii('what do ya want for nothing?'),
    mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  { tc: 3, key: fill(0xaa, 20), data: fill(0xdd, 50), mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe' },
  { tc: 4, key: range(0x01, 0x19), data: fill(0xcd, 50), mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b' },
  { tc: 5, key: fill(0x0c, 20), data: ascii('Test With Truncation'), mac: 'a3b6167473100ee06e0c796c2955552b', truncate: 16 },
  {
    tc: 6,
    key: fill(0xaa, 131),
    data: ascii('Test Using Larger Than Block-Size Key - Hash Key First'),
    mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    tc: 7,
    key: fill(0xaa, 131),
    data: ascii(
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

// RFC 5869 Appendix A.1–A.3 (SHA-256).
const HKDF_VECTORS = [
  {
    tc: 1,
    ikm: fill(0x0b, 22),
    salt: range(0x00, 0x0c),
    info: range(0xf0, 0xf9),
    length: 42,
    okm: '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
  },
  {
    tc: 2,
    ikm: range(0x00, 0x4f),
    salt: range(0x60, 0xaf),
    info: range(0xb0, 0xff),
    length: 82,
    okm: 'b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87',
  },
  {
    tc: 3,
    ikm: fill(0x0b, 22),
    salt: new Uint8Array(),
    info: new Uint8Array(),
    length: 42,
    okm: '8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8',
  },
];

describe('HMAC-SHA256 (RFC 4231)', () => {
  it.each(HMAC_VECTORS)('test case $tc', ({ key, data, mac, truncate }) => {
    const out = hmacSha256(key, data);
    expect(out.length).toBe(32);
    expect(bytesToHex(truncate === undefined ? out : out.subarray(0, truncate))).toBe(mac);
  });
  it('validates arguments', () => {
    expect(() => hmacSha256(new Uint8Array(), ascii('x'))).toThrow('hmacSha256: "key" must not be empty');
    expect(() => hmacSha256('k' as never, ascii('x'))).toThrow(TypeError);
    expect(() => hmacSha256(ascii('k'), 'x' as never)).toThrow(/"data"/);
  });
  it('returns a plain Uint8Array and takes Buffers and subarrays as input', () => {
    const out = hmacSha256(fill(0x0b, 20), ascii('Hi There'));
    expect(Object.getPrototypeOf(out)).toBe(Uint8Array.prototype);
    const backing = new Uint8Array([9, ...fill(0x0b, 20), 9]);
    expect(bytesToHex(hmacSha256(backing.subarray(1, 21), Buffer.from('Hi There')))).toBe(bytesToHex(out));
  });
  it('matches the @noble/hashes implementation it replaced, byte for byte', () => {
    for (let i = 0; i < 200; i += 1) {
      const key = randomBytes(1 + (i % 140));
      const data = randomBytes((i * 37) % 300);
      expect(bytesToHex(hmacSha256(key, data))).toBe(bytesToHex(hmac(sha256, key, data)));
    }
  });
});

describe('HKDF-SHA256 (RFC 5869)', () => {
  it.each(HKDF_VECTORS)('test case $tc', ({ ikm, salt, info, length, okm }) => {
    expect(bytesToHex(hkdfSha256(ikm, salt, info, length))).toBe(okm);
  });
  it('string info is UTF-8', () => {
    const ikm = fill(1, 32);
    expect(hkdfSha256(ikm, new Uint8Array(), 'ü', 32)).toEqual(hkdfSha256(ikm, new Uint8Array(), hexToBytes('c3bc'), 32));
  });
  it('validates length 1..8160 and argument types', () => {
    const ikm = fill(1, 32);
    expect(hkdfSha256(ikm, new Uint8Array(), '', 8160).length).toBe(8160);
    for (const bad of [0, 8161, 1.5, -1, Number.NaN]) {
      expect(() => hkdfSha256(ikm, new Uint8Array(), '', bad)).toThrow(/hkdfSha256: "length"/);
    }
    expect(() => hkdfSha256(ikm, 'salt' as never, '', 32)).toThrow(/"salt"/);
    expect(() => hkdfSha256(ikm, new Uint8Array(), 5 as never, 32)).toThrow(/"info"/);
  });
  it('refuses an info longer than node:crypto accepts, with a message naming the argument', () => {
    const ikm = fill(1, 32);
    expect(hkdfSha256(ikm, new Uint8Array(), fill(2, HKDF_SHA256_MAX_INFO_BYTES), 32).length).toBe(32);
    expect(() => hkdfSha256(ikm, new Uint8Array(), fill(2, HKDF_SHA256_MAX_INFO_BYTES + 1), 32)).toThrow(
      'hkdfSha256: "info" must be at most 1024 bytes',
    );
  });
  it('returns a plain Uint8Array', () => {
    expect(Object.getPrototypeOf(hkdfSha256(fill(1, 32), new Uint8Array(), 'x', 32))).toBe(Uint8Array.prototype);
  });
  it('matches the @noble/hashes implementation it replaced, byte for byte (empty ikm and salt included)', () => {
    for (let i = 0; i < 100; i += 1) {
      const ikm = randomBytes(i % 70);
      const salt = randomBytes((i * 7) % 90);
      const info = randomBytes((i * 13) % 200);
      const length = 1 + ((i * 97) % 600);
      expect(bytesToHex(hkdfSha256(ikm, salt, info, length))).toBe(bytesToHex(hkdf(sha256, ikm, salt, info, length)));
    }
  });
});

describe('deriveStoreKeys', () => {
  const master = Uint8Array.from({ length: 32 }, (_, i) => i);
  it('gives four distinct 32-byte keys, deterministic per master key', () => {
    const k = deriveStoreKeys(master);
    expect(Object.isFrozen(k)).toBe(true);
    const all = [k.recordMac, k.auditChain, k.encryption, k.consumption];
    for (const key of all) expect(key.length).toBe(32);
    expect(new Set(all.map(bytesToHex)).size).toBe(4);
    expect(deriveStoreKeys(master)).toEqual(k);
    for (const key of all) expect(bytesToHex(key)).not.toBe(bytesToHex(master));
    const other = deriveStoreKeys(fill(7, 32));
    expect(other.encryption).not.toEqual(k.encryption);
  });
  it('each key is HKDF(master, salt, its own label)', () => {
    const salt = ascii('pfsense-mcp/store-keys/v1');
    const k = deriveStoreKeys(master);
    expect(k.recordMac).toEqual(hkdfSha256(master, salt, STORE_KEY_LABELS.recordMac, 32));
    expect(k.auditChain).toEqual(hkdfSha256(master, salt, STORE_KEY_LABELS.auditChain, 32));
    expect(k.encryption).toEqual(hkdfSha256(master, salt, STORE_KEY_LABELS.encryption, 32));
    expect(k.consumption).toEqual(hkdfSha256(master, salt, STORE_KEY_LABELS.consumption, 32));
    expect(new Set(Object.values(STORE_KEY_LABELS)).size).toBe(4);
  });
  it('refuses a master key that is not 32 bytes', () => {
    expect(() => deriveStoreKeys(new Uint8Array(16))).toThrow('deriveStoreKeys: "masterKey" must be 32 bytes');
  });
});

describe('constantTimeEqual', () => {
  it('compares contents and lengths', () => {
    expect(constantTimeEqual(hexToBytes('0102'), hexToBytes('0102'))).toBe(true);
    expect(constantTimeEqual(hexToBytes('0102'), hexToBytes('0103'))).toBe(false);
    expect(constantTimeEqual(hexToBytes('0102'), hexToBytes('010200'))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(), new Uint8Array())).toBe(true);
    expect(() => constantTimeEqual('a' as never, new Uint8Array())).toThrow(TypeError);
  });
});

describe('approveCodeOf (the operator approval code, docs/DESIGN.md §10)', () => {
  const seed = fill(0x42, 32);
  const digestHex = 'ab'.repeat(32);
  it('is HMAC-SHA256(HKDF-SHA256(seed, "", "pfsense-mcp approve-code v1" ‖ role, 32), digest bytes), first 12 hex', () => {
    const key = hkdf(sha256, seed, new Uint8Array(0), ascii(`pfsense-mcp approve-code v1confirmation`), 32);
    const expected = bytesToHex(hmac(sha256, key, hexToBytes(digestHex))).slice(0, 12);
    expect(approveCodeOf(seed, 'confirmation', digestHex)).toBe(expected);
    expect(APPROVE_CODE_INFO).toBe('pfsense-mcp approve-code v1');
    expect(approveCodeOf(seed, 'confirmation', digestHex)).toMatch(/^[0-9a-f]{12}$/);
  });
  it('differs by role, by key and by digest, and is never the digest prefix', () => {
    const c = approveCodeOf(seed, 'confirmation', digestHex);
    expect(approveCodeOf(seed, 'plan-authorization', digestHex)).not.toBe(c);
    expect(approveCodeOf(fill(0x43, 32), 'confirmation', digestHex)).not.toBe(c);
    expect(approveCodeOf(seed, 'confirmation', 'cd'.repeat(32))).not.toBe(c);
    expect(c).not.toBe(digestHex.slice(0, 12));
  });
  it('refuses a seed of the wrong size and a digest that is not 64 lowercase hex', () => {
    expect(() => approveCodeOf(new Uint8Array(31), 'confirmation', digestHex)).toThrow(RangeError);
    expect(() => approveCodeOf(seed, 'confirmation', 'AB'.repeat(32))).toThrow(TypeError);
  });
});
