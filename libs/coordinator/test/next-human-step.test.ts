// The one status → next-human-step decision: a pending request is signed whatever the status; without one the
// status decides, and every status of the closed set has its row.
import { describe, expect, it } from 'vitest';
import { HumanStep, OperationStatus, PendingRequestKind, nextHumanStep } from '../src/index.js';

describe('nextHumanStep', () => {
  it('a pending request is the step: sign it, by its kind', () => {
    const file = 'x.json';
    expect(nextHumanStep(OperationStatus.REQUESTED, { kind: PendingRequestKind.AUTHORIZATION, file })).toBe(HumanStep.SIGN_AUTHORIZATION);
    expect(nextHumanStep(OperationStatus.AWAITING_CONFIRMATION, { kind: PendingRequestKind.CONFIRMATION, file })).toBe(
      HumanStep.SIGN_CONFIRMATION,
    );
    expect(nextHumanStep(OperationStatus.RECONCILIATION_REQUIRED, { kind: PendingRequestKind.RECONCILIATION, file })).toBe(
      HumanStep.SIGN_RECONCILIATION,
    );
    expect(nextHumanStep(OperationStatus.RECONCILIATION_REQUIRED, { kind: PendingRequestKind.RELEASE, file })).toBe(HumanStep.SIGN_RELEASE);
  });

  it('without one, every status has its step; the closed statuses are closed whatever is passed', () => {
    const steps = Object.values(OperationStatus).map((s) => nextHumanStep(s, null));
    expect(steps).toEqual([
      HumanStep.SIGN_AUTHORIZATION,
      HumanStep.ASK_AGAIN,
      HumanStep.NOTHING,
      HumanStep.SETTLING,
      HumanStep.ROLLED_BACK,
      HumanStep.CLOSED,
    ]);
    expect(nextHumanStep(OperationStatus.REFUSED, { kind: PendingRequestKind.CONFIRMATION, file: 'x.json' })).toBe(HumanStep.CLOSED);
    expect(nextHumanStep(OperationStatus.ROLLED_BACK, { kind: PendingRequestKind.RELEASE, file: 'x.json' })).toBe(HumanStep.ROLLED_BACK);
  });
});
