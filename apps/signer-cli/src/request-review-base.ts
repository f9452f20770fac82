import { ArtifactKind, artifactDigestOf } from '@pfsense-mcp/authorization';
import type { PendingRequest } from '@pfsense-mcp/authorization';
import { ExitCode } from './exit-code.js';
import { roleForRequest } from './role-key-file.js';
import { SignerError } from './signer-error.js';

export type RequestType = 'authorization' | 'confirmation' | 'reconciliation' | 'release' | 'rollback';

/**
 * What every review of a pending request shows, whichever capability's change it carries: the request, its
 * signer and lifetime, the fields only some kinds carry (null otherwise), and the digests recomputed here.
 */
export interface RequestReviewBase {
  readonly request: RequestType;
  readonly request_digest: string;
  /**
   * The approval code (12 hex, keyed by the operator's private key of `key_role`, docs/DESIGN.md §10): null until
   * the command was given that key (--key FILE or --keys DIR).
   */
  readonly approve_prefix: string | null;
  /** The role whose key answers this request and computes its approval code. */
  readonly key_role: string;
  readonly server_key_id: string;
  readonly issued_at: number;
  readonly expires_at: number;
  readonly operation_id: string;
  readonly contract_id: string | null;
  readonly state_version: number | null;
  readonly step_id: string | null;
  readonly risk_class: string | null;
  readonly origin: string | null;
  readonly appliance: { readonly base_url: string; readonly tls_mode: string; readonly appliance_id: string } | null;
  readonly digests: Readonly<Record<string, string>>;
}

export const TYPE_OF_KIND = Object.freeze({
  [ArtifactKind.AUTHORIZATION_REQUEST]: 'authorization',
  [ArtifactKind.CONFIRMATION_REQUEST]: 'confirmation',
  [ArtifactKind.RECONCILIATION_REQUEST]: 'reconciliation',
  [ArtifactKind.RELEASE_REQUEST]: 'release',
  [ArtifactKind.ROLLBACK_REQUEST]: 'rollback',
} as const);

/** A request that does not match its own facts is refused (exit 4), never shown as genuine. */
export function inconsistent(what: string): never {
  throw new SignerError(ExitCode.ARTIFACT_REFUSED, 'INCONSISTENT', `request is inconsistent: ${what}`);
}

/** The fields every review shows, taken from the verified request itself. */
export function commonReviewOf(request: PendingRequest) {
  const p = request.payload;
  return {
    request_digest: artifactDigestOf(request),
    approve_prefix: null,
    key_role: roleForRequest(TYPE_OF_KIND[request.kind]),
    server_key_id: p.key_id,
    issued_at: p.issued_at,
    expires_at: p.expires_at,
    operation_id: p.operation_id,
  };
}

/** The fields only some requests show: null unless the request kind shows them (this is also their order). */
export const NOT_SHOWN = Object.freeze({
  contract_id: null,
  state_version: null,
  step_id: null,
  risk_class: null,
  origin: null,
  appliance: null,
});

/** The kind-specific fields of a request, in one place for every capability's review. */
export function shownFieldsOf(request: PendingRequest): Partial<Pick<RequestReviewBase, keyof typeof NOT_SHOWN>> {
  switch (request.kind) {
    case ArtifactKind.AUTHORIZATION_REQUEST: {
      const q = request.payload;
      return { step_id: q.step_id, risk_class: q.risk_class, appliance: q.appliance };
    }
    case ArtifactKind.CONFIRMATION_REQUEST:
      return { contract_id: request.payload.contract_id, appliance: request.payload.appliance };
    case ArtifactKind.RECONCILIATION_REQUEST: {
      const q = request.payload;
      return { contract_id: q.contract_id, state_version: q.state_version, origin: q.origin, appliance: q.appliance };
    }
    case ArtifactKind.RELEASE_REQUEST:
    case ArtifactKind.ROLLBACK_REQUEST: {
      const q = request.payload;
      return { contract_id: q.contract_id, state_version: q.state_version, appliance: q.appliance };
    }
  }
}
