import type { PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import type { CapabilityRegistry, WriteCapability } from './capability-registry.js';

/** A prepared intent's capability adapter and its normalized intent. */
export interface IntentParts {
  readonly adapter: WriteCapability;
  readonly intent: unknown;
}

/**
 * Checks that a prepared intent is one a registered adapter of this build made — its descriptors are that
 * adapter's, and its natural target is the one its normalized intent names — and returns the adapter and the
 * intent. Throws TypeError (an unknown capability included).
 */
export function intentPartsOf(registry: CapabilityRegistry, prepared: PreparedExecutionIntentV1): IntentParts {
  const p = prepared.payload;
  const adapter = registry.get(p.capability);
  if (
    adapter === null ||
    p.endpoint_symbol !== adapter.endpointSymbol ||
    p.method !== adapter.httpMethod ||
    p.adapter_semantics_version !== adapter.semanticsVersion ||
    p.rollback_plan_version !== adapter.rollbackPlanVersion
  ) {
    throw new TypeError('prepared intent is not for a registered adapter');
  }
  const intent = adapter.parseIntent(p.normalized_intent);
  const natural = adapter.naturalIdentity(p.natural_target);
  if (adapter.identityDigest(natural) !== adapter.identityDigest(adapter.identityOfIntent(intent))) {
    throw new TypeError('prepared intent names two targets');
  }
  return Object.freeze({ adapter, intent });
}
