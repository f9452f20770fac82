import { canonicalize } from '@pfsense-mcp/canonical';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACT_CANONICAL_LIMITS,
  ArtifactFormatError,
  MAX_ALIAS_MEMBERS,
  MAX_ALIAS_STATE_BYTES,
  MAX_ARTIFACT_BYTES,
  createPendingReconciliationRequest,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
} from '../src/index.js';
import type { AliasState } from '../src/index.js';
import { HOUR, NOW, PRE_STATE, appliance, authorizationRequest, intent, keyring, mutable } from './fixtures.js';

/** An alias of `members` members taking about `memberBytes` of canonical JSON each. */
function alias(members: number, memberBytes: number): AliasState {
  const address = Array.from({ length: members }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  const detail = address.map((a, i) => `Entry added #${i} `.padEnd(memberBytes - 6 - a.length, 'x'));
  return { ...PRE_STATE, address, detail };
}

const keys = keyring();

function authorization(pre: AliasState) {
  return authorizationRequest(keys.server, { review: { pre_state: pre, new_description: 'Blocklist (reviewed)' } });
}

function reconciliation(pre: AliasState, observed: AliasState) {
  return createPendingReconciliationRequest(
    {
      contractId: 'contract-1',
      operationId: 'op-1',
      stateVersion: 4,
      origin: 'EXECUTING',
      observedFingerprint: 'a'.repeat(64),
      observedLocator: 3,
      observedState: observed,
      review: { pre_state: pre, new_description: 'Blocklist (reviewed)' },
      observedPfTable: null,
      configHistory: null,
      appliance,
      targetFingerprint: intent.payload.precondition_fingerprint,
      intentDigest: 'b'.repeat(64),
      issuedAt: NOW,
      expiresAt: NOW + HOUR,
    },
    keys.server,
  );
}

function formatError(f: () => unknown): ArtifactFormatError {
  try {
    f();
  } catch (e) {
    if (e instanceof ArtifactFormatError) return e;
    throw e;
  }
  throw new Error('expected an ArtifactFormatError');
}

const AT_BOUND = alias(MAX_ALIAS_MEMBERS, 209);

describe('alias size bounds', () => {
  it('are 20,000 members, 4 MiB per alias state and two states plus 128 KiB per file', () => {
    expect(MAX_ALIAS_MEMBERS).toBe(20_000);
    expect(MAX_ALIAS_STATE_BYTES).toBe(4_194_304);
    expect(MAX_ARTIFACT_BYTES).toBe(8_519_680);
    const bytes = Buffer.byteLength(canonicalize(AT_BOUND, ARTIFACT_CANONICAL_LIMITS));
    expect(bytes).toBeLessThanOrEqual(MAX_ALIAS_STATE_BYTES);
    expect(bytes).toBeGreaterThan(MAX_ALIAS_STATE_BYTES - 32 * 1024);
  });

  it('a reconciliation request carrying two states at the bound is built, encoded, parsed and verified', () => {
    const request = reconciliation(AT_BOUND, { ...AT_BOUND, descr: 'Blocklist (reviewed)' });
    const text = encodeArtifact(request);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * MAX_ALIAS_STATE_BYTES - 64 * 1024);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_ARTIFACT_BYTES);
    const parsed = parseArtifact(Buffer.from(text));
    expect(() => verifyPendingRequest(parsed, { serverAuthorities: keys.authorities, nowMs: NOW })).not.toThrow();
    expect(encodeArtifact(authorization(AT_BOUND)).length).toBeLessThan(MAX_ALIAS_STATE_BYTES + 64 * 1024);
  });

  it('a builder refuses one member more, or more bytes, as TOO_LARGE naming the path only', () => {
    const more = formatError(() => authorization(alias(MAX_ALIAS_MEMBERS + 1, 40)));
    expect([more.code, more.path]).toEqual(['TOO_LARGE', 'payload.review.pre_state.address']);
    const fat = formatError(() => authorization(alias(MAX_ALIAS_MEMBERS, 220)));
    expect([fat.code, fat.path]).toEqual(['TOO_LARGE', 'payload.review.pre_state']);
    expect(fat.message).not.toContain('Entry added');
    const observed = formatError(() => reconciliation(PRE_STATE, alias(MAX_ALIAS_MEMBERS + 1, 40)));
    expect([observed.code, observed.path]).toEqual(['TOO_LARGE', 'payload.observed_state.address']);
  });

  it('a file whose alias state is beyond a bound is refused (too many members: TOO_LARGE; too many bytes: SCHEMA)', () => {
    const doc = mutable(authorization(alias(100, 40)));
    doc.payload.review.pre_state = alias(MAX_ALIAS_MEMBERS + 1, 40);
    expect(formatError(() => parseArtifact(canonicalize(doc, { maxArrayLength: 30_000, maxBytes: MAX_ARTIFACT_BYTES }))).code).toBe(
      'TOO_LARGE',
    );
    doc.payload.review.pre_state = alias(MAX_ALIAS_MEMBERS, 220);
    expect(formatError(() => parseArtifact(canonicalize(doc, ARTIFACT_CANONICAL_LIMITS))).code).toBe('SCHEMA');
  });
});
