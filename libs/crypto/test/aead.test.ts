import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { describe, expect, it } from 'vitest';
import { AEAD_ENVELOPE_VERSION, AeadError, aeadOpen, aeadSeal } from '../src/index.js';

const key = new Uint8Array(randomBytes(32));
const aad = new TextEncoder().encode('contract:c-1/snapshot/v1');
const plaintext = new TextEncoder().encode('{"name":"alias","description":"secret-ish"}');

function openCode(k: Uint8Array, env: Uint8Array, ad: Uint8Array): string {
  try {
    aeadOpen(k, env, ad);
  } catch (e) {
    expect(e).toBeInstanceOf(AeadError);
    const msg = (e as Error).message;
    expect(msg).not.toContain(bytesToHex(k));
    expect(msg).not.toContain('secret-ish');
    return (e as AeadError).code;
  }
  return 'OK';
}

describe('AEAD envelope (AES-256-GCM v1)', () => {
  const env = aeadSeal(key, plaintext, aad);

  it('round-trips, with layout version | 12-byte nonce | ciphertext | 16-byte tag', () => {
    expect(aeadOpen(key, env, aad)).toEqual(plaintext);
    expect(env[0]).toBe(AEAD_ENVELOPE_VERSION);
    expect(env.length).toBe(1 + 12 + plaintext.length + 16);
    expect(aeadOpen(key, aeadSeal(key, new Uint8Array(), new Uint8Array()), new Uint8Array())).toEqual(new Uint8Array());
    const big = new Uint8Array(randomBytes(100_000));
    expect(aeadOpen(key, aeadSeal(key, big, aad), aad)).toEqual(big);
  });

  it('does not leak plaintext into the envelope', () => {
    expect(Buffer.from(env).includes(Buffer.from('secret-ish'))).toBe(false);
  });

  it('rejects tampering with every part: version, nonce, ciphertext, tag', () => {
    const flip = (i: number) => {
      const t = Uint8Array.from(env);
      t[i]! ^= 0x01;
      return t;
    };
    expect(openCode(key, flip(0), aad)).toBe('UNSUPPORTED_VERSION');
    for (const i of [1, 6, 12]) expect(openCode(key, flip(i), aad)).toBe('AUTHENTICATION_FAILED'); // nonce
    for (const i of [13, 20, 13 + plaintext.length - 1]) expect(openCode(key, flip(i), aad)).toBe('AUTHENTICATION_FAILED');
    for (const i of [env.length - 16, env.length - 1]) expect(openCode(key, flip(i), aad)).toBe('AUTHENTICATION_FAILED');
  });

  it('rejects truncation and extension', () => {
    expect(openCode(key, env.subarray(0, env.length - 1), aad)).toBe('AUTHENTICATION_FAILED');
    expect(openCode(key, Uint8Array.from([...env, 0]), aad)).toBe('AUTHENTICATION_FAILED');
    expect(openCode(key, env.subarray(0, 28), aad)).toBe('MALFORMED');
    expect(openCode(key, new Uint8Array(), aad)).toBe('MALFORMED');
  });

  it('binds the associated data and the key', () => {
    expect(openCode(key, env, new TextEncoder().encode('contract:c-2/snapshot/v1'))).toBe('AUTHENTICATION_FAILED');
    expect(openCode(key, env, new Uint8Array())).toBe('AUTHENTICATION_FAILED');
    expect(openCode(key, env, Uint8Array.from([...aad, 0]))).toBe('AUTHENTICATION_FAILED');
    expect(openCode(new Uint8Array(randomBytes(32)), env, aad)).toBe('AUTHENTICATION_FAILED');
  });

  it('uses a fresh random nonce per seal', () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2000; i++) nonces.add(bytesToHex(aeadSeal(key, plaintext, aad).subarray(1, 13)));
    expect(nonces.size).toBe(2000);
  });

  it('fuzz: any envelope-shaped bytes fail only with AeadError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.boolean(), (bytes, setVersion) => {
        const e = Uint8Array.from(bytes);
        if (setVersion && e.length > 0) e[0] = AEAD_ENVELOPE_VERSION;
        expect(openCode(key, e, aad)).not.toBe('OK');
      }),
      { numRuns: 300 },
    );
  });

  it('validates arguments by name', () => {
    expect(() => aeadSeal(new Uint8Array(16), plaintext, aad)).toThrow('aeadSeal: "key" must be 32 bytes');
    expect(() => aeadSeal(key, 'x' as never, aad)).toThrow(/"plaintext"/);
    expect(() => aeadOpen(key, env, 'x' as never)).toThrow(/"associatedData"/);
    expect(() => aeadOpen(key, [1] as never, aad)).toThrow(/"envelope"/);
  });
});
