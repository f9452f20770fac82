// What each inbox/outbox file is and whether it can still move anything forward (docs/DESIGN.md §6): the detail a
// uniform MCP `refused` never gives, for `admin artifacts list|clean` and `admin status`.
import { ArtifactKind, INBOX_ANSWER_KINDS, checkCurrentness, parseArtifact, verifyArtifactSignature } from '@pfsense-mcp/authorization';
import type { Artifact, SignedArtifact } from '@pfsense-mcp/authorization';
import type { RecoveryContract, SqliteConsumptionStore } from '@pfsense-mcp/contract-store';
import { ArtifactFileError, inboxArtifactName, parseInboxArtifactName } from '@pfsense-mcp/coordinator';
import type { ArtifactDirectory } from '@pfsense-mcp/coordinator';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { RecoveryState, isTerminal } from '@pfsense-mcp/state-machine';
import { readdirSync } from 'node:fs';

export type ArtifactBox = 'inbox' | 'outbox';
export type ArtifactCondition = 'still-useful' | 'answered' | 'expired' | 'blocking';
export type BlockingReason = 'malformed' | 'wrong-mode-or-owner' | 'wrong-role' | 'expired' | 'duplicate';

export interface ClassifiedArtifact {
  readonly box: ArtifactBox;
  readonly file: string;
  readonly kind: string | null;
  readonly operationId: string | null;
  readonly contractId: string | null;
  readonly expiresAt: number | null;
  readonly condition: ArtifactCondition;
  readonly blocking: BlockingReason | null;
  /** True when `artifacts clean` may remove it (blocking files only with --blocking). */
  readonly removable: boolean;
  /** Inbox only: which calls the file can refuse — by its canonical name, else by its content, else none. */
  readonly refuses: string | null;
}

export interface ArtifactFacts {
  readonly now: number;
  readonly contracts: ReadonlyMap<string, RecoveryContract>;
  readonly consumption: SqliteConsumptionStore;
  readonly operatorAuthorities: PinnedAuthoritySet;
  readonly serverAuthorities: PinnedAuthoritySet;
}

/** What the operator may hand back: the answers an inbox takes. */
const OPERATOR_KINDS: ReadonlySet<string> = INBOX_ANSWER_KINDS;

function field(a: Artifact, name: string): string | null {
  const v = (a.payload as unknown as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : null;
}

function stateVersionOf(a: Artifact): number | null {
  const v = (a.payload as unknown as Record<string, unknown>)['state_version'];
  return typeof v === 'number' ? v : null;
}

/** Whether the contract has moved past what this artifact asks or answers (so it can no longer move it). */
function isAnswered(a: Artifact, facts: ArtifactFacts): boolean {
  const contractId = field(a, 'contract_id');
  const c = contractId === null ? undefined : facts.contracts.get(contractId);
  switch (a.kind) {
    case ArtifactKind.AUTHORIZATION_REQUEST: {
      const op = field(a, 'operation_id');
      // Answered once a contract of that operation was created after the request.
      return [...facts.contracts.values()].some((k) => k.operation_id === op && k.created_at >= a.payload.issued_at);
    }
    case ArtifactKind.PLAN_AUTHORIZATION: {
      const id = field(a, 'authorization_id');
      return id !== null && facts.consumption.isConsumed(id);
    }
    case ArtifactKind.CONFIRMATION_REQUEST:
    case ArtifactKind.CONFIRMATION:
      return c === undefined ? false : c.state !== RecoveryState.PREPARED && c.state !== RecoveryState.PREPARING;
    case ArtifactKind.RECONCILIATION_REQUEST:
    case ArtifactKind.RECONCILIATION:
      return c === undefined ? false : c.state !== RecoveryState.RECONCILIATION || c.state_version !== stateVersionOf(a);
    case ArtifactKind.RELEASE_REQUEST:
    case ArtifactKind.RELEASE:
      return c === undefined ? false : c.state !== RecoveryState.ROLLBACK_FAILED || c.state_version !== stateVersionOf(a);
    case ArtifactKind.ROLLBACK_REQUEST:
    case ArtifactKind.ROLLBACK_AUTHORIZATION:
      return c === undefined ? false : c.state !== RecoveryState.VERIFIED || c.state_version !== stateVersionOf(a);
    default:
      return false;
  }
}

function isExpired(a: SignedArtifact, now: number): boolean {
  try {
    checkCurrentness(a, now);
    return false;
  } catch {
    return true;
  }
}

/** The confirmation request of a contract that is not terminal stays: the operator may still need it. */
function neededByLiveContract(a: Artifact, facts: ArtifactFacts): boolean {
  if (a.kind !== ArtifactKind.CONFIRMATION_REQUEST) return false;
  const id = field(a, 'contract_id');
  const c = id === null ? undefined : facts.contracts.get(id);
  return c !== undefined && !isTerminal(c.state);
}

/** Which calls an inbox file can refuse (docs/DESIGN.md §6): its canonical name says; a name that is not canonical concerns none. */
function refusesOf(file: string, a: Artifact | null, condition: ArtifactCondition): string | null {
  if (condition !== 'blocking') return null;
  const named = parseInboxArtifactName(file);
  const short = (kind: string) => kind.slice(kind.indexOf('/') + 1);
  if (named !== null) {
    const what =
      named.planPrefix !== null
        ? `plan ${named.planPrefix}…`
        : `contract ${named.contractId ?? ''}${named.stateVersion === null ? '' : ` at state version ${named.stateVersion}`}`;
    return `calls needing the ${short(named.kind)} of ${what}`;
  }
  if (a !== null) {
    const plan = field(a, 'plan_digest');
    const contract = field(a, 'contract_id');
    const what = contract !== null ? `contract ${contract}` : plan !== null ? `plan ${plan.slice(0, 16)}…` : null;
    if (what !== null) return `calls needing the ${short(a.kind)} of ${what} (read from its content)`;
  }
  return 'no call (its name is not canonical, so it is ignored; `admin inbox add` installs a file under its canonical name)';
}

function entry(
  box: ArtifactBox,
  file: string,
  a: Artifact | null,
  condition: ArtifactCondition,
  blocking: BlockingReason | null,
  removable: boolean,
): ClassifiedArtifact {
  return Object.freeze({
    box,
    file,
    kind: a?.kind ?? null,
    operationId: a === null ? null : field(a, 'operation_id'),
    contractId: a === null ? null : field(a, 'contract_id'),
    expiresAt: a === null || !('proof' in a) ? null : (a as SignedArtifact).payload.expires_at,
    condition,
    blocking,
    removable,
    refuses: box === 'inbox' ? refusesOf(file, a, condition) : null,
  });
}

/** Names of every non-dot entry ending in .json (what a scan reads), including unsafe ones. */
function candidateNames(dir: ArtifactDirectory): readonly string[] {
  dir.check();
  return readdirSync(dir.path)
    .filter((n) => !n.startsWith('.') && n.endsWith('.json'))
    .sort();
}

function classifyOne(
  box: ArtifactBox,
  dir: ArtifactDirectory,
  file: string,
  facts: ArtifactFacts,
): { entry: ClassifiedArtifact; artifact: Artifact | null } {
  let bytes: Uint8Array;
  try {
    bytes = dir.read(file);
  } catch (error) {
    const reason: BlockingReason =
      error instanceof ArtifactFileError && (error.code === 'BAD_NAME' || error.code === 'TOO_LARGE') ? 'malformed' : 'wrong-mode-or-owner';
    return { entry: entry(box, file, null, 'blocking', reason, true), artifact: null };
  }
  let a: Artifact;
  try {
    a = parseArtifact(bytes);
  } catch {
    return { entry: entry(box, file, null, 'blocking', 'malformed', true), artifact: null };
  }
  if (!('proof' in a)) return { entry: entry(box, file, a, 'blocking', 'malformed', true), artifact: a };
  const signed = a as SignedArtifact;
  const operatorKind = OPERATOR_KINDS.has(a.kind);
  if (box === 'inbox' && !operatorKind) return { entry: entry(box, file, a, 'blocking', 'wrong-role', true), artifact: a };
  try {
    verifyArtifactSignature(signed, operatorKind ? facts.operatorAuthorities : facts.serverAuthorities);
  } catch {
    return { entry: entry(box, file, a, 'blocking', 'wrong-role', true), artifact: a };
  }
  if (isAnswered(a, facts)) return { entry: entry(box, file, a, 'answered', null, !neededByLiveContract(a, facts)), artifact: a };
  if (isExpired(signed, facts.now)) {
    // An expired operator artifact still in the inbox is what keeps a `refused` coming back.
    const condition: ArtifactCondition = box === 'inbox' ? 'blocking' : 'expired';
    return { entry: entry(box, file, a, condition, box === 'inbox' ? 'expired' : null, !neededByLiveContract(a, facts)), artifact: a };
  }
  return { entry: entry(box, file, a, 'still-useful', null, false), artifact: a };
}

/** Every outbox and inbox file, classified. Inbox files asking the same thing twice are all blocking (duplicate). */
export function classifyArtifacts(
  inbox: ArtifactDirectory,
  outbox: ArtifactDirectory,
  facts: ArtifactFacts,
): readonly ClassifiedArtifact[] {
  const out: ClassifiedArtifact[] = [];
  for (const file of candidateNames(outbox)) out.push(classifyOne('outbox', outbox, file, facts).entry);
  const inboxed = candidateNames(inbox).map((file) => classifyOne('inbox', inbox, file, facts));
  // Which request a file answers is its content's canonical inbox name (`inboxArtifactName`, the rule `inbox add`
  // also refuses a second answer by): two still-useful files with one such name are what the coordinator refuses.
  const answered = (a: Artifact | null, e: ClassifiedArtifact) =>
    a !== null && e.condition === 'still-useful' ? inboxArtifactName(a) : null;
  const counts = new Map<string, number>();
  for (const { entry: e, artifact } of inboxed) {
    const key = answered(artifact, e);
    if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const { entry: e, artifact } of inboxed) {
    const key = answered(artifact, e);
    const dup = key !== null && (counts.get(key) ?? 0) > 1;
    out.push(
      dup
        ? Object.freeze({
            ...e,
            condition: 'blocking' as const,
            blocking: 'duplicate' as const,
            removable: true,
            refuses: refusesOf(e.file, artifact, 'blocking'),
          })
        : e,
    );
  }
  return Object.freeze(out);
}
