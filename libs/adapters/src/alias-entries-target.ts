import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { Capability } from '@pfsense-mcp/policy';
import { AdapterInputError } from './adapter-error.js';
import { parseAliasIdentity } from './alias-description-intent.js';
import type { AliasIdentity } from './alias-description-intent.js';
import { SNAPSHOT_CANONICAL_LIMITS, aliasSnapshotOf, parseAliasTarget } from './alias-target.js';
import type { AliasSnapshot, AliasTarget } from './alias-target.js';
import { FIREWALL_RULES_PATH, aliasUsageDigest, aliasUsageOf } from './alias-usage.js';
import type { AliasRuleUse } from './alias-usage.js';
import type { TargetReader } from './capability-adapter.js';
import { readAliasTarget } from './read-alias-target.js';

/** An alias as the entries capability reads it: the alias itself and the filter rules that reference it. */
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

/** Validates a target object (the alias's six fields plus `usage`) and returns a frozen copy. */
export function parseAliasEntriesTarget(value: unknown, argument = 'target'): AliasEntriesTarget {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as { usage?: unknown }).usage)) {
    throw new AdapterInputError('MISSING_FIELD', `${argument}.usage`, 'is required');
  }
  const { usage, ...alias } = value as { usage: unknown[] } & Record<string, unknown>;
  const target = parseAliasTarget(alias, argument);
  const uses = usage.map((u, i) => parseUse(u, `${argument}.usage[${i}]`));
  return Object.freeze({ ...target, usage: Object.freeze(uses) });
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
  const t = parseAliasEntriesTarget(target);
  const snapshot: AliasSnapshot = aliasSnapshotOf(t);
  return digest(DigestPurpose.TARGET_FINGERPRINT, { ...snapshot, usage_digest: aliasUsageDigest(t.usage) }, SNAPSHOT_CANONICAL_LIMITS);
}

/** digest(TARGET_IDENTITY, {capability: ALIAS_ENTRIES_WRITE, alias_name}): the same alias, another capability. */
export function aliasEntriesIdentityDigest(identity: unknown): string {
  const { alias_name }: AliasIdentity = parseAliasIdentity(identity, 'identity');
  return digest(DigestPurpose.TARGET_IDENTITY, { capability: Capability.ALIAS_ENTRIES_WRITE, alias_name });
}
