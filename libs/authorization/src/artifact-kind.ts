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
  ROLLBACK_REQUEST: 'pfsense-mcp/rollback-request',
  ROLLBACK_AUTHORIZATION: 'pfsense-mcp/rollback-authorization',
  LAB_GATE_REQUEST: 'pfsense-mcp/lab-gate-request',
  LAB_GATE_RECEIPT: 'pfsense-mcp/lab-gate-receipt',
} as const);
export type ArtifactKind = (typeof ArtifactKind)[keyof typeof ArtifactKind];

/** Kinds of signed documents (everything but the unsigned prepared intent, which is embedded). */
export type SignedArtifactKind = Exclude<ArtifactKind, typeof ArtifactKind.PREPARED_EXECUTION_INTENT>;

interface KindRule {
  /** The version of this kind this build writes. */
  readonly version: number;
  /**
   * Older versions this build still reads, each with its own strict schema (never read as the current one);
   * any other version is UNSUPPORTED_VERSION.
   */
  readonly olderVersions: readonly number[];
  /** Digest domain of the signed message (or, for the prepared intent, of its digest). */
  readonly purpose: DigestPurpose;
  /** The pinned role whose key must have signed it; null for the unsigned prepared intent. */
  readonly role: AuthorityRole | null;
}

const NONE: readonly number[] = Object.freeze([]);

/** Whether this build reads `version` of `kind` (the current version or one of its older ones). */
export function isReadableVersion(kind: ArtifactKind, version: number): boolean {
  const rule = ARTIFACT_RULES[kind];
  return version === rule.version || rule.olderVersions.includes(version);
}

/**
 * One row per kind: version, digest purpose, signing role. Two kinds share a purpose only where the kind
 * string itself is inside the digested object (see signingMessageOf), so the domains still never overlap.
 */
export const ARTIFACT_RULES: Readonly<Record<ArtifactKind, KindRule>> = Object.freeze({
  [ArtifactKind.PREPARED_EXECUTION_INTENT]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.EXECUTION_INTENT,
    role: null,
  }),
  [ArtifactKind.AUTHORIZATION_REQUEST]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.AUTHORIZATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.PLAN_AUTHORIZATION]: Object.freeze({
    version: 2,
    olderVersions: NONE,
    purpose: DigestPurpose.PLAN_AUTHORIZATION_V2,
    role: 'plan-authorization',
  }),
  [ArtifactKind.CONFIRMATION_REQUEST]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.CONFIRMATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.CONFIRMATION]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.CONFIRMATION,
    role: 'confirmation',
  }),
  // v2 adds the config-history corroboration (docs/DESIGN.md §4), v3 the alias's pf table as observed (§5); older
  // requests already in an outbox stay readable.
  [ArtifactKind.RECONCILIATION_REQUEST]: Object.freeze({
    version: 3,
    olderVersions: Object.freeze([1, 2]),
    purpose: DigestPurpose.RECONCILIATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.RECONCILIATION]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.RECONCILIATION,
    role: 'reconciliation',
  }),
  [ArtifactKind.RELEASE_REQUEST]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.RECONCILIATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.RELEASE]: Object.freeze({ version: 1, olderVersions: NONE, purpose: DigestPurpose.RECONCILIATION, role: 'reconciliation' }),
  // A rollback that changes the firewall is confirmed like the change itself: the confirmation role.
  [ArtifactKind.ROLLBACK_REQUEST]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.CONFIRMATION_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.ROLLBACK_AUTHORIZATION]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.CONFIRMATION,
    role: 'confirmation',
  }),
  // The lab runner's gate: requested with the runner's own request key, answered by the operator's lab-gate key.
  [ArtifactKind.LAB_GATE_REQUEST]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.LAB_GATE_REQUEST,
    role: 'server-request',
  }),
  [ArtifactKind.LAB_GATE_RECEIPT]: Object.freeze({
    version: 1,
    olderVersions: NONE,
    purpose: DigestPurpose.LAB_GATE_RECEIPT,
    role: 'lab-gate',
  }),
} satisfies Record<ArtifactKind, KindRule>);

const KINDS: ReadonlySet<string> = new Set(Object.values(ArtifactKind));

export function isArtifactKind(value: unknown): value is ArtifactKind {
  return typeof value === 'string' && KINDS.has(value);
}

/**
 * The operator-signed answers a server's inbox takes (`admin inbox add`, the exchange folder's pickup): one per
 * pending request kind. The lab gate receipt is the lab runner's, never a server's.
 */
export const INBOX_ANSWER_KINDS: ReadonlySet<SignedArtifactKind> = new Set([
  ArtifactKind.PLAN_AUTHORIZATION,
  ArtifactKind.CONFIRMATION,
  ArtifactKind.RECONCILIATION,
  ArtifactKind.RELEASE,
  ArtifactKind.ROLLBACK_AUTHORIZATION,
]);

/** Pending requests are signed by the server's own key; the rest by an operator authority. */
export const PENDING_REQUEST_KINDS: ReadonlySet<SignedArtifactKind> = new Set([
  ArtifactKind.AUTHORIZATION_REQUEST,
  ArtifactKind.CONFIRMATION_REQUEST,
  ArtifactKind.RECONCILIATION_REQUEST,
  ArtifactKind.RELEASE_REQUEST,
  ArtifactKind.ROLLBACK_REQUEST,
]);
