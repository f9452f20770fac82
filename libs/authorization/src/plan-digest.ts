import { assertObject } from '@pfsense-mcp/foundation';
import { assertHex64, assertSafeToken, digest, DigestPurpose } from '@pfsense-mcp/canonical';

/** One authorized step: a step id and the execution-intent digest it may execute. */
export interface PlanStepBinding {
  readonly step_id: string;
  readonly execution_intent_digest: string;
}

/** Steps in their one canonical order: sorted by step id (code units), duplicates refused. */
export function sortedStepBindings(steps: readonly PlanStepBinding[]): readonly PlanStepBinding[] {
  if (!Array.isArray(steps) || steps.length === 0) throw new TypeError('plan: "steps" must be a non-empty array');
  const out = steps.map((s, i) =>
    Object.freeze({
      step_id: assertSafeToken((s as PlanStepBinding | undefined)?.step_id, `steps[${i}].step_id`),
      execution_intent_digest: assertHex64(
        (s as PlanStepBinding | undefined)?.execution_intent_digest,
        `steps[${i}].execution_intent_digest`,
      ),
    }),
  );
  out.sort((a, b) => (a.step_id < b.step_id ? -1 : a.step_id > b.step_id ? 1 : 0));
  for (let i = 1; i < out.length; i++) {
    if (out[i - 1]?.step_id === out[i]?.step_id) throw new TypeError('plan: "steps" must not repeat a step id');
  }
  return Object.freeze(out);
}

/**
 * The plan digest of one operation: digest(PLAN, {kind: "pfsense-mcp/plan", version: 1,
 * payload: {operation_id, steps}}) with steps sorted by step id. The product has no separate planner: a plan
 * is the operation's step→execution-intent set, so the digest is recomputable by the server, the signer and
 * the coordinator from facts they all hold.
 */
export function planDigestOf(input: { operationId: string; steps: readonly PlanStepBinding[] }): string {
  assertObject(input, 'planDigestOf: "input"');
  const operation_id = assertSafeToken(input.operationId, 'operationId');
  const steps = sortedStepBindings(input.steps);
  return digest(DigestPurpose.PLAN, { kind: 'pfsense-mcp/plan', version: 1, payload: { operation_id, steps } });
}
