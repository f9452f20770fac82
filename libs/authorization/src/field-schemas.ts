import { canonicalize, isHex64, isSafeToken, isWellFormed } from '@pfsense-mcp/canonical';
import { z } from 'zod';
import { aliasStateWithinBounds } from './alias-state-bounds.js';
import { MAX_ALIAS_MEMBERS } from './artifact-limits.js';

// Shared zod field schemas of the artifact formats. Internal: the public surface is the parsed types.

export const hex64Schema = z.string().refine(isHex64, { message: 'must be 64 lowercase hex digits' });
export const safeTokenSchema = z.string().refine(isSafeToken, { message: 'must be a safe token' });
/** Timestamps are integer UTC milliseconds since the epoch (one spelling; the store uses the same). */
export const utcMsSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const signatureHexSchema = z.string().regex(/^[0-9a-f]{128}$/, { message: 'must be 128 lowercase hex digits' });
/** Any short name is parsed, so that a downgrade ("none", "HS256") is refused by the algorithm check itself. */
export const algorithmSchema = z.string().min(1).max(32);
/** Versioned names such as "firewall-alias-description/v1". */
export const versionNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, { message: 'must be a version name' });
export const capabilityNameSchema = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, { message: 'must be a capability name' });
export const mutatingMethodSchema = z.enum(['POST', 'PUT', 'PATCH', 'DELETE']);
export const riskClassSchema = z.enum(['low', 'medium', 'high']);
export type RiskClass = z.infer<typeof riskClassSchema>;
export const stateVersionSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
export const locatorSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const wellFormed = (max: number) => z.string().max(max).refine(isWellFormed, { message: 'must be well-formed text' });

/** A canonical JSON value (object), bounded: used for natural target and normalized intent. */
export const canonicalObjectSchema = z.custom<Readonly<Record<string, unknown>>>(
  (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    try {
      canonicalize(v, { maxDepth: 8, maxBytes: 16_384 });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be a small canonical JSON object' },
);

/**
 * The full pre-state of an alias as shown for review: {name, type, descr, address[], detail[]} (docs/DESIGN.md
 * §5), within the size bounds (at most MAX_ALIAS_MEMBERS members, MAX_ALIAS_STATE_BYTES of canonical JSON).
 * Structure only; the signer checks semantics and recomputes the fingerprint with the adapter.
 */
const aliasStateShape = {
  name: wellFormed(256),
  type: wellFormed(64),
  descr: wellFormed(8192),
  address: z.array(wellFormed(1024)).max(MAX_ALIAS_MEMBERS),
  detail: z.array(wellFormed(1024)).max(MAX_ALIAS_MEMBERS),
};
export const aliasStateSchema = z
  .strictObject(aliasStateShape)
  .refine(aliasStateWithinBounds, { message: 'is larger than an alias state may be' });
export interface AliasState {
  readonly name: string;
  readonly type: string;
  readonly descr: string;
  readonly address: readonly string[];
  readonly detail: readonly string[];
}

/** What a human reviews: the current alias and the description it would get. */
export const aliasChangeReviewSchema = z.strictObject({
  pre_state: aliasStateSchema,
  new_description: wellFormed(4096),
});
export interface AliasChangeReview {
  readonly pre_state: AliasState;
  readonly new_description: string;
}

/** Most filter rules an entries review lists as using the alias (every one: the fingerprint binds them all). */
export const MAX_ALIAS_RULE_USES = 4096;

/** One filter rule that uses the alias, as the entries adapter reads it (docs/DESIGN.md §5). */
export interface AliasRuleUseState {
  readonly tracker: string;
  readonly action: string;
  readonly interface: readonly string[];
  readonly direction: string;
  readonly disabled: boolean;
  readonly descr: string;
}
const ruleUseSchema = z.strictObject({
  tracker: wellFormed(64),
  action: z.enum(['pass', 'block', 'reject']),
  interface: z.array(wellFormed(64)).max(256),
  direction: wellFormed(16),
  disabled: z.boolean(),
  descr: wellFormed(4096),
});

/** The state of an alias for the entries capability: the alias state plus every rule that uses it. */
export const aliasEntriesStateSchema = z
  .strictObject({ ...aliasStateShape, usage: z.array(ruleUseSchema).max(MAX_ALIAS_RULE_USES) })
  .refine(aliasStateWithinBounds, { message: 'is larger than an alias state may be' });
export interface AliasEntriesStateFormat extends AliasState {
  readonly usage: readonly AliasRuleUseState[];
}

/** What a human reviews for an entries change: the alias and its usage now, the entries added and removed. */
export const aliasEntriesReviewSchema = z.strictObject({
  pre_state: aliasEntriesStateSchema,
  add: z.array(z.strictObject({ address: wellFormed(64), detail: wellFormed(1024) })).max(64),
  remove: z.array(wellFormed(64)).max(64),
});
export interface AliasEntriesChangeReview {
  readonly pre_state: AliasEntriesStateFormat;
  readonly add: readonly { readonly address: string; readonly detail: string }[];
  readonly remove: readonly string[];
}

/** Any capability's review (the request formats carry one of these). */
export const writeReviewSchema = z.union([aliasChangeReviewSchema, aliasEntriesReviewSchema]);
export type WriteReview = AliasChangeReview | AliasEntriesChangeReview;
/** Any capability's state (an observed state in a reconciliation request). */
export const writeStateSchema = z.union([aliasStateSchema, aliasEntriesStateSchema]);
export type WriteState = AliasState | AliasEntriesStateFormat;

/** True for an entries review (it has `add`), false for a description review. */
export function isAliasEntriesChangeReview(review: WriteReview): review is AliasEntriesChangeReview {
  return Object.prototype.hasOwnProperty.call(review, 'add');
}

export const proofSchema = z.strictObject({ signature: signatureHexSchema });
export interface Proof {
  /** Ed25519 signature, 128 lowercase hex, over signingMessageOf(artifact). */
  readonly signature: string;
}
