import { AliasDescriptionAdapter as ALIAS_ADAPTER, aliasSnapshotOf } from '@pfsense-mcp/adapters';
import type { AliasDescriptionIntent, AliasTarget } from '@pfsense-mcp/adapters';
import { createPreparedExecutionIntentV1, executionIntentDigest } from '@pfsense-mcp/authorization';
import type { AliasChangeReview, PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';

/** A prepared alias-description change: the signed-over intent, its digest and the review facts. */
export interface PreparedAliasChange {
  readonly executionIntent: PreparedExecutionIntentV1;
  readonly executionIntentDigest: string;
  /** The pre-state {name, type, descr, address[], detail[]} and the new description, for the operator. */
  readonly review: AliasChangeReview;
}

/**
 * Builds PreparedExecutionIntentV1 (docs/DESIGN.md §6) from one authoritative read of the alias, the normalized
 * intent and the appliance binding digest — with the adapter's pure functions only. The same function
 * prepares the request and recomputes it at the freshness gate, so "fresh" means byte-identical.
 */
export function prepareAliasExecutionIntent(target: AliasTarget, intent: unknown, applianceBindingDigest: string): PreparedAliasChange {
  const a = ALIAS_ADAPTER;
  const normalized: AliasDescriptionIntent = a.parseIntent(intent);
  const identity = a.identityOfTarget(target);
  if (identity.alias_name !== a.naturalIdentity(normalized.raw_target_hint).alias_name) {
    throw new TypeError('prepareAliasExecutionIntent: "target" is not the alias the intent names');
  }
  const snapshot = a.snapshotOf(target);
  const executionIntent = createPreparedExecutionIntentV1({
    capability: a.capability,
    endpoint_symbol: a.endpointSymbol,
    method: a.httpMethod,
    adapter_semantics_version: a.semanticsVersion,
    natural_target: { alias_name: identity.alias_name },
    precondition_fingerprint: a.fingerprint(target),
    normalized_intent: {
      operation: normalized.operation,
      raw_target_hint: { alias_name: normalized.raw_target_hint.alias_name },
      new_description: normalized.new_description,
    },
    rollback_snapshot_digest: a.snapshotDigest(snapshot),
    rollback_plan_version: a.rollbackPlanVersion,
    appliance_binding_digest: applianceBindingDigest,
  });
  const pre = aliasSnapshotOf(target);
  return Object.freeze({
    executionIntent,
    executionIntentDigest: executionIntentDigest(executionIntent),
    review: Object.freeze({
      pre_state: Object.freeze({ name: pre.name, type: pre.type, descr: pre.descr, address: [...pre.address], detail: [...pre.detail] }),
      new_description: normalized.new_description,
    }),
  });
}
