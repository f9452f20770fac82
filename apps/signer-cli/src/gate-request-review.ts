import { ArtifactKind, artifactDigestOf, verifyLabGateRequest } from '@pfsense-mcp/authorization';
import type { Artifact, LabGateRequest } from '@pfsense-mcp/authorization';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { roleForRequest } from './role-key-file.js';
import { refuseOnVerification } from './load-verified-request.js';
import { readPublicKeyInput } from './public-key-input.js';

/** What the signer shows about a verified lab gate request (its runner signature and digest were checked). */
export interface GateRequestReview {
  readonly request: 'lab-gate';
  readonly request_digest: string;
  /** The approval code, keyed by the lab-gate key (null until the command was given it). */
  readonly approve_prefix: string | null;
  readonly key_role: string;
  /** The lab runner's request key (what --server-key pinned). */
  readonly server_key_id: string;
  readonly issued_at: number;
  readonly expires_at: number;
  readonly gate_id: string;
  readonly appliance: { readonly base_url: string; readonly tls_mode: string; readonly appliance_id: string };
  readonly candidate_alias: string;
  readonly scenarios: readonly string[];
  readonly deadline: number;
  readonly digests: Readonly<Record<string, string>>;
}

export function isGateRequest(artifact: Artifact): artifact is LabGateRequest {
  return artifact.kind === ArtifactKind.LAB_GATE_REQUEST;
}

/**
 * Verifies a lab gate request against the runner's pinned request key (`--server-key`, role server-request),
 * refuses it once expired, recomputes the appliance digest, and returns what may be shown.
 */
export function reviewGateRequest(request: LabGateRequest, serverKey: string, nowMs: number): GateRequestReview {
  const runner = readPublicKeyInput(serverKey, '--server-key');
  const pinned = PinnedAuthoritySet.of([{ keyId: runner.keyId, publicKey: runner.publicKey, role: 'server-request', active: true }]);
  refuseOnVerification(() => verifyLabGateRequest(request, { requestAuthorities: pinned, nowMs }));
  const p = request.payload;
  const digest = artifactDigestOf(request);
  return Object.freeze({
    request: 'lab-gate' as const,
    request_digest: digest,
    approve_prefix: null,
    key_role: roleForRequest('lab-gate'),
    server_key_id: p.key_id,
    issued_at: p.issued_at,
    expires_at: p.expires_at,
    gate_id: p.gate_id,
    appliance: p.appliance,
    candidate_alias: p.candidate_alias,
    scenarios: Object.freeze([...p.scenarios]),
    deadline: p.deadline,
    digests: Object.freeze({ appliance_binding: p.appliance_binding_digest }),
  });
}
