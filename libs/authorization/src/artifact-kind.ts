import { DigestPurpose } from '@pfsense-mcp/canonical';
import type { AuthorityRole } from '@pfsense-mcp/crypto';

/** Every artifact document names one of these kinds (and exactly one version of it). */
export const ArtifactKind = Object.freeze({
  PREPARED_EXECUTION_INTENT: 'pfsense-mcp/prepared-execution-intent',
  AUTHORIZATION_REQUEST: 'pfsense-mcp/authorization-request',
  PLAN_AUTHORIZATION: 'pfsense-mcp/plan-authorization',
  CONFIRMATION_REQUEST: 'pfsense-mcp/confirmation-request',
  CONFIRMATION: 'pfsense-mcp/confirmation',
  RECONCILIATION_REQUEST: 'pfsense-mcp/reconciliation-request',
  RECONCILIATION: 'pfsense-mcp/reconciliation',
  RELEASE_REQUEST: 'pfsense-mcp/reservation-release-request',
  RELEASE: 'pfsense-mcp/reservation-release',
  LAB_GATE_REQUEST: 'pfsense-mcp/lab-gate-request',
  LAB_GATE_RECEIPT: 'pfsense-mcp/lab-gate-receipt',
} as const);
export type ArtifactKind = (typeof ArtifactKind)[keyof typeof ArtifactKind];

/** Kinds of signed documents (everything but the unsigned prepared intent, which is embedded). */
export type SignedArtifactKind = Exclude<ArtifactKind, typeof ArtifactKind.PREPARED_EXECUTION_INTENT>;

interface KindRule {
  /** The only version of this kind this build reads; any other is UNSUPPORTED_VERSION, never reinterpreted. */
  readonly version: number;
  /** Digest domain of the signed message (or, for the prepared intent, of its digest). */
  readonly purpose: DigestPurpose;
  /** The pinned role whose key must have signed it; null for the unsigned prepared intent. */
  readonly role: AuthorityRole | null;
}

/**
 * One row per kind: version, digest purpose, signing role. Two kinds share a purpose only where the kind
 * string itself is inside the digested object (see signingMessageOf), so the domains still never overlap.
 */
export const ARTIFACT_RULES: Readonly<Record<ArtifactKind, KindRule>> = Object.freeze({
  [ArtifactKind.PREPARED_EXECUTION_INTENT]: Object.freeze({ version: 1, purpose: DigestPurpose.EXECUTION_INTENT, role: null }),
  [ArtifactKind.AUTHORIZATION_REQUEST]: Object.freeze({
    version: 1,
    purpose: DigestPurpose.AUTHORIZATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.PLAN_AUTHORIZATION]: Object.freeze({
    version: 2,
    purpose: DigestPurpose.PLAN_AUTHORIZATION_V2,
    role: 'plan-authorization',
  }),
  [ArtifactKind.CONFIRMATION_REQUEST]: Object.freeze({
    version: 1,
    purpose: DigestPurpose.CONFIRMATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.CONFIRMATION]: Object.freeze({ version: 1, purpose: DigestPurpose.CONFIRMATION, role: 'confirmation' }),
  [ArtifactKind.RECONCILIATION_REQUEST]: Object.freeze({
    version: 1,
    purpose: DigestPurpose.RECONCILIATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.RECONCILIATION]: Object.freeze({ version: 1, purpose: DigestPurpose.RECONCILIATION, role: 'reconciliation' }),
  [ArtifactKind.RELEASE_REQUEST]: Object.freeze({
    version: 1,
    purpose: DigestPurpose.RECONCILIATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.RELEASE]: Object.freeze({ version: 1, purpose: DigestPurpose.RECONCILIATION, role: 'reconciliation' }),
  // The lab runner's gate: requested with the runner's own request key, answered by the operator's lab-gate key.
  [ArtifactKind.LAB_GATE_REQUEST]: Object.freeze({ version: 1, purpose: DigestPurpose.LAB_GATE_REQUEST, role: 'server-request' }),
  [ArtifactKind.LAB_GATE_RECEIPT]: Object.freeze({ version: 1, purpose: DigestPurpose.LAB_GATE_RECEIPT, role: 'lab-gate' }),
} satisfies Record<ArtifactKind, KindRule>);

const KINDS: ReadonlySet<string> = new Set(Object.values(ArtifactKind));

export function isArtifactKind(value: unknown): value is ArtifactKind {
  return typeof value === 'string' && KINDS.has(value);
}

/** Pending requests are signed by the server's own key; the rest by an operator authority. */
export const PENDING_REQUEST_KINDS: ReadonlySet<SignedArtifactKind> = new Set([
  ArtifactKind.AUTHORIZATION_REQUEST,
  ArtifactKind.CONFIRMATION_REQUEST,
  ArtifactKind.RECONCILIATION_REQUEST,
  ArtifactKind.RELEASE_REQUEST,
]);
