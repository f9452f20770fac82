import { ALIAS_DESCRIPTION_OPERATION, AliasDescriptionAdapter as ADAPTER } from '@pfsense-mcp/adapters';
import { createPreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import type { PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import { assertObject } from '@pfsense-mcp/foundation';

/** Everything a signed alias-description execution intent binds besides the adapter's own constants. */
export interface AliasExecutionIntentParts {
  readonly aliasName: string;
  readonly newDescription: string;
  /** The target fingerprint the change is conditioned on (the contract's target_fingerprint). */
  readonly preconditionFingerprint: string;
  /** The digest of the pre-state the rollback restores (the contract's snapshot_digest). */
  readonly rollbackSnapshotDigest: string;
  readonly applianceBindingDigest: string;
}

/**
 * The one builder of PreparedExecutionIntentV1 for an alias-description change (docs/DESIGN.md §6). The
 * pending request, the freshness gate and the resume of an existing contract all build through it, so
 * "the same intent" always means the same bytes and therefore the same digest.
 */
export function buildAliasExecutionIntent(parts: AliasExecutionIntentParts): PreparedExecutionIntentV1 {
  assertObject(parts, 'buildAliasExecutionIntent: "parts"');
  return createPreparedExecutionIntentV1({
    capability: ADAPTER.capability,
    endpoint_symbol: ADAPTER.endpointSymbol,
    method: ADAPTER.httpMethod,
    adapter_semantics_version: ADAPTER.semanticsVersion,
    natural_target: { alias_name: parts.aliasName },
    precondition_fingerprint: parts.preconditionFingerprint,
    normalized_intent: {
      operation: ALIAS_DESCRIPTION_OPERATION,
      raw_target_hint: { alias_name: parts.aliasName },
      new_description: parts.newDescription,
    },
    rollback_snapshot_digest: parts.rollbackSnapshotDigest,
    rollback_plan_version: ADAPTER.rollbackPlanVersion,
    appliance_binding_digest: parts.applianceBindingDigest,
  });
}
