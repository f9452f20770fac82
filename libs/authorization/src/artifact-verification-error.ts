import { CodedError } from '@pfsense-mcp/foundation';

/** Why a well-formed artifact was refused by a verification check. Stable strings. */
export type ArtifactVerificationErrorCode =
  | 'UNSUPPORTED_ALGORITHM'
  | 'UNKNOWN_KEY'
  | 'INACTIVE_KEY'
  | 'WRONG_ROLE'
  | 'BAD_SIGNATURE'
  | 'EXPIRED'
  | 'NOT_YET_VALID'
  | 'WRONG_KIND'
  | 'DIGEST_MISMATCH'
  | 'PLAN_MISMATCH'
  | 'STEP_NOT_AUTHORIZED'
  | 'INTENT_MISMATCH'
  | 'BINDING_MISMATCH'
  | 'OTHER_SERVER';

/**
 * Refusal of one verification check (signature, currentness, binding). Carries the check's code and the
 * artifact kind only; never a digest, id, signature or description, so callers can log it and still map
 * every code to one uniform outward refusal.
 */
export class ArtifactVerificationError extends CodedError<ArtifactVerificationErrorCode> {
  override readonly name = 'ArtifactVerificationError';
  readonly kind: string;

  constructor(code: ArtifactVerificationErrorCode, kind: string, detail: string) {
    super(code, `${kind}: ${detail} (${code})`);
    this.kind = kind;
  }
}
