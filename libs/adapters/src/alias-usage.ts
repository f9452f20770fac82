import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { z } from 'zod';
import { TargetResolutionError } from './adapter-error.js';

/** The one read of the filter rules (pfrest Endpoints/FirewallRulesEndpoint.inc at the pinned commit). */
export const FIREWALL_RULES_PATH = '/api/v2/firewall/rules';
/** How many referencing rules a review shows; the count is always complete. */
export const ALIAS_USAGE_REVIEW_RULES = 10;

/**
 * One filter rule that names the alias as its source or destination (negated or not), as pfrest's FirewallRule
 * model returns it (Models/FirewallRule.inc: `type` pass|block|reject, `interface` list, `direction`,
 * `disabled`, `tracker`, `descr`). What the usage digest binds is everything but the description.
 */
export interface AliasRuleUse {
  readonly tracker: string;
  readonly action: 'pass' | 'block' | 'reject';
  readonly interface: readonly string[];
  readonly direction: string;
  readonly disabled: boolean;
  readonly descr: string;
}

const text = z.string().max(4096);
const ruleSchema = z.object({
  tracker: z.union([z.number().int(), z.string().max(64)]),
  type: z.enum(['pass', 'block', 'reject']),
  interface: z.union([text, z.array(text).max(256)]),
  direction: text.nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  descr: text.nullable().optional(),
  source: text.nullable().optional(),
  destination: text.nullable().optional(),
});

function names(field: string | null | undefined, alias: string): boolean {
  return field === alias || field === `!${alias}`;
}

/**
 * The rules (one listing, in its order) that reference `alias` by name as source or destination. A rule that
 * cannot be read well enough to tell fails the whole read closed: its usage would be unknown.
 */
export function aliasUsageOf(rules: unknown, alias: string): readonly AliasRuleUse[] {
  if (!Array.isArray(rules)) throw new TargetResolutionError('MALFORMED_COLLECTION', 'rules', 'must be an array');
  const uses = rules.flatMap((raw: unknown, i): AliasRuleUse[] => {
    const parsed = ruleSchema.safeParse(raw);
    if (!parsed.success) throw new TargetResolutionError('MALFORMED_COLLECTION', `rules[${i}]`, 'is not a readable rule');
    const r = parsed.data;
    if (!names(r.source, alias) && !names(r.destination, alias)) return [];
    return [
      Object.freeze({
        tracker: String(r.tracker),
        action: r.type,
        interface: Object.freeze(typeof r.interface === 'string' ? [r.interface] : [...r.interface]),
        direction: r.direction ?? 'any',
        disabled: r.disabled === true,
        descr: r.descr ?? '',
      }),
    ];
  });
  return Object.freeze(uses);
}

/** digest over each referencing rule's tracker, action, interfaces, direction and disabled flag, in order. */
export function aliasUsageDigest(uses: readonly AliasRuleUse[]): string {
  const bound = uses.map((u) => ({
    tracker: u.tracker,
    action: u.action,
    interface: [...u.interface],
    direction: u.direction,
    disabled: u.disabled,
  }));
  return digest(DigestPurpose.TARGET_FINGERPRINT, { alias_usage: bound });
}

/** At least one enabled rule names the alias: otherwise pf has no table for it and nothing would change. */
export function isUsedByEnabledRule(uses: readonly AliasRuleUse[]): boolean {
  return uses.some((u) => !u.disabled);
}
