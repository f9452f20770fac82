import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { Artifact } from './artifact.js';
import { checkPlanAuthorizationBinding } from './check-bindings.js';
import type { ExpectedPlanStep } from './check-bindings.js';
import { checkCurrentness } from './check-currentness.js';
import type { PlanAuthorizationV2 } from './plan-authorization-v2.js';
import { verifyArtifactSignature } from './verify-artifact-signature.js';

/**
 * The three pure gates of an authorization, in the fixed order of docs/DESIGN.md §6: kind/version, then
 * algorithm + signature (role plan-authorization), then currentness, then step/intent binding. No I/O.
 */
export function verifyPlanAuthorization(
  artifact: Artifact,
  options: { authorities: PinnedAuthoritySet; nowMs: number; expected: ExpectedPlanStep },
): PlanAuthorizationV2 {
  if (artifact.kind !== ArtifactKind.PLAN_AUTHORIZATION) {
    throw new ArtifactVerificationError('WRONG_KIND', String(artifact.kind), 'is not a PlanAuthorizationV2');
  }
  verifyArtifactSignature(artifact, options.authorities);
  checkCurrentness(artifact, options.nowMs);
  checkPlanAuthorizationBinding(artifact, options.expected);
  return artifact;
}
