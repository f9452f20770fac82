import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import { checkCurrentness } from './check-currentness.js';
import type { LabGateReceipt } from './lab-gate-receipt.js';
import { checkLabGateRequestDigests } from './lab-gate-request.js';
import type { LabGateRequest } from './lab-gate-request.js';
import { verifyArtifactSignature } from './verify-artifact-signature.js';

/**
 * The signer's check of a gate request before it shows it: kind, the runner's signature (role
 * server-request, against the runner's pinned request key), currentness, the appliance digest.
 */
export function verifyLabGateRequest(
  request: LabGateRequest,
  options: { requestAuthorities: PinnedAuthoritySet; nowMs: number },
): LabGateRequest {
  if (request?.kind !== ArtifactKind.LAB_GATE_REQUEST)
    throw new ArtifactVerificationError('WRONG_KIND', String(request?.kind), 'is not a lab gate request');
  verifyArtifactSignature(request, options.requestAuthorities);
  checkCurrentness(request, options.nowMs);
  checkLabGateRequestDigests(request);
  return request;
}

export interface ExpectedLabGate {
  readonly applianceBindingDigest: string;
  readonly candidateAlias: string;
  /** The scenarios the run selects: each must be in the receipt's set. */
  readonly scenarios: readonly string[];
  /** The runner's own request key id (the receipt must answer a request this runner signed). */
  readonly requestKeyId: string;
}

/**
 * The runner's check of a gate receipt, before any request to the appliance: signature in role `lab-gate`
 * (a key pinned for any other role is WRONG_ROLE) → currentness (deadline not passed) → bindings (appliance,
 * candidate, scenarios, request key): BINDING_MISMATCH. Pure.
 */
export function verifyLabGateReceipt(
  receipt: LabGateReceipt,
  options: { gateAuthorities: PinnedAuthoritySet; nowMs: number; expected: ExpectedLabGate },
): LabGateReceipt {
  if (receipt?.kind !== ArtifactKind.LAB_GATE_RECEIPT)
    throw new ArtifactVerificationError('WRONG_KIND', String(receipt?.kind), 'is not a lab gate receipt');
  verifyArtifactSignature(receipt, options.gateAuthorities);
  checkCurrentness(receipt, options.nowMs);
  const p = receipt.payload;
  const e = options.expected;
  const kind = receipt.kind;
  if (p.appliance_binding_digest !== e.applianceBindingDigest)
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'names another appliance');
  if (p.candidate_alias !== e.candidateAlias)
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'names another candidate alias');
  if (p.request_key_id !== e.requestKeyId)
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'answers a request of another runner key');
  if (e.scenarios.length === 0 || !e.scenarios.every((id) => p.scenarios.includes(id))) {
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'does not cover every selected scenario');
  }
  return receipt;
}
