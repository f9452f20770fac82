// The reconciliation request's two versions: this build writes v2 (with the config-history corroboration)
// and still reads v1; neither is ever read as the other, and the corroboration carries no revision text but
// pfrest's own alias-update note.
import { bytesToHex, canonicalize } from '@pfsense-mcp/canonical';
import { ed25519Sign } from '@pfsense-mcp/crypto';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACT_RULES,
  ArtifactFormatError,
  ArtifactKind,
  ArtifactVerificationError,
  PFREST_ALIAS_UPDATE_NOTE,
  createReconciliationEvidence,
  encodeArtifact,
  isReadableVersion,
  parseArtifact,
  signingDigestBytes,
  verifyArtifactSignature,
  verifyPendingRequest,
} from '../src/index.js';
import type { SignedArtifact } from '../src/index.js';
import { NOW, ONE_NEW_REVISION, keyring, mutable, reconciliationRequest, reconciliationRequestV1 } from './fixtures.js';
import type { Json } from './fixtures.js';

const k = keyring();

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ArtifactFormatError || e instanceof ArtifactVerificationError) return e.code;
    throw e;
  }
  return 'ACCEPTED';
}

function resigned(doc: Json): string {
  const sig = ed25519Sign(k.server.privateKey, signingDigestBytes(doc.kind, doc.version, doc.payload));
  return canonicalize({ ...doc, proof: { signature: bytesToHex(sig) } });
}

describe('reconciliation request versions', () => {
  it('writes version 2 and reads versions 1 and 2 only', () => {
    expect(ARTIFACT_RULES[ArtifactKind.RECONCILIATION_REQUEST]).toMatchObject({ version: 2, olderVersions: [1] });
    expect([0, 1, 2, 3].map((v) => isReadableVersion(ArtifactKind.RECONCILIATION_REQUEST, v))).toEqual([false, true, true, false]);
    // Every other kind still reads exactly one version.
    for (const kind of Object.values(ArtifactKind)) {
      if (kind !== ArtifactKind.RECONCILIATION_REQUEST) expect(ARTIFACT_RULES[kind].olderVersions).toEqual([]);
    }
  });

  it('a v2 request carries the corroboration, round-trips and verifies', () => {
    const r = reconciliationRequest(k.server);
    expect(r.version).toBe(2);
    expect(r.payload.config_history).toEqual(ONE_NEW_REVISION);
    const back = parseArtifact(encodeArtifact(r));
    expect(back).toEqual(r);
    expect(verifyPendingRequest(back, { serverAuthorities: k.authorities, nowMs: NOW })).toEqual(r);
    // null: nothing was recorded with the send (e.g. an interrupted one).
    const none = reconciliationRequest(k.server, 'EXECUTING', null);
    expect(parseArtifact(encodeArtifact(none))).toMatchObject({ version: 2, payload: { config_history: null } });
  });

  it('a v1 request (no corroboration) still parses, verifies and can be answered', () => {
    const v1 = reconciliationRequestV1(k.server);
    expect(v1.version).toBe(1);
    expect('config_history' in v1.payload).toBe(false);
    expect(verifyPendingRequest(parseArtifact(encodeArtifact(v1)), { serverAuthorities: k.authorities, nowMs: NOW })).toEqual(v1);
    const evidence = createReconciliationEvidence(v1, k.reconciliation, { issuedAt: NOW + 1000, outcome: 'APPLIED' });
    expect(evidence.payload).toMatchObject({ contract_id: v1.payload.contract_id, observed_fingerprint: v1.payload.observed_fingerprint });
  });

  it('neither version is read as the other: v1 with a corroboration, v2 without one, v3 are refused', () => {
    const v1 = mutable(reconciliationRequestV1(k.server));
    v1.payload.config_history = ONE_NEW_REVISION;
    expect(code(() => parseArtifact(resigned(v1)))).toBe('SCHEMA');
    const v2 = mutable(reconciliationRequest(k.server));
    delete v2.payload.config_history;
    expect(code(() => parseArtifact(resigned(v2)))).toBe('SCHEMA');
    const v3 = mutable(reconciliationRequest(k.server));
    v3.version = 3;
    expect(code(() => parseArtifact(resigned(v3)))).toBe('UNSUPPORTED_VERSION');
  });

  it('a v1 signature never verifies as v2 (the version is inside the signed message), nor v2 as v1', () => {
    const v2 = mutable(reconciliationRequest(k.server));
    const sigV1 = ed25519Sign(k.server.privateKey, signingDigestBytes(v2.kind, 1, v2.payload));
    v2.proof.signature = bytesToHex(sigV1);
    expect(code(() => verifyArtifactSignature(parseArtifact(canonicalize(v2)) as SignedArtifact, k.authorities))).toBe('BAD_SIGNATURE');
    const v1 = mutable(reconciliationRequestV1(k.server));
    const sigV2 = ed25519Sign(k.server.privateKey, signingDigestBytes(v1.kind, 2, v1.payload));
    v1.proof.signature = bytesToHex(sigV2);
    expect(code(() => verifyArtifactSignature(parseArtifact(canonicalize(v1)) as SignedArtifact, k.authorities))).toBe('BAD_SIGNATURE');
  });

  it("the corroboration admits only pfrest's fixed note: no revision description, no alias description, no extra field", () => {
    const bad: readonly ((c: Json) => void)[] = [
      (c) => (c.change_note = 'admin@192.0.2.10 (Local Database):  Modified Firewall Alias via API'),
      (c) => (c.change_note = 'Web servers — reviewed'),
      (c) => (c.description = PFREST_ALIAS_UPDATE_NOTE),
      (c) => (c.class = 'SEVERAL'), // a note only for exactly one
      (c) => (c.new_times = [1, 2]), // times must match the count
      (c) => (c.reason = 'READ_FAILED'), // a reason only for UNKNOWN
      (c) => (c.descriptions_digest = null),
    ];
    for (const tamper of bad) {
      const doc = mutable(reconciliationRequest(k.server));
      tamper(doc.payload.config_history);
      expect(code(() => parseArtifact(resigned(doc)))).toBe('SCHEMA');
    }
    const several = mutable(reconciliationRequest(k.server));
    several.payload.config_history = { ...ONE_NEW_REVISION, class: 'SEVERAL', new_count: 2, new_times: [20, 10], change_note: null };
    expect(code(() => parseArtifact(resigned(several)))).toBe('ACCEPTED');
    several.payload.config_history.new_times = [10, 20]; // newest first only
    expect(code(() => parseArtifact(resigned(several)))).toBe('SCHEMA');
  });
});
