import { applianceBindingDigest, applianceBindingSchema, parseApplianceBinding } from './appliance-binding.js';
import type { ApplianceBinding } from './appliance-binding.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import { hex64Schema } from './field-schemas.js';

/**
 * What a reconciliation or release request says about the change it concerns, so the operator can check
 * what they are shown (docs/DESIGN.md §6): the appliance binding (facts and digest), the contract's
 * target_fingerprint (of the pre-state shown) and its intent_digest (of the change shown). The generic
 * check recomputes the appliance digest; the signer recomputes the other two with the adapter.
 */
export interface RequestApplianceFacts {
  readonly appliance: ApplianceBinding;
  readonly appliance_binding_digest: string;
  /** The contract's target_fingerprint (pre-state). */
  readonly target_fingerprint: string;
  /** The contract's intent_digest (INTENT purpose over the normalized intent). */
  readonly intent_digest: string;
}

export const requestApplianceFactsShape = {
  appliance: applianceBindingSchema,
  appliance_binding_digest: hex64Schema,
  target_fingerprint: hex64Schema,
  intent_digest: hex64Schema,
} as const;

/** The payload fields from the input's appliance binding and the contract's two digests. */
export function requestApplianceFacts(input: {
  appliance: unknown;
  targetFingerprint: unknown;
  intentDigest: unknown;
}): RequestApplianceFacts {
  const appliance = parseApplianceBinding(input.appliance);
  return {
    appliance,
    appliance_binding_digest: applianceBindingDigest(appliance),
    target_fingerprint: input.targetFingerprint as string,
    intent_digest: input.intentDigest as string,
  };
}

/** The appliance binding digest a request carries must be the digest of the facts it shows (every request kind). */
export function checkApplianceFactsDigest(kind: string, p: Pick<RequestApplianceFacts, 'appliance' | 'appliance_binding_digest'>): void {
  if (applianceBindingDigest(p.appliance) !== p.appliance_binding_digest) {
    throw new ArtifactVerificationError('DIGEST_MISMATCH', kind, 'appliance binding digest does not match its facts');
  }
}
