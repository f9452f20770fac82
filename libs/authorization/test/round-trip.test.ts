import { describe, expect, it } from 'vitest';
import {
  ArtifactKind,
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  createReconciliationEvidence,
  createReservationRelease,
  encodeArtifact,
  executionIntentDigest,
  parseArtifact,
  parseArtifactOfKind,
  planDigestOf,
  verifyArtifactSignature,
  verifyConfirmationEvidence,
  verifyPendingRequest,
  verifyPlanAuthorization,
  verifyReconciliationEvidence,
  verifyReservationRelease,
} from '../src/index.js';
import type { SignedArtifact } from '../src/index.js';
import {
  authorizationRequest,
  confirmationRequest,
  HOUR,
  intent,
  keyring,
  NOW,
  reconciliationRequest,
  releaseRequest,
} from './fixtures.js';

describe('artifact round trips', () => {
  const k = keyring();
  const authzReq = authorizationRequest(k.server);
  const confReq = confirmationRequest(k.server);
  const recReq = reconciliationRequest(k.server);
  const relReq = releaseRequest(k.server);
  const authz = createPlanAuthorizationFromRequest(authzReq, k.plan, { issuedAt: NOW + 1000 });
  const conf = createConfirmationEvidence(confReq, k.confirmation, { issuedAt: NOW + 1000 });
  const rec = createReconciliationEvidence(recReq, k.reconciliation, { issuedAt: NOW + 1000, outcome: 'APPLIED' });
  const rel = createReservationRelease(relReq, k.reconciliation, { issuedAt: NOW + 1000 });
  const all: readonly SignedArtifact[] = [authzReq, confReq, recReq, relReq, authz, conf, rec, rel];

  it.each(all.map((a) => [a.kind, a] as const))('%s encodes canonically, parses back equal, and verifies', (_kind, a) => {
    const text = encodeArtifact(a);
    const back = parseArtifact(text);
    expect(back).toEqual(a);
    expect(Object.isFrozen(back)).toBe(true);
    expect(Object.isFrozen((back as SignedArtifact).payload)).toBe(true);
    expect(encodeArtifact(back)).toBe(text);
    expect(() => verifyArtifactSignature(back as SignedArtifact, k.authorities)).not.toThrow();
    expect(parseArtifact(Buffer.from(text, 'utf8'))).toEqual(a);
  });

  it('names its kind and version and keeps the proof outside the payload', () => {
    const doc = JSON.parse(encodeArtifact(authz)) as Record<string, unknown>;
    expect(Object.keys(doc).sort()).toEqual(['kind', 'payload', 'proof', 'version']);
    expect(doc.kind).toBe('pfsense-mcp/plan-authorization');
    expect(doc.version).toBe(2);
    expect(Object.keys(doc.proof as object)).toEqual(['signature']);
    expect(JSON.stringify(doc.payload)).not.toContain('signature');
  });

  it('the embedded prepared intent round-trips as its own document too', () => {
    expect(parseArtifactOfKind(encodeArtifact(intent), ArtifactKind.PREPARED_EXECUTION_INTENT)).toEqual(intent);
  });

  it('a pending authorization request verifies and carries recomputable digests', () => {
    expect(verifyPendingRequest(authzReq, { serverAuthorities: k.authorities, nowMs: NOW })).toBe(authzReq);
    const p = authzReq.payload;
    expect(p.execution_intent_digest).toBe(executionIntentDigest(intent));
    expect(p.plan_digest).toBe(
      planDigestOf({ operationId: 'op-1', steps: [{ step_id: 'alias-description', execution_intent_digest: p.execution_intent_digest }] }),
    );
  });

  it('the signed authorization copies the request binding and expiry', () => {
    const expected = {
      planDigest: authzReq.payload.plan_digest,
      stepId: 'alias-description',
      executionIntentDigest: authzReq.payload.execution_intent_digest,
    };
    expect(verifyPlanAuthorization(authz, { authorities: k.authorities, nowMs: NOW + 2000, expected })).toBe(authz);
    expect(authz.payload.expires_at).toBe(NOW + HOUR);
    expect(authz.payload.risk_class).toBe('low');
  });

  it('composite verifiers return store-shaped facts', () => {
    const c = verifyConfirmationEvidence(conf, {
      authorities: k.authorities,
      nowMs: NOW + 2000,
      expected: {
        contractId: 'contract-1',
        operationId: 'op-1',
        intentDigest: confReq.payload.intent_digest,
        executionIntentDigest: confReq.payload.execution_intent_digest,
        targetFingerprint: confReq.payload.target_fingerprint,
      },
    });
    expect(c).toMatchObject({
      confirmationId: conf.payload.confirmation_id,
      authorityKeyId: k.confirmation.keyId,
      contractId: 'contract-1',
    });
    expect(c.confirmationDigest).toMatch(/^[0-9a-f]{64}$/);

    const r = verifyReconciliationEvidence(rec, {
      authorities: k.authorities,
      nowMs: NOW + 2000,
      expected: { contractId: 'contract-1', operationId: 'op-1', stateVersion: 4, origin: 'EXECUTING' },
    });
    expect(r).toMatchObject({ outcome: 'FORWARD_APPLIED', authorityRole: 'reconciliation', observedLifecycleLocator: 3, stateVersion: 4 });

    const l = verifyReservationRelease(rel, {
      authorities: k.authorities,
      nowMs: NOW + 2000,
      expected: { contractId: 'contract-1', operationId: 'op-1', stateVersion: 7 },
    });
    expect(l).toMatchObject({ releaseId: rel.payload.release_id, authorityRole: 'reconciliation', stateVersion: 7 });
  });

  it('generated ids are distinct safe tokens', () => {
    const again = createPlanAuthorizationFromRequest(authzReq, k.plan, { issuedAt: NOW + 1000 });
    expect(again.payload.authorization_id).not.toBe(authz.payload.authorization_id);
  });
});
