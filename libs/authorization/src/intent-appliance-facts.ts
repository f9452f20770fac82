// The facts a request carrying the execution intent shows about the appliance (authorization and confirmation
// requests, docs/DESIGN.md §6): the intent, the appliance binding and its digest — and the intent names that
// same binding digest. Built consistent by the server, recomputed by every reader.
import { applianceBindingDigest, parseApplianceBinding } from './appliance-binding.js';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import { parsePreparedExecutionIntent } from './prepared-execution-intent.js';
import type { PreparedExecutionIntentV1 } from './prepared-execution-intent.js';
import { checkApplianceFactsDigest } from './request-appliance-facts.js';

export interface IntentApplianceFacts {
  readonly execution_intent: PreparedExecutionIntentV1;
  readonly appliance: ApplianceBinding;
  readonly appliance_binding_digest: string;
}

/** The payload fields from a builder's input; a TypeError naming `builder` when the intent names another appliance. */
export function intentApplianceFacts(builder: string, input: { executionIntent: unknown; appliance: unknown }): IntentApplianceFacts {
  const execution_intent = parsePreparedExecutionIntent(input.executionIntent);
  const appliance = parseApplianceBinding(input.appliance);
  const appliance_binding_digest = applianceBindingDigest(appliance);
  if (execution_intent.payload.appliance_binding_digest !== appliance_binding_digest) {
    throw new TypeError(`${builder}: "executionIntent" names another appliance binding`);
  }
  return { execution_intent, appliance, appliance_binding_digest };
}

/** The binding digest is the digest of the facts shown, and the intent names it; DIGEST_MISMATCH otherwise. */
export function checkIntentApplianceFacts(kind: string, p: IntentApplianceFacts): void {
  checkApplianceFactsDigest(kind, p);
  if (p.execution_intent.payload.appliance_binding_digest !== p.appliance_binding_digest) {
    throw new ArtifactVerificationError('DIGEST_MISMATCH', kind, 'the execution intent names another appliance');
  }
}
