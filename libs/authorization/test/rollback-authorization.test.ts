import { describe, expect, it } from 'vitest';
import {
  ArtifactKind,
  ArtifactVerificationError,
  artifactDigestOf,
  createRollbackAuthorization,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
  verifyRollbackAuthorization,
} from '../src/index.js';
import type { Artifact } from '../src/index.js';
import { HOUR, NOW, VERIFIED_FINGERPRINT, keyring, mutable, rollbackRequest } from './fixtures.js';

const EXPECTED = Object.freeze({
  contractId: 'contract-1',
  operationId: 'op-1',
  stateVersion: 5,
  verifiedTargetFingerprint: VERIFIED_FINGERPRINT,
});

function codeOf(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof ArtifactVerificationError ? e.code : 'OTHER';
  }
}

describe('rollback request and rollback authorization', () => {
  const k = keyring();
  const request = rollbackRequest(k.server);
  const authorization = createRollbackAuthorization(request, k.confirmation, { issuedAt: NOW + 1000 });

  it('round-trip canonically, and the request verifies as a pending request (server signature, appliance digest)', () => {
    for (const a of [request, authorization]) expect(encodeArtifact(parseArtifact(encodeArtifact(a)))).toBe(encodeArtifact(a));
    expect(verifyPendingRequest(request, { serverAuthorities: k.authorities, nowMs: NOW + 1 }).kind).toBe(ArtifactKind.ROLLBACK_REQUEST);
    const forged = mutable(request);
    forged.payload.appliance_binding_digest = '00'.repeat(32);
    expect(codeOf(() => verifyPendingRequest(forged as Artifact, { serverAuthorities: k.authorities, nowMs: NOW + 1 }))).not.toBeNull();
  });

  it('binds the contract, its VERIFIED state version, the sealed fingerprint and the request it answers; expires with the request', () => {
    expect(authorization.payload).toMatchObject({
      contract_id: 'contract-1',
      operation_id: 'op-1',
      state_version: 5,
      verified_target_fingerprint: VERIFIED_FINGERPRINT,
      request_digest: artifactDigestOf(request),
      expires_at: NOW + HOUR,
    });
    const facts = verifyRollbackAuthorization(authorization, { authorities: k.authorities, nowMs: NOW + 2000, expected: EXPECTED });
    expect(facts).toEqual({
      rollbackAuthorizationId: authorization.payload.rollback_authorization_id,
      authorizationDigest: artifactDigestOf(authorization),
      authorityKeyId: k.confirmation.keyId,
      issuedAt: NOW + 1000,
      expiresAt: NOW + HOUR,
    });
  });

  it.each([
    ['another contract', { contractId: 'contract-2' }],
    ['another operation', { operationId: 'op-2' }],
    ['another state version (the rollback already began, or the contract moved)', { stateVersion: 6 }],
    ['another verified alias', { verifiedTargetFingerprint: 'cd'.repeat(32) }],
  ])('refuses an authorization bound to %s (BINDING_MISMATCH)', (_what, change) => {
    const code = codeOf(() =>
      verifyRollbackAuthorization(authorization, { authorities: k.authorities, nowMs: NOW + 2000, expected: { ...EXPECTED, ...change } }),
    );
    expect(code).toBe('BINDING_MISMATCH');
  });

  it('refuses a key of another role, an expired authorization and another kind', () => {
    const byPlanKey = createRollbackAuthorization(request, k.plan, { issuedAt: NOW + 1000 });
    expect(
      codeOf(() => verifyRollbackAuthorization(byPlanKey, { authorities: k.authorities, nowMs: NOW + 2000, expected: EXPECTED })),
    ).not.toBeNull();
    expect(
      codeOf(() => verifyRollbackAuthorization(authorization, { authorities: k.authorities, nowMs: NOW + 2 * HOUR, expected: EXPECTED })),
    ).not.toBeNull();
    expect(codeOf(() => verifyRollbackAuthorization(request, { authorities: k.authorities, nowMs: NOW + 2000, expected: EXPECTED }))).toBe(
      'WRONG_KIND',
    );
  });

  it('a tampered byte of the signed payload never verifies', () => {
    const t = mutable(authorization);
    t.payload.state_version = 4;
    expect(
      codeOf(() =>
        verifyRollbackAuthorization(t as Artifact, {
          authorities: k.authorities,
          nowMs: NOW + 2000,
          expected: { ...EXPECTED, stateVersion: 4 },
        }),
      ),
    ).not.toBeNull();
  });
});
