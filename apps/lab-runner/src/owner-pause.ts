import { LabError } from './lab-error.js';

/** Where a run stopped for the owner: the subject's pending request of role reconciliation, and what comes next. */
export interface OwnerPauseInfo {
  /** The subject outbox file (name only) the owner signs. */
  readonly pendingFile: string;
  /** A reconciliation decision (APPLIED / NOT_APPLIED) or a reservation release. */
  readonly request: 'reconciliation' | 'release';
  /** What the runner's read-only observation says the owner should sign (reconciliation only). */
  readonly observed: 'APPLIED' | 'NOT_APPLIED' | null;
}

/**
 * Against an appliance, a request of role reconciliation is the owner's alone (docs/DESIGN.md §7): the
 * scenario stops here — nothing further starts — and the run saves its state for `--resume`. Thrown by the
 * step that wrote the request; the plan runner adds the index of the step to continue with.
 */
export class OwnerPause extends LabError {
  constructor(
    readonly info: OwnerPauseInfo,
    readonly nextStep: number = -1,
  ) {
    super('OWNER_PAUSE', `stopped at the pending ${info.request} request: the owner signs it`);
  }
}
