import { bytesToHex, canonicalize, digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { ed25519Sign, PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { describe, expect, it } from 'vitest';
import {
  ArtifactFormatError,
  ArtifactVerificationError,
  MAX_ARTIFACT_BYTES,
  MAX_CLOCK_SKEW_MS,
  applianceBindingDigest,
  checkAnswersThisServer,
  checkConfirmationBinding,
  checkCurrentness,
  checkPlanAuthorizationBinding,
  checkReconciliationBinding,
  checkReleaseBinding,
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  createPlanAuthorizationV2,
  createReconciliationEvidence,
  createReservationRelease,
  encodeArtifact,
  parseArtifact,
  signingDigestBytes,
  verifyArtifactSignature,
  verifyPendingRequest,
  verifyPlanAuthorization,
} from '../src/index.js';
import type { SignedArtifact } from '../src/index.js';
import {
  appliance,
  authorizationRequest,
  confirmationRequest,
  HOUR,
  intent,
  keyring,
  mutable,
  type Json,
  newKey,
  NOW,
  pin,
  reconciliationRequest,
  releaseRequest,
} from './fixtures.js';

function formatCode(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ArtifactFormatError) return e.code;
    throw e;
  }
  return 'ACCEPTED';
}

function verifyCode(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ArtifactVerificationError) return e.code;
    throw e;
  }
  return 'ACCEPTED';
}

/** Re-sign a (tampered) document body with a key, exactly as a holder of that key could. */
function resign(doc: Json, key: { privateKey: Uint8Array }): Json {
  const sig = ed25519Sign(key.privateKey, signingDigestBytes(doc.kind, doc.version, doc.payload));
  return { ...doc, proof: { signature: bytesToHex(sig) } };
}

const k = keyring();
const authzReq = authorizationRequest(k.server);
const authz = createPlanAuthorizationFromRequest(authzReq, k.plan, { issuedAt: NOW });
const expected = {
  planDigest: authzReq.payload.plan_digest,
  stepId: 'alias-description',
  executionIntentDigest: authzReq.payload.execution_intent_digest,
};

describe('signature: role, pinning, algorithm', () => {
  it('refuses an authorization signed by a key pinned for another role', () => {
    const byConfirmationKey = createPlanAuthorizationFromRequest(authzReq, k.confirmation, { issuedAt: NOW });
    expect(verifyCode(() => verifyArtifactSignature(byConfirmationKey, k.authorities))).toBe('WRONG_ROLE');
  });

  it('refuses the server-request key in every operator role', () => {
    const a = createPlanAuthorizationFromRequest(authzReq, k.server, { issuedAt: NOW });
    const c = createConfirmationEvidence(confirmationRequest(k.server), k.server, { issuedAt: NOW });
    const r = createReconciliationEvidence(reconciliationRequest(k.server), k.server, { issuedAt: NOW, outcome: 'NOT_APPLIED' });
    const l = createReservationRelease(releaseRequest(k.server), k.server, { issuedAt: NOW });
    for (const x of [a, c, r, l]) expect(verifyCode(() => verifyArtifactSignature(x, k.authorities))).toBe('WRONG_ROLE');
  });

  it('refuses a pending request signed by an operator key (requests need the server-request role)', () => {
    const forged = authorizationRequest(k.plan);
    expect(verifyCode(() => verifyArtifactSignature(forged, k.authorities))).toBe('WRONG_ROLE');
  });

  it('refuses an unpinned key and an inactive key', () => {
    const stranger = newKey();
    expect(
      verifyCode(() => verifyArtifactSignature(createPlanAuthorizationFromRequest(authzReq, stranger, { issuedAt: NOW }), k.authorities)),
    ).toBe('UNKNOWN_KEY');
    const retired = PinnedAuthoritySet.of([pin(k.plan, 'plan-authorization', false)]);
    expect(verifyCode(() => verifyArtifactSignature(authz, retired))).toBe('INACTIVE_KEY');
  });

  it.each(['none', 'HS256', 'ed25519', 'Ed448', 'RS256'])('refuses algorithm %s before any key or signature work', (alg) => {
    const doc = mutable(authz);
    doc.payload.algorithm = alg;
    const stranger = newKey(); // even with an unpinned key id, the algorithm is what is reported
    doc.payload.key_id = stranger.keyId;
    const signed = resign(doc, stranger);
    const parsed = parseArtifact(canonicalize(signed)) as SignedArtifact;
    expect(verifyCode(() => verifyArtifactSignature(parsed, k.authorities))).toBe('UNSUPPORTED_ALGORITHM');
  });

  it('refuses any change to a signed payload (tampered description in a pending request)', () => {
    const doc = mutable(authzReq);
    doc.payload.review.new_description = 'Something else';
    const parsed = parseArtifact(canonicalize(doc)) as SignedArtifact;
    expect(verifyCode(() => verifyArtifactSignature(parsed, k.authorities))).toBe('BAD_SIGNATURE');
  });

  it('refuses a signature lifted from another kind (domain separation: confirmation → reconciliation)', () => {
    const conf = createConfirmationEvidence(confirmationRequest(k.server), k.reconciliation, { issuedAt: NOW });
    const rec = mutable(
      createReconciliationEvidence(reconciliationRequest(k.server), k.reconciliation, { issuedAt: NOW, outcome: 'APPLIED' }),
    );
    rec.proof = mutable(conf.proof);
    const parsed = parseArtifact(canonicalize(rec)) as SignedArtifact;
    expect(verifyCode(() => verifyArtifactSignature(parsed, k.authorities))).toBe('BAD_SIGNATURE');
  });

  it('a hand-built object cannot skip the schema', () => {
    const doc = mutable(authz);
    doc.payload.extra = 1;
    expect(formatCode(() => verifyArtifactSignature(doc, k.authorities))).toBe('SCHEMA');
  });
});

describe('currentness', () => {
  it('is exclusive at expires_at', () => {
    expect(verifyCode(() => checkCurrentness(authz, authz.payload.expires_at - 1))).toBe('ACCEPTED');
    expect(verifyCode(() => checkCurrentness(authz, authz.payload.expires_at))).toBe('EXPIRED');
    expect(verifyCode(() => checkCurrentness(authz, authz.payload.expires_at + HOUR))).toBe('EXPIRED');
  });

  it('allows a small clock skew for issued_at and refuses more', () => {
    expect(verifyCode(() => checkCurrentness(authz, NOW - MAX_CLOCK_SKEW_MS))).toBe('ACCEPTED');
    expect(verifyCode(() => checkCurrentness(authz, NOW - MAX_CLOCK_SKEW_MS - 1))).toBe('NOT_YET_VALID');
  });

  it('refuses an expired pending request in verifyPendingRequest', () => {
    expect(verifyCode(() => verifyPendingRequest(authzReq, { serverAuthorities: k.authorities, nowMs: NOW + HOUR }))).toBe('EXPIRED');
  });

  it('refuses a bad clock value', () => {
    expect(() => checkCurrentness(authz, Number.NaN)).toThrow(TypeError);
  });

  it('orders the gates: signature before currentness before binding', () => {
    const stranger = createPlanAuthorizationFromRequest(authzReq, newKey(), { issuedAt: NOW });
    const late = NOW + 2 * HOUR;
    const wrong = { ...expected, stepId: 'other' };
    expect(verifyCode(() => verifyPlanAuthorization(stranger, { authorities: k.authorities, nowMs: late, expected: wrong }))).toBe(
      'UNKNOWN_KEY',
    );
    expect(verifyCode(() => verifyPlanAuthorization(authz, { authorities: k.authorities, nowMs: late, expected: wrong }))).toBe('EXPIRED');
    expect(verifyCode(() => verifyPlanAuthorization(authz, { authorities: k.authorities, nowMs: NOW, expected: wrong }))).toBe(
      'STEP_NOT_AUTHORIZED',
    );
  });
});

describe('binding', () => {
  it('refuses a wrong step, another intent digest and another plan', () => {
    expect(verifyCode(() => checkPlanAuthorizationBinding(authz, { ...expected, stepId: 'alias-description-2' }))).toBe(
      'STEP_NOT_AUTHORIZED',
    );
    expect(verifyCode(() => checkPlanAuthorizationBinding(authz, { ...expected, stepId: 'ALIAS-DESCRIPTION' }))).toBe(
      'STEP_NOT_AUTHORIZED',
    );
    expect(verifyCode(() => checkPlanAuthorizationBinding(authz, { ...expected, executionIntentDigest: 'a'.repeat(64) }))).toBe(
      'INTENT_MISMATCH',
    );
    expect(verifyCode(() => checkPlanAuthorizationBinding(authz, { ...expected, planDigest: 'b'.repeat(64) }))).toBe('PLAN_MISMATCH');
    expect(verifyCode(() => checkPlanAuthorizationBinding(authz, expected))).toBe('ACCEPTED');
  });

  it('binds each step to its own intent in a multi-step authorization', () => {
    const two = createPlanAuthorizationV2(
      {
        planDigest: 'c'.repeat(64),
        steps: [
          { step_id: 'b-step', execution_intent_digest: '2'.repeat(64) },
          { step_id: 'a-step', execution_intent_digest: '1'.repeat(64) },
        ],
        riskClass: 'medium',
        requestKeyId: 'e'.repeat(64),
        issuedAt: NOW,
        expiresAt: NOW + HOUR,
      },
      k.plan,
    );
    expect(two.payload.steps.map((s) => s.step_id)).toEqual(['a-step', 'b-step']);
    const base = { planDigest: 'c'.repeat(64) };
    expect(verifyCode(() => checkPlanAuthorizationBinding(two, { ...base, stepId: 'a-step', executionIntentDigest: '1'.repeat(64) }))).toBe(
      'ACCEPTED',
    );
    expect(verifyCode(() => checkPlanAuthorizationBinding(two, { ...base, stepId: 'a-step', executionIntentDigest: '2'.repeat(64) }))).toBe(
      'INTENT_MISMATCH',
    );
  });

  it('refuses a confirmation for a swapped contract id (and every other swapped fact)', () => {
    const req = confirmationRequest(k.server, 'contract-A');
    const conf = createConfirmationEvidence(req, k.confirmation, { issuedAt: NOW });
    const exp = {
      contractId: 'contract-A',
      operationId: 'op-1',
      intentDigest: req.payload.intent_digest,
      executionIntentDigest: req.payload.execution_intent_digest,
      targetFingerprint: req.payload.target_fingerprint,
    };
    expect(verifyCode(() => checkConfirmationBinding(conf, exp))).toBe('ACCEPTED');
    for (const swap of [
      { contractId: 'contract-B' },
      { operationId: 'op-2' },
      { intentDigest: 'd'.repeat(64) },
      { executionIntentDigest: 'e'.repeat(64) },
      { targetFingerprint: 'f'.repeat(64) },
    ]) {
      expect(verifyCode(() => checkConfirmationBinding(conf, { ...exp, ...swap }))).toBe('BINDING_MISMATCH');
    }
  });

  it('an authorization or confirmation names the request key it answers; another server refuses it', () => {
    const other = newKey();
    const auth = createPlanAuthorizationFromRequest(authorizationRequest(k.server), k.plan, { issuedAt: NOW });
    const conf = createConfirmationEvidence(confirmationRequest(k.server, 'contract-A'), k.confirmation, { issuedAt: NOW });
    for (const answer of [auth, conf]) {
      expect(answer.payload.request_key_id).toBe(k.server.keyId);
      // The server's current key, or one it retired: accepted.
      expect(verifyCode(() => checkAnswersThisServer(answer, [k.server.keyId]))).toBe('ACCEPTED');
      expect(verifyCode(() => checkAnswersThisServer(answer, [other.keyId, k.server.keyId]))).toBe('ACCEPTED');
      // A server whose request keys never included it: refused.
      expect(verifyCode(() => checkAnswersThisServer(answer, [other.keyId]))).toBe('OTHER_SERVER');
      expect(verifyCode(() => checkAnswersThisServer(answer, []))).toBe('OTHER_SERVER');
    }
    // The field is signed: an answer without it is not one this build reads.
    const doc = mutable(auth);
    delete (doc.payload as Record<string, unknown>).request_key_id;
    expect(() => parseArtifact(Buffer.from(canonicalize(doc as Json)))).toThrow(ArtifactFormatError);
  });

  it('refuses reconciliation evidence for another state version, origin or contract', () => {
    const rec = createReconciliationEvidence(reconciliationRequest(k.server), k.reconciliation, { issuedAt: NOW, outcome: 'NOT_APPLIED' });
    const exp = { contractId: 'contract-1', operationId: 'op-1', stateVersion: 4, origin: 'EXECUTING' as const };
    expect(verifyCode(() => checkReconciliationBinding(rec, exp))).toBe('ACCEPTED');
    expect(verifyCode(() => checkReconciliationBinding(rec, { ...exp, stateVersion: 5 }))).toBe('BINDING_MISMATCH');
    expect(verifyCode(() => checkReconciliationBinding(rec, { ...exp, origin: 'ROLLING_BACK' }))).toBe('BINDING_MISMATCH');
    expect(verifyCode(() => checkReconciliationBinding(rec, { ...exp, contractId: 'contract-2' }))).toBe('BINDING_MISMATCH');
  });

  it('refuses a release for another state version', () => {
    const rel = createReservationRelease(releaseRequest(k.server), k.reconciliation, { issuedAt: NOW });
    expect(verifyCode(() => checkReleaseBinding(rel, { contractId: 'contract-1', operationId: 'op-1', stateVersion: 7 }))).toBe('ACCEPTED');
    expect(verifyCode(() => checkReleaseBinding(rel, { contractId: 'contract-1', operationId: 'op-1', stateVersion: 6 }))).toBe(
      'BINDING_MISMATCH',
    );
  });

  it('refuses a forward APPLIED resolution without the observed fingerprint', () => {
    const doc = mutable(
      createReconciliationEvidence(reconciliationRequest(k.server), k.reconciliation, { issuedAt: NOW, outcome: 'APPLIED' }),
    );
    doc.payload.observed_fingerprint = null;
    expect(formatCode(() => parseArtifact(canonicalize(resign(doc, k.reconciliation))))).toBe('SCHEMA');
  });
});

describe('pending request digests', () => {
  it('refuses a validly server-signed request whose digests do not match its facts', () => {
    for (const tamper of [
      (d: Json) => (d.payload.execution_intent.payload.normalized_intent.new_description = 'other'),
      (d: Json) => (d.payload.appliance.appliance_id = 'other-appliance'),
      (d: Json) => (d.payload.step_id = 'other-step'),
      (d: Json) => (d.payload.execution_intent.payload.appliance_binding_digest = '0'.repeat(64)),
    ]) {
      const doc = mutable(authzReq);
      tamper(doc);
      const parsed = parseArtifact(canonicalize(resign(doc, k.server)));
      expect(verifyCode(() => verifyPendingRequest(parsed, { serverAuthorities: k.authorities, nowMs: NOW }))).toBe('DIGEST_MISMATCH');
    }
  });

  it('refuses a confirmation request whose target fingerprint is not the precondition', () => {
    const doc = mutable(confirmationRequest(k.server));
    doc.payload.target_fingerprint = '9'.repeat(64);
    const parsed = parseArtifact(canonicalize(resign(doc, k.server)));
    expect(verifyCode(() => verifyPendingRequest(parsed, { serverAuthorities: k.authorities, nowMs: NOW }))).toBe('DIGEST_MISMATCH');
  });

  it('reconciliation and release requests carry the appliance binding and the contract digests, and a tampered appliance is refused', () => {
    for (const request of [reconciliationRequest(k.server), releaseRequest(k.server)]) {
      expect(request.payload).toMatchObject({
        appliance,
        appliance_binding_digest: applianceBindingDigest(appliance),
        target_fingerprint: intent.payload.precondition_fingerprint,
        intent_digest: digest(DigestPurpose.INTENT, intent.payload.normalized_intent),
      });
      expect(verifyPendingRequest(request, { serverAuthorities: k.authorities, nowMs: NOW })).toBe(request);
      for (const tamper of [
        (d: Json) => (d.payload.appliance.appliance_id = 'other-appliance'),
        (d: Json) => (d.payload.appliance_binding_digest = '0'.repeat(64)),
      ]) {
        const doc = mutable(request);
        tamper(doc);
        const parsed = parseArtifact(canonicalize(resign(doc, k.server)));
        expect(verifyCode(() => verifyPendingRequest(parsed, { serverAuthorities: k.authorities, nowMs: NOW }))).toBe('DIGEST_MISMATCH');
      }
      // Without the appliance facts the request is malformed (strict schema), not shown with "appliance: null".
      const bare = mutable(request);
      delete bare.payload.appliance;
      expect(formatCode(() => parseArtifact(canonicalize(resign(bare, k.server))))).toBe('SCHEMA');
    }
  });

  it('refuses to treat an operator artifact as a pending request', () => {
    expect(verifyCode(() => verifyPendingRequest(authz, { serverAuthorities: k.authorities, nowMs: NOW }))).toBe('WRONG_KIND');
  });
});

describe('version and kind confusion', () => {
  it('refuses an unknown or older version without reading it as the supported one', () => {
    for (const version of [1, 3, 0, -1, 2.5]) {
      const doc = mutable(authz);
      doc.version = version;
      const text = Number.isInteger(version) ? canonicalize(doc) : JSON.stringify(doc);
      expect(['UNSUPPORTED_VERSION', 'NOT_CANONICAL']).toContain(formatCode(() => parseArtifact(text)));
    }
    const doc = mutable(authz);
    doc.version = 1;
    expect(formatCode(() => parseArtifact(canonicalize(doc)))).toBe('UNSUPPORTED_VERSION');
  });

  it('refuses a document re-labelled as another kind', () => {
    const doc = mutable(authz);
    doc.kind = 'pfsense-mcp/confirmation';
    doc.version = 1;
    expect(formatCode(() => parseArtifact(canonicalize(doc)))).toBe('SCHEMA');
    doc.kind = 'pfsense-mcp/plan-authorization-v3';
    expect(formatCode(() => parseArtifact(canonicalize(doc)))).toBe('UNKNOWN_KIND');
  });

  it('a signature made for version 1 of the same payload never verifies as version 2', () => {
    const doc = mutable(authz);
    const sigV1 = ed25519Sign(k.plan.privateKey, signingDigestBytes(doc.kind, 1, doc.payload));
    doc.proof.signature = bytesToHex(sigV1);
    const parsed = parseArtifact(canonicalize(doc)) as SignedArtifact;
    expect(verifyCode(() => verifyArtifactSignature(parsed, k.authorities))).toBe('BAD_SIGNATURE');
  });
});

describe('strict file parsing', () => {
  const text = encodeArtifact(authz);

  it('refuses unknown fields at every level', () => {
    for (const add of [
      (d: Json) => (d.extra = 1),
      (d: Json) => (d.payload.extra = 1),
      (d: Json) => (d.proof.key_id = d.payload.key_id),
      (d: Json) => (d.payload.steps[0].note = 'x'),
    ]) {
      const doc = mutable(authz);
      add(doc);
      expect(formatCode(() => parseArtifact(canonicalize(doc)))).toBe('SCHEMA');
    }
    const req = mutable(authzReq);
    req.payload.review.pre_state.id = 3;
    expect(formatCode(() => parseArtifact(canonicalize(req)))).toBe('SCHEMA');
    const req2 = mutable(authzReq);
    req2.payload.execution_intent.payload.extra = true;
    expect(formatCode(() => parseArtifact(canonicalize(req2)))).toBe('SCHEMA');
  });

  it('refuses "__proto__" as a key', () => {
    const evil = text.replace('{"kind"', '{"__proto__":{},"kind"');
    expect(['SCHEMA', 'NOT_CANONICAL']).toContain(formatCode(() => parseArtifact(evil)));
  });

  it('refuses non-canonical bytes', () => {
    const doc = JSON.parse(text);
    const variants = [
      JSON.stringify(doc, null, 2),
      `${text}\n`,
      ` ${text}`,
      text.replace('"kind":', '"kind" :'),
      JSON.stringify({ version: doc.version, kind: doc.kind, payload: doc.payload, proof: doc.proof }), // key order
      text.replace('{"kind":"pfsense-mcp/plan-authorization",', '{"kind":"x","kind":"pfsense-mcp/plan-authorization",'), // duplicate
      text.replace('pfsense-mcp/plan-authorization', 'pfsense-mcp\\/plan-authorization'), // escape spelling
      text.replace('"version":2', '"version":2.0'),
    ];
    for (const v of variants) expect(formatCode(() => parseArtifact(v))).toBe('NOT_CANONICAL');
    // A BOM is not JSON to JSON.parse; either way it is refused.
    expect(['NOT_JSON', 'NOT_CANONICAL']).toContain(formatCode(() => parseArtifact(`\uFEFF${text}`)));
    expect(['NOT_JSON', 'NOT_CANONICAL']).toContain(formatCode(() => parseArtifact(Buffer.from(`\uFEFF${text}`, 'utf8'))));
  });

  it('refuses oversize, invalid UTF-8 and non-JSON input', () => {
    expect(formatCode(() => parseArtifact('x'.repeat(MAX_ARTIFACT_BYTES + 1)))).toBe('TOO_LARGE');
    expect(formatCode(() => parseArtifact(new Uint8Array(MAX_ARTIFACT_BYTES + 1)))).toBe('TOO_LARGE');
    expect(formatCode(() => parseArtifact(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe('NOT_UTF8');
    expect(formatCode(() => parseArtifact('{"kind":'))).toBe('NOT_JSON');
    expect(formatCode(() => parseArtifact('[]'))).toBe('NOT_ENVELOPE');
    expect(formatCode(() => parseArtifact('{"kind":"pfsense-mcp/plan-authorization"}'))).toBe('NOT_ENVELOPE');
  });

  it('refuses empty, unsorted or repeated steps, and over-long validity', () => {
    const empty = mutable(authz);
    empty.payload.steps = [];
    expect(formatCode(() => parseArtifact(canonicalize(empty)))).toBe('SCHEMA');
    const twice = mutable(authz);
    twice.payload.steps = [twice.payload.steps[0], twice.payload.steps[0]];
    expect(formatCode(() => parseArtifact(canonicalize(twice)))).toBe('SCHEMA');
    const long = mutable(authz);
    long.payload.expires_at = long.payload.issued_at + 8 * 24 * HOUR;
    expect(formatCode(() => parseArtifact(canonicalize(long)))).toBe('SCHEMA');
    const backwards = mutable(authz);
    backwards.payload.expires_at = backwards.payload.issued_at;
    expect(formatCode(() => parseArtifact(canonicalize(backwards)))).toBe('SCHEMA');
  });

  it('error messages carry no value from the document', () => {
    const doc = mutable(authzReq);
    doc.payload.review.new_description = 'SECRET-DESCRIPTION-\u0000';
    doc.payload.review.pre_state.surprise = 'SECRET-VALUE';
    try {
      parseArtifact(canonicalize(doc));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ArtifactFormatError);
      expect(String((e as Error).message)).not.toContain('SECRET');
      expect(String((e as Error).message)).not.toContain('surprise');
    }
  });
});
