// The inbox name of an operator-signed artifact carries what it concerns (docs/DESIGN.md §6), so an inbox file
// that cannot be read — unsafe, malformed — refuses only the calls its name could concern, and a name that is not
// canonical concerns no call at all (`pfsense-mcp admin inbox add` installs every file under its canonical name).
import { ArtifactKind } from '@pfsense-mcp/authorization';
import type { Artifact } from '@pfsense-mcp/authorization';

/** What a canonical inbox name says its file concerns (the content must agree, or the file is refused). */
export interface InboxArtifactName {
  readonly kind: string;
  /** Plan authorization: the first 16 hex of its plan digest. */
  readonly planPrefix: string | null;
  /** Confirmation, reconciliation and release: the contract id. */
  readonly contractId: string | null;
  /** Reconciliation, release and rollback authorization: the contract's state version they answer. */
  readonly stateVersion: number | null;
}

/** What a call looks for in the inbox: one kind and the plan digest, or the contract id and state version. */
export interface InboxWant {
  readonly kind: string;
  readonly planDigest?: string;
  readonly contractId?: string;
  /** Absent: any state version. */
  readonly stateVersion?: number;
}

const SHORT: Readonly<Record<string, string>> = Object.freeze({
  [ArtifactKind.PLAN_AUTHORIZATION]: 'plan-authorization',
  [ArtifactKind.CONFIRMATION]: 'confirmation',
  [ArtifactKind.RECONCILIATION]: 'reconciliation',
  [ArtifactKind.RELEASE]: 'release',
  [ArtifactKind.ROLLBACK_AUTHORIZATION]: 'rollback-authorization',
});
const KIND_OF: ReadonlyMap<string, string> = new Map(Object.entries(SHORT).map(([kind, short]) => [short, kind]));
const BY_STATE_VERSION: ReadonlySet<string> = new Set([
  ArtifactKind.RECONCILIATION,
  ArtifactKind.RELEASE,
  ArtifactKind.ROLLBACK_AUTHORIZATION,
]);

const PLAN = /^plan-authorization\.([0-9a-f]{16})\.json$/;
const CONTRACT_ID = /^[a-z0-9][a-z0-9_-]{0,127}$/;
const CONTRACT = /^(confirmation|reconciliation|release|rollback-authorization)\.([a-z0-9][a-z0-9_-]{0,127})(?:\.([0-9]{1,15}))?\.json$/;

function field(a: Artifact, name: string): unknown {
  return (a.payload as unknown as Readonly<Record<string, unknown>>)[name];
}

/**
 * The canonical inbox name of an operator artifact: `plan-authorization.<plan-digest16>.json`,
 * `confirmation.<contract id>.json`, `reconciliation|release|rollback-authorization.<contract id>.<state version>.json`; null for
 * another kind or a payload without those fields.
 */
export function inboxArtifactName(artifact: Artifact): string | null {
  const short = SHORT[artifact.kind];
  if (short === undefined) return null;
  if (artifact.kind === ArtifactKind.PLAN_AUTHORIZATION) {
    const plan = field(artifact, 'plan_digest');
    return typeof plan === 'string' && /^[0-9a-f]{64}$/.test(plan) ? `${short}.${plan.slice(0, 16)}.json` : null;
  }
  const contract = field(artifact, 'contract_id');
  if (typeof contract !== 'string' || !CONTRACT_ID.test(contract)) return null;
  if (!BY_STATE_VERSION.has(artifact.kind)) return `${short}.${contract}.json`;
  const version = field(artifact, 'state_version');
  return Number.isSafeInteger(version) && (version as number) >= 0 ? `${short}.${contract}.${String(version)}.json` : null;
}

/** What a canonical name says, or null for any other name (such a file concerns no call). */
export function parseInboxArtifactName(fileName: string): InboxArtifactName | null {
  const plan = PLAN.exec(fileName);
  if (plan !== null)
    return Object.freeze({ kind: ArtifactKind.PLAN_AUTHORIZATION, planPrefix: plan[1] as string, contractId: null, stateVersion: null });
  const c = CONTRACT.exec(fileName);
  if (c === null) return null;
  const kind = KIND_OF.get(c[1] as string) as string;
  const byVersion = BY_STATE_VERSION.has(kind);
  if (byVersion !== (c[3] !== undefined)) return null;
  return Object.freeze({ kind, planPrefix: null, contractId: c[2] as string, stateVersion: byVersion ? Number(c[3]) : null });
}

/** Whether a file of this canonical name could be what `want` looks for. */
export function nameCouldConcern(name: InboxArtifactName, want: InboxWant): boolean {
  if (name.kind !== want.kind) return false;
  if (name.planPrefix !== null) return want.planDigest !== undefined && want.planDigest.startsWith(name.planPrefix);
  if (name.contractId !== want.contractId) return false;
  return name.stateVersion === null || want.stateVersion === undefined || name.stateVersion === want.stateVersion;
}
