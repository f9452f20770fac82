import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalError, DigestPurpose, digest, digestBytes, frame, isDigestPurpose, isHex64 } from '../src/index.js';

function lp(s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(8);
  len.writeBigUInt64BE(BigInt(b.length));
  return Buffer.concat([len, b]);
}

describe('DigestPurpose', () => {
  it('is a closed, frozen enum of the agreed kebab-case members (17 agreed first, then PLAN, then the two lab-gate members)', () => {
    expect(Object.isFrozen(DigestPurpose)).toBe(true);
    expect(Object.entries(DigestPurpose)).toEqual([
      ['KEY_ID', 'key-id'],
      ['CONTRACT_RECORD', 'contract-record'],
      ['AUDIT_EVENT', 'audit-event'],
      ['AUDIT_ANCHOR', 'audit-anchor'],
      ['TARGET_IDENTITY', 'target-identity'],
      ['TARGET_FINGERPRINT', 'target-fingerprint'],
      ['INTENT', 'intent'],
      ['SNAPSHOT', 'snapshot'],
      ['EXECUTION_INTENT', 'execution-intent'],
      ['APPLIANCE_BINDING', 'appliance-binding'],
      ['PLAN_AUTHORIZATION_V2', 'plan-authorization-v2'],
      ['AUTHORIZATION_REQUEST', 'authorization-request'],
      ['CONFIRMATION_REQUEST', 'confirmation-request'],
      ['CONFIRMATION', 'confirmation'],
      ['RECONCILIATION_REQUEST', 'reconciliation-request'],
      ['RECONCILIATION', 'reconciliation'],
      ['CONSUMPTION_RECORD', 'consumption-record'],
      ['PLAN', 'plan'],
      ['LAB_GATE_REQUEST', 'lab-gate-request'],
      ['LAB_GATE_RECEIPT', 'lab-gate-receipt'],
      ['CONFIG_HISTORY_DESCRIPTIONS', 'config-history-descriptions'],
      ['CONFIG_HISTORY_EVIDENCE', 'config-history-evidence'],
    ]);
    expect(() => {
      (DigestPurpose as Record<string, string>)['EXTRA'] = 'extra';
    }).toThrow(TypeError);
  });

  it('isDigestPurpose accepts members only', () => {
    expect(isDigestPurpose('key-id')).toBe(true);
    for (const v of ['KEY_ID', 'Key-Id', 'key-id ', '', 'toString', '__proto__', 1, null, undefined]) {
      expect(isDigestPurpose(v)).toBe(false);
    }
  });
});

describe('digest', () => {
  it('is SHA-256 over the length-prefixed frame (product, version, purpose, canonical bytes)', () => {
    const expected = createHash('sha256')
      .update(Buffer.concat([lp('pfsense-mcp'), lp('v1'), lp('key-id'), lp('{"a":1,"b":[true,null]}')]))
      .digest('hex');
    expect(digest(DigestPurpose.KEY_ID, { b: [true, null], a: 1 })).toBe(expected);
    // Pinned: changing the framing silently would invalidate every stored digest and key id.
    expect(expected).toBe('04c1e0d69ba586f621df40a929f1cfebaf27853750af203b53fb9523f3ab09bc');
  });

  it('digestBytes matches digest', () => {
    const v = { x: 'ü' };
    expect(Buffer.from(digestBytes(DigestPurpose.INTENT, v)).toString('hex')).toBe(digest(DigestPurpose.INTENT, v));
    expect(isHex64(digest(DigestPurpose.SNAPSHOT, null))).toBe(true);
  });

  it('refuses anything but a DigestPurpose member, before hashing', () => {
    for (const p of ['KEY_ID', 'key_id', 'other', '', 1, undefined, null, {}]) {
      expect(() => digest(p as DigestPurpose, {})).toThrow('digest: "purpose" must be a DigestPurpose');
      expect(() => digestBytes(p as DigestPurpose, {})).toThrow(TypeError);
    }
  });

  it('propagates canonical refusals and honours limits', () => {
    expect(() => digest(DigestPurpose.INTENT, { a: 1.5 })).toThrow(CanonicalError);
    expect(() => digest(DigestPurpose.INTENT, [1, 2, 3], { maxArrayLength: 2 })).toThrow(/MAX_ARRAY_LENGTH/);
  });

  it('every pair of purposes separates the same value', () => {
    const purposes = Object.values(DigestPurpose);
    const seen = new Set(purposes.map((p) => digest(p, { id: 'x' })));
    expect(seen.size).toBe(purposes.length);
  });
});

describe('frame', () => {
  it('is unambiguous where naive concatenation or NUL delimiters are not', () => {
    const hex = (parts: readonly (string | Uint8Array)[]) => Buffer.from(frame(parts)).toString('hex');
    expect(hex(['ab', 'c'])).not.toBe(hex(['a', 'bc']));
    expect(hex(['a\u0000b'])).not.toBe(hex(['a', 'b']));
    expect(hex(['', 'x'])).not.toBe(hex(['x']));
    expect(hex([])).toBe('');
    expect(hex([new Uint8Array([1, 2])])).toBe('0000000000000002' + '0102');
    expect(() => frame([1 as never])).toThrow(/parts\[0\]/);
  });

  it('property: distinct part lists give distinct frames', () => {
    const parts = fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 });
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        return Buffer.compare(Buffer.from(frame(a)), Buffer.from(frame(b))) !== 0;
      }),
      { numRuns: 300 },
    );
  });
});
