import { AliasDescriptionAdapter as ADAPTER } from '@pfsense-mcp/adapters';
import type { PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';

/** Checks that a prepared intent is one this build's alias adapter made, and returns its parts. Throws TypeError. */
export function aliasPartsOf(intent: PreparedExecutionIntentV1): { aliasName: string; description: string } {
  const p = intent.payload;
  if (
    p.capability !== ADAPTER.capability ||
    p.endpoint_symbol !== ADAPTER.endpointSymbol ||
    p.method !== ADAPTER.httpMethod ||
    p.adapter_semantics_version !== ADAPTER.semanticsVersion ||
    p.rollback_plan_version !== ADAPTER.rollbackPlanVersion
  ) {
    throw new TypeError('prepared intent is not for this adapter');
  }
  const normalized = ADAPTER.parseIntent(p.normalized_intent);
  const natural = ADAPTER.naturalIdentity(p.natural_target);
  if (natural.alias_name !== normalized.raw_target_hint.alias_name) throw new TypeError('prepared intent names two targets');
  return { aliasName: natural.alias_name, description: normalized.new_description };
}
