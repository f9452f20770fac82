import { AliasDescriptionAdapter as ALIAS_ADAPTER, aliasSnapshotOf } from '@pfsense-mcp/adapters';
import type { AliasDescriptionIntent, AliasTarget } from '@pfsense-mcp/adapters';
import { executionIntentDigest } from '@pfsense-mcp/authorization';
import type { AliasChangeReview, PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import { buildAliasExecutionIntent } from './alias-execution-intent.js';
import { aliasStateCopy } from './alias-state-copy.js';

/** A prepared alias-description change: the signed-over intent, its digest and the review facts. */
export interface PreparedAliasChange {
  readonly executionIntent: PreparedExecutionIntentV1;
  readonly executionIntentDigest: string;
  /** The pre-state {name, type, descr, address[], detail[]} and the new description, for the operator. */
  readonly review: AliasChangeReview;
}

/**
 * Builds PreparedExecutionIntentV1 (docs/DESIGN.md §6) from one authoritative read of the alias, the normalized
 * intent and the appliance binding digest — with the adapter's pure functions only, through the one intent
 * builder. The same function prepares the request and recomputes it at the freshness gate, so "fresh" means
 * byte-identical.
 */
export function prepareAliasExecutionIntent(target: AliasTarget, intent: unknown, applianceBindingDigest: string): PreparedAliasChange {
  const a = ALIAS_ADAPTER;
  const normalized: AliasDescriptionIntent = a.parseIntent(intent);
  const identity = a.identityOfTarget(target);
  if (identity.alias_name !== a.naturalIdentity(normalized.raw_target_hint).alias_name) {
    throw new TypeError('prepareAliasExecutionIntent: "target" is not the alias the intent names');
  }
  const executionIntent = buildAliasExecutionIntent({
    aliasName: identity.alias_name,
    newDescription: normalized.new_description,
    preconditionFingerprint: a.fingerprint(target),
    rollbackSnapshotDigest: a.snapshotDigest(a.snapshotOf(target)),
    applianceBindingDigest,
  });
  return Object.freeze({
    executionIntent,
    executionIntentDigest: executionIntentDigest(executionIntent),
    review: Object.freeze({ pre_state: aliasStateCopy(aliasSnapshotOf(target)), new_description: normalized.new_description }),
  });
}
