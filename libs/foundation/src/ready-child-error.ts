import { CodedError } from './coded-error.js';

/** Why a child never became ready. Value-free: names what happened, never the child's output. */
export type ReadyChildFailure = 'TIMEOUT' | 'EXITED' | 'OVERSIZED' | 'UNREADABLE';

/**
 * A child started by `spawnReadyChild` that did not print its JSON ready line; the child is already stopped.
 * `stderrTail` is the bounded end of its stderr when the caller asked for it (empty otherwise) — kept out of
 * the message, so a caller decides whether a human may see it.
 */
export class ReadyChildError extends CodedError<ReadyChildFailure> {
  override readonly name = 'ReadyChildError';
  readonly failure: ReadyChildFailure;
  readonly stderrTail: string;

  constructor(failure: ReadyChildFailure, stderrTail: string) {
    super(failure, `the child ${READY_CHILD_FAILURE_TEXT[failure]}`);
    this.failure = failure;
    this.stderrTail = stderrTail;
  }
}

const READY_CHILD_FAILURE_TEXT: Readonly<Record<ReadyChildFailure, string>> = Object.freeze({
  TIMEOUT: 'did not become ready in time',
  EXITED: 'exited before it was ready',
  OVERSIZED: 'printed no ready line within the size bound',
  UNREADABLE: 'printed a ready line that is not JSON',
});
