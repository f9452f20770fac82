import { describe, expect, it } from 'vitest';
import {
  ALIAS_DESCRIPTION_MAX_LENGTH,
  AdapterInputError,
  AliasDescriptionAdapter as A,
  aliasDescriptionIntentDigest,
  normalizeAliasDescriptionIntent,
} from '../src/index.js';
import { WEB, intentFor } from './support.js';

const current = WEB;

function refusal(fn: () => unknown): AdapterInputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AdapterInputError);
    return error as AdapterInputError;
  }
  throw new Error('expected a refusal');
}

describe('normalizeAliasDescriptionIntent', () => {
  it('builds the closed, frozen normalized intent', () => {
    const intent = normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: 'Web\tports\nline two' }, current);
    expect(intent).toEqual(intentFor('WEB_PORTS', 'Web\tports\nline two'));
    expect(Object.isFrozen(intent) && Object.isFrozen(intent.raw_target_hint)).toBe(true);
  });

  it('accepts the empty description and exactly 1024 characters; refuses 1025', () => {
    expect(normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: '' }, current).new_description).toBe('');
    const max = 'd'.repeat(ALIAS_DESCRIPTION_MAX_LENGTH);
    expect(normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: max }, current).new_description).toBe(max);
    const e = refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: `${max}d` }, current));
    expect([e.code, e.argument]).toEqual(['TOO_LONG', 'description']);
  });

  it('counts a non-BMP character as two (stricter than code points, like pfrest)', () => {
    const e = refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: '😀'.repeat(513) }, current));
    expect(e.code).toBe('TOO_LONG');
  });

  it.each([
    ['NUL', '\u0000'],
    ['U+0001', 'a\u0001b'],
    ['carriage return', 'a\rb'],
    ['escape', '\u001b[31m'],
    ['DEL', '\u007f'],
    ['C1 control', '\u0085'],
  ])('refuses a control character (%s), naming "description"', (_n, description) => {
    const e = refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description }, current));
    expect([e.code, e.argument]).toEqual(['CONTROL_CHARACTER', 'description']);
  });

  it('refuses a non-NFC description and a lone surrogate; accepts NFC non-ASCII', () => {
    expect(refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: 'Cafe\u0301' }, current)).code).toBe(
      'NOT_NFC',
    );
    expect(refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: 'a\uD800' }, current)).code).toBe(
      'LONE_SURROGATE',
    );
    expect(normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: 'Caf\u00e9 ✓' }, current).new_description).toBe(
      'Café ✓',
    );
  });

  it('refuses a no-op (equal to the current description)', () => {
    const e = refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: 'HTTP and HTTPS' }, current));
    expect([e.code, e.argument]).toEqual(['NO_OP', 'description']);
  });

  it('refuses a target that is not the named alias', () => {
    expect(refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'LAN_SERVERS', description: 'x' }, current)).code).toBe(
      'TARGET_MISMATCH',
    );
  });

  it.each([
    ['empty', '', 'EMPTY'],
    ['32 characters', 'A'.repeat(32), 'TOO_LONG'],
    ['a space', 'WEB PORTS', 'BAD_CHARSET'],
    ['a dash', 'WEB-PORTS', 'BAD_CHARSET'],
    ['non-ASCII', 'Wéb', 'BAD_CHARSET'],
    ['not NFC', 'We\u0301b', 'NOT_NFC'],
    ['a number', 5, 'NOT_STRING'],
  ])('refuses an alias_name that is %s, naming "alias_name"', (_n, aliasName, code) => {
    const e = refusal(() => normalizeAliasDescriptionIntent({ alias_name: aliasName, description: 'x' }, current));
    expect([e.code, e.argument]).toEqual([code, 'alias_name']);
  });

  it('accepts a 31-character name', () => {
    const name = 'A'.repeat(31);
    expect(normalizeAliasDescriptionIntent({ alias_name: name, description: 'x' }, { ...current, name }).raw_target_hint.alias_name).toBe(
      name,
    );
  });

  it('refuses unknown or missing input fields and non-objects', () => {
    expect(refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description: 'x', apply: true }, current)).code).toBe(
      'UNKNOWN_FIELD',
    );
    expect(refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS' }, current)).code).toBe('MISSING_FIELD');
    expect(refusal(() => normalizeAliasDescriptionIntent(null, current)).code).toBe('NOT_OBJECT');
    expect(refusal(() => normalizeAliasDescriptionIntent(['WEB_PORTS', 'x'], current)).code).toBe('NOT_OBJECT');
  });

  it('never echoes the description in any refusal', () => {
    const texts = ['SECRET\u0000', `SECRET${'x'.repeat(2000)}`, 'SECRETe\u0301', 'HTTP and HTTPS'];
    const messages = texts.map(
      (description) => refusal(() => normalizeAliasDescriptionIntent({ alias_name: 'WEB_PORTS', description }, current)).message,
    );
    expect(messages.filter((m) => m.includes('SECRET') || m.includes('HTTP and'))).toEqual([]);
  });
});

describe('intent parsing and digest', () => {
  it('the digest is stable and sensitive to every field', () => {
    const d = aliasDescriptionIntentDigest(intentFor('WEB_PORTS', 'x'));
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(A.intentDigest(intentFor('WEB_PORTS', 'x'))).toBe(d);
    expect(aliasDescriptionIntentDigest(intentFor('WEB_PORTS', 'y'))).not.toBe(d);
    expect(aliasDescriptionIntentDigest(intentFor('LAN_SERVERS', 'x'))).not.toBe(d);
  });

  it('parseIntent refuses another operation, extra keys and a bad hint', () => {
    expect(refusal(() => A.parseIntent({ ...intentFor('WEB_PORTS', 'x'), operation: 'delete_alias' })).argument).toBe('intent.operation');
    expect(refusal(() => A.parseIntent({ ...intentFor('WEB_PORTS', 'x'), apply: true })).code).toBe('UNKNOWN_FIELD');
    expect(refusal(() => A.parseIntent({ ...intentFor('WEB_PORTS', 'x'), raw_target_hint: { alias_name: 'WEB_PORTS', id: 1 } })).code).toBe(
      'UNKNOWN_FIELD',
    );
    expect(refusal(() => A.parseIntent(intentFor('WEB_PORTS', 'a\u0000'))).argument).toBe('intent.new_description');
  });

  it('naturalIdentity takes only {alias_name}; the identity digest binds the capability', () => {
    expect(A.naturalIdentity({ alias_name: 'WEB_PORTS' })).toEqual({ alias_name: 'WEB_PORTS' });
    expect(refusal(() => A.naturalIdentity({ alias_name: 'WEB_PORTS', id: 1 })).code).toBe('UNKNOWN_FIELD');
    expect(refusal(() => A.naturalIdentity({ name: 'WEB_PORTS' })).code).toBe('MISSING_FIELD');
    const d = A.identityDigest({ alias_name: 'WEB_PORTS' });
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(A.identityDigest({ alias_name: 'web_ports' })).not.toBe(d);
  });
});
