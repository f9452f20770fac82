import { executionIntentDigest } from '@pfsense-mcp/authorization';
import type { WriteReview, PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import type { WriteCapability } from './capability-registry.js';
import { buildExecutionIntent } from './execution-intent.js';

/** A prepared change: the signed-over intent, its digest and the review facts. */
export interface PreparedChange {
  readonly executionIntent: PreparedExecutionIntentV1;
  readonly executionIntentDigest: string;
  /** What the operator reviews (the target's pre-state and the requested change). */
  readonly review: WriteReview;
}

/**
 * Builds PreparedExecutionIntentV1 (docs/DESIGN.md §6) from one authoritative read of the target, the
 * normalized intent and the appliance binding digest — with the adapter's pure functions only, through the one
 * intent builder. The same function prepares the request and recomputes it at the freshness gate, so "fresh"
 * means byte-identical.
 */
export function prepareExecutionIntent(
  adapter: WriteCapability,
  target: unknown,
  intent: unknown,
  applianceBindingDigest: string,
): PreparedChange {
  const normalized = adapter.parseIntent(intent);
  if (adapter.identityDigest(adapter.identityOfTarget(target)) !== adapter.identityDigest(adapter.identityOfIntent(normalized))) {
    throw new TypeError('prepareExecutionIntent: "target" is not the target the intent names');
  }
  const executionIntent = buildExecutionIntent(adapter, {
    intent: normalized,
    preconditionFingerprint: adapter.fingerprint(target),
    rollbackSnapshotDigest: adapter.snapshotDigest(adapter.snapshotOf(target)),
    applianceBindingDigest,
  });
  return Object.freeze({
    executionIntent,
    executionIntentDigest: executionIntentDigest(executionIntent),
    review: adapter.reviewOf(target, normalized),
  });
}
