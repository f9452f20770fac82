// The reconciliation request's versions: this build writes v3 (v2's config-history corroboration plus the alias's
// pf table as observed) and still reads v1 and v2; none is ever read as another, and the corroboration carries no
// revision text but pfrest's own alias-update note.
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
import type { PfTableState, SignedArtifact } from '../src/index.js';
import { NOW, ONE_NEW_REVISION, keyring, mutable, reconciliationRequest, reconciliationRequestV1 } from './fixtures.js';
import type { Json } from './fixtures.js';

const k = keyring();

/** The alias's pf table as observed: one entry of the alias is not in it (the block did not take effect there). */
const PF_TABLE: PfTableState = Object.freeze({
  status: 'READ',
  entry_count: 1,
  missing_count: 1,
  extra_count: 0,
  missing: Object.freeze(['10.0.0.11']),
  extra: Object.freeze([]),
});

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
  it('writes version 3 and reads versions 1, 2 and 3 only', () => {
    expect(ARTIFACT_RULES[ArtifactKind.RECONCILIATION_REQUEST]).toMatchObject({ version: 3, olderVersions: [1, 2] });
    expect([0, 1, 2, 3, 4].map((v) => isReadableVersion(ArtifactKind.RECONCILIATION_REQUEST, v))).toEqual([false, true, true, true, false]);
    // Every other kind still reads exactly one version.
    for (const kind of Object.values(ArtifactKind)) {
      if (kind !== ArtifactKind.RECONCILIATION_REQUEST) expect(ARTIFACT_RULES[kind].olderVersions).toEqual([]);
    }
  });

  it('a v3 request carries the corroboration and the pf table state, round-trips and verifies', () => {
    const r = reconciliationRequest(k.server, 'EXECUTING', ONE_NEW_REVISION, PF_TABLE);
    expect(r.version).toBe(3);
    expect(r.payload.config_history).toEqual(ONE_NEW_REVISION);
    expect(r.payload.observed_pf_table).toEqual(PF_TABLE);
    const back = parseArtifact(encodeArtifact(r));
    expect(back).toEqual(r);
    expect(verifyPendingRequest(back, { serverAuthorities: k.authorities, nowMs: NOW })).toEqual(r);
    // null: nothing was recorded with the send; a write that does not apply the filter has no table.
    const none = reconciliationRequest(k.server, 'EXECUTING', null);
    expect(parseArtifact(encodeArtifact(none))).toMatchObject({ version: 3, payload: { config_history: null, observed_pf_table: null } });
  });

  it('a v2 request (no pf table) and a v1 request (no corroboration) still parse, verify and can be answered', () => {
    const v2 = mutable(reconciliationRequest(k.server));
    v2.version = 2;
    delete v2.payload.observed_pf_table;
    const parsedV2 = parseArtifact(resigned(v2));
    expect(parsedV2).toMatchObject({ version: 2, payload: { config_history: ONE_NEW_REVISION } });
    expect(verifyPendingRequest(parsedV2, { serverAuthorities: k.authorities, nowMs: NOW }).version).toBe(2);
    const v1 = reconciliationRequestV1(k.server);
    expect(v1.version).toBe(1);
    expect('config_history' in v1.payload).toBe(false);
    expect(verifyPendingRequest(parseArtifact(encodeArtifact(v1)), { serverAuthorities: k.authorities, nowMs: NOW })).toEqual(v1);
    const evidence = createReconciliationEvidence(v1, k.reconciliation, { issuedAt: NOW + 1000, outcome: 'APPLIED' });
    expect(evidence.payload).toMatchObject({ contract_id: v1.payload.contract_id, observed_fingerprint: v1.payload.observed_fingerprint });
  });

  it('no version is read as another: v1 with a corroboration, v2 with a pf table, v3 without one, v4 are refused', () => {
    const v1 = mutable(reconciliationRequestV1(k.server));
    v1.payload.config_history = ONE_NEW_REVISION;
    expect(code(() => parseArtifact(resigned(v1)))).toBe('SCHEMA');
    const v2 = mutable(reconciliationRequest(k.server, 'EXECUTING', ONE_NEW_REVISION, PF_TABLE));
    v2.version = 2;
    expect(code(() => parseArtifact(resigned(v2)))).toBe('SCHEMA');
    const v3 = mutable(reconciliationRequest(k.server));
    delete v3.payload.observed_pf_table;
    expect(code(() => parseArtifact(resigned(v3)))).toBe('SCHEMA');
    const v4 = mutable(reconciliationRequest(k.server));
    v4.version = 4;
    expect(code(() => parseArtifact(resigned(v4)))).toBe('UNSUPPORTED_VERSION');
  });

  it('a signature never verifies under another version (the version is inside the signed message)', () => {
    const v3 = mutable(reconciliationRequest(k.server));
    v3.proof.signature = bytesToHex(ed25519Sign(k.server.privateKey, signingDigestBytes(v3.kind, 2, v3.payload)));
    expect(code(() => verifyArtifactSignature(parseArtifact(canonicalize(v3)) as SignedArtifact, k.authorities))).toBe('BAD_SIGNATURE');
    const v1 = mutable(reconciliationRequestV1(k.server));
    const sigV2 = ed25519Sign(k.server.privateKey, signingDigestBytes(v1.kind, 2, v1.payload));
    v1.proof.signature = bytesToHex(sigV2);
    expect(code(() => verifyArtifactSignature(parseArtifact(canonicalize(v1)) as SignedArtifact, k.authorities))).toBe('BAD_SIGNATURE');
  });

  it('the pf table state: counts and lists agree with its status, at most 32 entries listed of each difference', () => {
    const bad: readonly ((t: Json) => void)[] = [
      (t) => (t.missing_count = 2), // one listed
      (t) => (t.status = 'MISSING'), // counts without a table
      (t) => (t.entry_count = null),
      (t) => (t.extra = ['x'.repeat(65)]),
      (t) => (t.note = 'extra field'),
    ];
    for (const tamper of bad) {
      const doc = mutable(reconciliationRequest(k.server, 'EXECUTING', ONE_NEW_REVISION, PF_TABLE));
      tamper(doc.payload.observed_pf_table);
      expect(code(() => parseArtifact(resigned(doc)))).toBe('SCHEMA');
    }
    const many = mutable(reconciliationRequest(k.server, 'EXECUTING', ONE_NEW_REVISION, PF_TABLE));
    many.payload.observed_pf_table = { ...PF_TABLE, extra_count: 40, extra: Array.from({ length: 32 }, (_, i) => `192.0.2.${i}`) };
    expect(code(() => parseArtifact(resigned(many)))).toBe('ACCEPTED');
    const unreadable = mutable(reconciliationRequest(k.server));
    unreadable.payload.observed_pf_table = {
      status: 'UNREADABLE',
      entry_count: null,
      missing_count: null,
      extra_count: null,
      missing: [],
      extra: [],
    };
    expect(code(() => parseArtifact(resigned(unreadable)))).toBe('ACCEPTED');
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
