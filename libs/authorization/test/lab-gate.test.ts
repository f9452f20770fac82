import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { describe, expect, it } from 'vitest';
import {
  ArtifactVerificationError,
  applianceBindingDigest,
  artifactDigestOf,
  createApplianceBinding,
  createLabGateReceipt,
  createLabGateRequest,
  encodeArtifact,
  parseArtifact,
  verifyLabGateReceipt,
  verifyLabGateRequest,
} from '../src/index.js';
import type { LabGateReceipt, LabGateRequest } from '../src/index.js';
import { HOUR, NOW, newKey, pin } from './fixtures.js';

const runner = newKey();
const gate = newKey();
const reconciliation = newKey();
const appliance = createApplianceBinding({
  baseUrl: 'https://lab-appliance.example.test',
  tlsMode: 'https-ca-file',
  applianceId: 'lab0001',
});
const request = createLabGateRequest(
  {
    gateId: 'gate-1',
    appliance,
    candidateAlias: 'LAB_CANDIDATE',
    scenarios: ['ordinary', 'd1-stale-before-forward', 'ordinary'],
    issuedAt: NOW,
    deadline: NOW + HOUR,
  },
  runner,
);
const receipt = createLabGateReceipt(request, gate, { issuedAt: NOW + 1000 });
const requestAuthorities = PinnedAuthoritySet.of([pin(runner, 'server-request')]);
const gateAuthorities = PinnedAuthoritySet.of([pin(gate, 'lab-gate'), pin(reconciliation, 'reconciliation')]);
const expected = {
  applianceBindingDigest: applianceBindingDigest(appliance),
  candidateAlias: 'LAB_CANDIDATE',
  scenarios: ['ordinary'],
  requestKeyId: runner.keyId,
};

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ArtifactVerificationError) return e.code;
    throw e;
  }
  return 'OK';
}

describe('lab gate request and receipt', () => {
  it('round-trip canonically; the request sorts and deduplicates its scenario set; the receipt copies the bindings', () => {
    expect(request.payload.scenarios).toEqual(['d1-stale-before-forward', 'ordinary']);
    expect(parseArtifact(encodeArtifact(request))).toEqual(request);
    expect(parseArtifact(encodeArtifact(receipt))).toEqual(receipt);
    expect(receipt.payload.request_digest).toBe(artifactDigestOf(request));
    expect(receipt.payload.deadline).toBe(NOW + HOUR);
    expect(receipt.payload.expires_at).toBe(NOW + HOUR);
    expect(verifyLabGateRequest(request, { requestAuthorities, nowMs: NOW + 1 })).toBe(request);
    expect(verifyLabGateReceipt(receipt, { gateAuthorities, nowMs: NOW + 2000, expected })).toBe(receipt);
  });

  it('a receipt is refused when expired, tampered, signed in another role, or for another appliance, candidate, runner or scenario', () => {
    const verify = (r: LabGateReceipt, e = expected, nowMs = NOW + 2000) =>
      codeOf(() => verifyLabGateReceipt(r, { gateAuthorities, nowMs, expected: e }));
    expect(verify(receipt, expected, NOW + HOUR)).toBe('EXPIRED');
    const tampered = { ...receipt, payload: { ...receipt.payload, candidate_alias: 'LAB_OTHER' } } as LabGateReceipt;
    expect(verify(tampered, { ...expected, candidateAlias: 'LAB_OTHER' })).toBe('BAD_SIGNATURE');
    expect(verify(createLabGateReceipt(request, reconciliation, { issuedAt: NOW + 1000 }))).toBe('WRONG_ROLE');
    expect(verify(createLabGateReceipt(request, newKey(), { issuedAt: NOW + 1000 }))).toBe('UNKNOWN_KEY');
    expect(verify(receipt, { ...expected, applianceBindingDigest: 'a'.repeat(64) })).toBe('BINDING_MISMATCH');
    expect(verify(receipt, { ...expected, candidateAlias: 'LAB_OTHER' })).toBe('BINDING_MISMATCH');
    expect(verify(receipt, { ...expected, requestKeyId: gate.keyId })).toBe('BINDING_MISMATCH');
    expect(verify(receipt, { ...expected, scenarios: ['ordinary', 'g-restart-executing'] })).toBe('BINDING_MISMATCH');
    expect(verify(receipt, { ...expected, scenarios: [] })).toBe('BINDING_MISMATCH');
  });

  it('a gate request verifies only under the runner key, and never as another kind', () => {
    expect(codeOf(() => verifyLabGateRequest(request, { requestAuthorities: gateAuthorities, nowMs: NOW + 1 }))).toBe('UNKNOWN_KEY');
    expect(codeOf(() => verifyLabGateRequest(request, { requestAuthorities, nowMs: NOW + HOUR }))).toBe('EXPIRED');
    expect(codeOf(() => verifyLabGateRequest(receipt as unknown as LabGateRequest, { requestAuthorities, nowMs: NOW + 1 }))).toBe(
      'WRONG_KIND',
    );
    // A request signed with a lab-gate key is refused in the server-request role.
    const byGate = createLabGateRequest(
      { gateId: 'gate-2', appliance, candidateAlias: 'LAB_CANDIDATE', scenarios: ['ordinary'], issuedAt: NOW, deadline: NOW + HOUR },
      gate,
    );
    expect(
      codeOf(() => verifyLabGateRequest(byGate, { requestAuthorities: PinnedAuthoritySet.of([pin(gate, 'lab-gate')]), nowMs: NOW + 1 })),
    ).toBe('WRONG_ROLE');
  });

  it('the schema refuses a deadline other than the expiry, an unsorted scenario set and a non-alias candidate', () => {
    const build = (over: Partial<Parameters<typeof createLabGateRequest>[0]>) => () =>
      createLabGateRequest(
        { gateId: 'g', appliance, candidateAlias: 'LAB_CANDIDATE', scenarios: ['ordinary'], issuedAt: NOW, deadline: NOW + HOUR, ...over },
        runner,
      );
    expect(build({ candidateAlias: 'LAB CANDIDATE' })).toThrow();
    expect(build({ scenarios: [] })).toThrow();
    expect(build({ deadline: NOW })).toThrow();
    const doc = JSON.parse(encodeArtifact(request)) as { payload: Record<string, unknown> };
    doc.payload.deadline = NOW + 2 * HOUR;
    expect(() => parseArtifact(JSON.stringify(doc))).toThrow();
  });
});
