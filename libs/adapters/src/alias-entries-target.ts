import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { Capability } from '@pfsense-mcp/policy';
import { AdapterInputError } from './adapter-error.js';
import { parseAliasIdentity } from './alias-description-intent.js';
import type { AliasIdentity } from './alias-description-intent.js';
import { SNAPSHOT_CANONICAL_LIMITS, aliasSnapshotOf, parseAliasSnapshot, parseAliasTarget } from './alias-target.js';
import type { AliasSnapshot, AliasTarget } from './alias-target.js';
import { FIREWALL_RULES_PATH, aliasUsageDigest, aliasUsageOf } from './alias-usage.js';
import type { AliasRuleUse } from './alias-usage.js';
import type { TargetReader } from './capability-adapter.js';
import { readAliasTarget } from './read-alias-target.js';

/**
 * The semantic state of an alias for this capability — its five fields and the filter rules that reference it
 * — which is both the rollback snapshot and what the fingerprint digests (the executor recomputes the
 * precondition from the snapshot, so the snapshot must carry the usage too).
 */
export interface AliasEntriesState extends AliasSnapshot {
  readonly usage: readonly AliasRuleUse[];
}

/** An alias as the entries capability reads it: the state plus the locator `id`. */
export interface AliasEntriesTarget extends AliasTarget {
  readonly usage: readonly AliasRuleUse[];
}

const USAGE_KEYS = ['tracker', 'action', 'interface', 'direction', 'disabled', 'descr'];

function parseUse(value: unknown, argument: string): AliasRuleUse {
  const v = value as Record<string, unknown> | null;
  const ok =
    v !== null &&
    typeof v === 'object' &&
    Object.keys(v).length === USAGE_KEYS.length &&
    USAGE_KEYS.every((k) => Object.prototype.hasOwnProperty.call(v, k)) &&
    typeof v.tracker === 'string' &&
    ['pass', 'block', 'reject'].includes(v.action as string) &&
    Array.isArray(v.interface) &&
    v.interface.every((i) => typeof i === 'string') &&
    typeof v.direction === 'string' &&
    typeof v.disabled === 'boolean' &&
    typeof v.descr === 'string';
  if (!ok) throw new AdapterInputError('MALFORMED', argument, 'must be a rule use');
  return v as unknown as AliasRuleUse;
}

function splitUsage(value: unknown, argument: string): { alias: Record<string, unknown>; usage: readonly AliasRuleUse[] } {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as { usage?: unknown }).usage)) {
    throw new AdapterInputError('MISSING_FIELD', `${argument}.usage`, 'is required');
  }
  const { usage, ...alias } = value as { usage: unknown[] } & Record<string, unknown>;
  return { alias, usage: Object.freeze(usage.map((u, i) => Object.freeze({ ...parseUse(u, `${argument}.usage[${i}]`) }))) };
}

/** Validates a target object (the alias's six fields plus `usage`) and returns a frozen copy. */
export function parseAliasEntriesTarget(value: unknown, argument = 'target'): AliasEntriesTarget {
  const { alias, usage } = splitUsage(value, argument);
  return Object.freeze({ ...parseAliasTarget(alias, argument), usage });
}

/** Validates a state (the five alias fields plus `usage`, no id) and returns a frozen copy. */
export function parseAliasEntriesState(value: unknown, argument = 'snapshot'): AliasEntriesState {
  const { alias, usage } = splitUsage(value, argument);
  return Object.freeze({ ...parseAliasSnapshot(alias, argument), usage });
}

/** The state of a target or of a state (the locator `id` dropped), validated closed. */
export function aliasEntriesStateOf(value: unknown, argument = 'target'): AliasEntriesState {
  const { alias, usage } = splitUsage(value, argument);
  return Object.freeze({ ...aliasSnapshotOf(alias, argument), usage });
}

/**
 * The capability's authoritative read: the alias (readAliasTarget: exactly one, by exact name) and every
 * filter rule, from which the rules that reference the alias are kept (docs/DESIGN.md §5).
 */
export async function readAliasEntriesTarget(reader: TargetReader, identity: unknown): Promise<AliasEntriesTarget> {
  const alias = await readAliasTarget(reader, identity);
  const rules: unknown = await reader.readAllPages(FIREWALL_RULES_PATH);
  return Object.freeze({ ...alias, usage: aliasUsageOf(rules, alias.name) });
}

/**
 * digest(TARGET_FINGERPRINT, {name, type, descr, address[], detail[], usage_digest}): the complete pre-state
 * lists and how the alias is used (each referencing rule's tracker, action, interfaces, direction, disabled),
 * so an entry edit or a rule flipped between review and send makes the contract stale.
 */
export function aliasEntriesFingerprint(target: unknown): string {
  const { usage, ...alias } = aliasEntriesStateOf(target);
  const snapshot: AliasSnapshot = alias;
  return digest(DigestPurpose.TARGET_FINGERPRINT, { ...snapshot, usage_digest: aliasUsageDigest(usage) }, SNAPSHOT_CANONICAL_LIMITS);
}

/** digest(SNAPSHOT, state): the rollback snapshot with the usage it was taken with. */
export function aliasEntriesSnapshotDigest(snapshot: unknown): string {
  const state = parseAliasEntriesState(snapshot);
  return digest(
    DigestPurpose.SNAPSHOT,
    { ...state, usage: state.usage.map((u) => ({ ...u, interface: [...u.interface] })) },
    SNAPSHOT_CANONICAL_LIMITS,
  );
}

/** digest(TARGET_IDENTITY, {capability: ALIAS_ENTRIES_WRITE, alias_name}): the same alias, another capability. */
export function aliasEntriesIdentityDigest(identity: unknown): string {
  const { alias_name }: AliasIdentity = parseAliasIdentity(identity, 'identity');
  return digest(DigestPurpose.TARGET_IDENTITY, { capability: Capability.ALIAS_ENTRIES_WRITE, alias_name });
}

/**
 * The digest of the alias's entry lists before a change, which names the operation with the input (the
 * coordinator's `operationBasisOf`): the same block asked again after it was applied is a new operation.
 */
export function aliasEntriesBeforeDigest(target: unknown): string {
  const { address, detail } = aliasEntriesStateOf(target);
  return digest(DigestPurpose.SNAPSHOT, { entries_before: { address: [...address], detail: [...detail] } }, SNAPSHOT_CANONICAL_LIMITS);
}
