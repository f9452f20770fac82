import { ArtifactKind } from './artifact-kind.js';
import { ArtifactVerificationError } from './artifact-verification-error.js';
import type { ConfirmationEvidence } from './confirmation-evidence.js';
import type { PlanAuthorizationV2 } from './plan-authorization-v2.js';
import type { ReconciliationEvidence, ReconciliationOrigin } from './reconciliation-evidence.js';
import type { ReservationRelease } from './reservation-release.js';

/** What the coordinator recomputed (never copied from the authorization being checked). */
export interface ExpectedPlanStep {
  readonly planDigest: string;
  readonly stepId: string;
  readonly executionIntentDigest: string;
}

/**
 * Check 3 of an authorization: exact plan digest, the requested step is one of the signed steps (exact
 * match — no prefix, wildcard or case folding), and that step's signed execution-intent digest equals the
 * recomputed one. Codes PLAN_MISMATCH, STEP_NOT_AUTHORIZED, INTENT_MISMATCH.
 */
export function checkPlanAuthorizationBinding(authorization: PlanAuthorizationV2, expected: ExpectedPlanStep): void {
  const kind = ArtifactKind.PLAN_AUTHORIZATION;
  if (authorization.kind !== kind || authorization.version !== 2) {
    throw new ArtifactVerificationError('WRONG_KIND', String(authorization.kind), 'is not a PlanAuthorizationV2');
  }
  const p = authorization.payload;
  if (p.plan_digest !== expected.planDigest) throw new ArtifactVerificationError('PLAN_MISMATCH', kind, 'plan digest differs');
  const step = p.steps.find((s) => s.step_id === expected.stepId);
  if (step === undefined) throw new ArtifactVerificationError('STEP_NOT_AUTHORIZED', kind, 'step is not authorized');
  if (step.execution_intent_digest !== expected.executionIntentDigest) {
    throw new ArtifactVerificationError('INTENT_MISMATCH', kind, 'execution intent digest differs');
  }
}

/**
 * An authorization or confirmation answers the server whose request key signed the request: it names that key's
 * id (`request_key_id`), and a server accepts it only when the id is one of its own request keys — the current one
 * or one it retired (docs/DESIGN.md §10). So an answer obtained through one write directory does not authorize a
 * change through another on the same appliance with the same operator keys pinned. Code OTHER_SERVER.
 */
export function checkAnswersThisServer(answer: PlanAuthorizationV2 | ConfirmationEvidence, requestKeyIds: readonly string[]): void {
  if (answer.kind !== ArtifactKind.PLAN_AUTHORIZATION && answer.kind !== ArtifactKind.CONFIRMATION) {
    throw new ArtifactVerificationError(
      'WRONG_KIND',
      String((answer as { kind: unknown }).kind),
      'is not an authorization or confirmation',
    );
  }
  if (!requestKeyIds.includes(answer.payload.request_key_id)) {
    throw new ArtifactVerificationError('OTHER_SERVER', answer.kind, "answers another server's request key");
  }
}

/** The contract's stored facts a confirmation must name. */
export interface ExpectedConfirmationBinding {
  readonly contractId: string;
  readonly operationId: string;
  readonly intentDigest: string;
  readonly executionIntentDigest: string;
  readonly targetFingerprint: string;
}

/** Check 3 of a confirmation: bound to exactly this contract (id, operation, intent, execution intent, target). */
export function checkConfirmationBinding(evidence: ConfirmationEvidence, expected: ExpectedConfirmationBinding): void {
  const kind = ArtifactKind.CONFIRMATION;
  if (evidence.kind !== kind) throw new ArtifactVerificationError('WRONG_KIND', String(evidence.kind), 'is not a ConfirmationEvidence');
  const p = evidence.payload;
  if (
    p.contract_id !== expected.contractId ||
    p.operation_id !== expected.operationId ||
    p.intent_digest !== expected.intentDigest ||
    p.execution_intent_digest !== expected.executionIntentDigest ||
    p.target_fingerprint !== expected.targetFingerprint
  ) {
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'is bound to another contract or target');
  }
}

/** The contract's current facts a reconciliation decision must name. */
export interface ExpectedReconciliationBinding {
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
  readonly origin: ReconciliationOrigin;
}

/** Check 3 of reconciliation evidence: this contract, this operation, this exact state version and origin. */
export function checkReconciliationBinding(evidence: ReconciliationEvidence, expected: ExpectedReconciliationBinding): void {
  const kind = ArtifactKind.RECONCILIATION;
  if (evidence.kind !== kind) throw new ArtifactVerificationError('WRONG_KIND', String(evidence.kind), 'is not ReconciliationEvidence');
  const p = evidence.payload;
  if (
    p.contract_id !== expected.contractId ||
    p.operation_id !== expected.operationId ||
    p.state_version !== expected.stateVersion ||
    p.origin !== expected.origin
  ) {
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'is bound to another contract or state');
  }
}

export interface ExpectedReleaseBinding {
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
}

/** Check 3 of a reservation release: this contract, operation and state version. */
export function checkReleaseBinding(release: ReservationRelease, expected: ExpectedReleaseBinding): void {
  const kind = ArtifactKind.RELEASE;
  if (release.kind !== kind) throw new ArtifactVerificationError('WRONG_KIND', String(release.kind), 'is not a ReservationRelease');
  const p = release.payload;
  if (p.contract_id !== expected.contractId || p.operation_id !== expected.operationId || p.state_version !== expected.stateVersion) {
    throw new ArtifactVerificationError('BINDING_MISMATCH', kind, 'is bound to another contract or state');
  }
}
