import { createPreparedExecutionIntentV1, executionIntentDigest } from '@pfsense-mcp/authorization';
import type { PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { assertObject } from '@pfsense-mcp/foundation';
import type { WriteCapability } from './capability-registry.js';

/** Everything a signed execution intent binds besides the adapter's own descriptors. */
export interface ExecutionIntentParts {
  /** The normalized intent (the adapter's parseIntent / normalizeIntent / intentOfInput output). */
  readonly intent: unknown;
  /** The target fingerprint the change is conditioned on (the contract's target_fingerprint). */
  readonly preconditionFingerprint: string;
  /** The digest of the pre-state the rollback restores (the contract's snapshot_digest). */
  readonly rollbackSnapshotDigest: string;
  readonly applianceBindingDigest: string;
}

/**
 * The one builder of PreparedExecutionIntentV1 (docs/DESIGN.md §6). The pending request, the freshness gate
 * and the resume of an existing contract all build through it, so "the same intent" always means the same
 * bytes and therefore the same digest. The natural target is the one the intent names.
 */
export function buildExecutionIntent(adapter: WriteCapability, parts: ExecutionIntentParts): PreparedExecutionIntentV1 {
  assertObject(parts, 'buildExecutionIntent: "parts"');
  const intent = adapter.parseIntent(parts.intent);
  return createPreparedExecutionIntentV1({
    capability: adapter.capability,
    endpoint_symbol: adapter.endpointSymbol,
    method: adapter.httpMethod,
    adapter_semantics_version: adapter.semanticsVersion,
    natural_target: adapter.identityOfIntent(intent),
    precondition_fingerprint: parts.preconditionFingerprint,
    normalized_intent: intent,
    rollback_snapshot_digest: parts.rollbackSnapshotDigest,
    rollback_plan_version: adapter.rollbackPlanVersion,
    appliance_binding_digest: parts.applianceBindingDigest,
  });
}

/**
 * The prepared intent of an existing contract, rebuilt from an intent, an appliance binding and the contract's
 * own digests — or null unless it digests to the contract's signed execution-intent provenance (another
 * appliance, or other arguments, never name that contract).
 */
export function contractExecutionIntent(
  adapter: WriteCapability,
  c: RecoveryContract,
  intent: unknown,
  applianceBindingDigest: string,
): PreparedExecutionIntentV1 | null {
  try {
    const built = buildExecutionIntent(adapter, {
      intent,
      preconditionFingerprint: c.target_fingerprint,
      rollbackSnapshotDigest: c.snapshot_digest,
      applianceBindingDigest,
    });
    return executionIntentDigest(built) === c.provenance.execution_intent_digest ? built : null;
  } catch {
    return null;
  }
}
