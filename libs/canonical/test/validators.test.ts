import { describe, expect, it } from 'vitest';
import {
  SAFE_TOKEN_MAX_LENGTH,
  ValidationError,
  assertHex64,
  assertNfc,
  assertSafeToken,
  bytesToHex,
  hexToBytes,
  isHex64,
  isNfc,
  isSafeToken,
  isWellFormed,
} from '../src/index.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).code;
  }
  throw new Error('expected a ValidationError');
}

describe('safe tokens', () => {
  it('accepts ids of the documented alphabet, up to 128 characters', () => {
    for (const ok of ['a', 'Z9', 'op-1', 'contract_01.x:y', '0', 'a'.repeat(SAFE_TOKEN_MAX_LENGTH)]) {
      expect(isSafeToken(ok)).toBe(true);
      expect(assertSafeToken(ok, 'id')).toBe(ok);
    }
  });

  it('refuses everything else, naming the argument', () => {
    for (const bad of ['', '.', '..', '-a', '_a', 'a b', 'a/b', 'a\\b', 'a"b', "a'b", 'a\nb', 'é', 'a'.repeat(129), 'a\u0000']) {
      expect(isSafeToken(bad)).toBe(false);
      expect(codeOf(() => assertSafeToken(bad, 'operation_id'))).toBe('NOT_SAFE_TOKEN');
    }
    expect(codeOf(() => assertSafeToken(5, 'operation_id'))).toBe('NOT_STRING');
    expect(() => assertSafeToken('a b', 'operation_id')).toThrow(/^operation_id: /);
    expect(isSafeToken(null)).toBe(false);
  });
});

describe('hex64', () => {
  const good = 'ab'.repeat(32);
  it('accepts exactly 64 lowercase hex', () => {
    expect(isHex64(good)).toBe(true);
    expect(assertHex64(good, 'digest')).toBe(good);
  });
  it('refuses uppercase, wrong length, non-hex, non-strings', () => {
    for (const bad of ['AB'.repeat(32), 'ab'.repeat(31), 'ab'.repeat(32) + 'a', 'g'.repeat(64), ` ${good}`, `${good}\n`]) {
      expect(isHex64(bad)).toBe(false);
      expect(codeOf(() => assertHex64(bad, 'digest'))).toBe('NOT_HEX64');
    }
    expect(codeOf(() => assertHex64(undefined, 'digest'))).toBe('NOT_STRING');
  });
});

describe('NFC', () => {
  it('accepts NFC strings, refuses decomposed, lone surrogates and non-strings', () => {
    expect(assertNfc('caf\u00e9', 'alias_name')).toBe('caf\u00e9');
    expect(assertNfc('', 'alias_name')).toBe('');
    expect(assertNfc('😀', 'alias_name')).toBe('😀');
    expect(codeOf(() => assertNfc('cafe\u0301', 'alias_name'))).toBe('NOT_NFC');
    expect(codeOf(() => assertNfc('\u212b', 'alias_name'))).toBe('NOT_NFC'); // ANGSTROM SIGN → Å
    expect(codeOf(() => assertNfc('a\ud800', 'alias_name'))).toBe('LONE_SURROGATE');
    expect(codeOf(() => assertNfc(['x'], 'alias_name'))).toBe('NOT_STRING');
    expect(() => assertNfc('cafe\u0301', 'description')).toThrow(/^description: /);
    expect(isNfc('cafe\u0301')).toBe(false);
    expect(isNfc('café')).toBe(true);
  });
  it('isWellFormed detects lone and reversed surrogates', () => {
    expect(isWellFormed('a😀b')).toBe(true);
    expect(isWellFormed('\ud83d')).toBe(false);
    expect(isWellFormed('\ude00\ud83d')).toBe(false);
  });
});

describe('hex', () => {
  it('round-trips, lowercase only', () => {
    const b = new Uint8Array([0, 1, 0xab, 0xff]);
    expect(bytesToHex(b)).toBe('0001abff');
    expect(hexToBytes('0001abff')).toEqual(b);
    expect(bytesToHex(new Uint8Array(new Uint8Array([9, 8, 7]).buffer, 1, 2))).toBe('0807');
    expect(hexToBytes('')).toEqual(new Uint8Array());
  });
  it('refuses odd length, uppercase and junk', () => {
    for (const bad of ['0', 'AB', 'zz', '0x00', 'a b']) expect(codeOf(() => hexToBytes(bad))).toBe('NOT_HEX');
    expect(() => hexToBytes(1 as never)).toThrow(TypeError);
    expect(() => bytesToHex([1] as never)).toThrow(TypeError);
  });
});
