import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { HumanStep, nextHumanStep, pendingRequestOf, statusOfContract } from '@pfsense-mcp/coordinator';
import { RecoveryState } from '@pfsense-mcp/state-machine';

/** While a contract settles with nothing to sign: what the operator waits for or writes (its state says which). */
function settling(state: RecoveryState): string {
  switch (state) {
    case RecoveryState.PREPARING:
      return 'wait: the server is creating it (it expires if abandoned)';
    case RecoveryState.EXECUTING:
      return 'wait: the change is in flight (a dead server is reconciled at the next start)';
    case RecoveryState.ROLLING_BACK:
      return 'wait: the rollback is in flight';
    case RecoveryState.ROLLBACK_FAILED:
      return '`admin release emit ID` writes the release request; sign it with the reconciliation key, `admin inbox add`, `admin release resume ID`';
    default:
      return '`admin reconcile emit ID` writes the reconciliation request; sign it with the reconciliation key, `admin inbox add`, `admin reconcile resume ID`';
  }
}

/**
 * What the operator does next about a contract, in `admin`'s words: the step itself is the coordinator's
 * `nextHumanStep` (one decision for the write tool, the operations view and this), from the contract's status
 * and its pending request when that file is in the outbox (`inOutbox`, by name).
 */
export function adminNextStep(c: RecoveryContract, inOutbox: (fileName: string) => boolean): string {
  const due = pendingRequestOf(c);
  const step = nextHumanStep(statusOfContract(c), due !== null && inOutbox(due.file) ? due : null);
  switch (step) {
    case HumanStep.SIGN_AUTHORIZATION:
      return 'sign the authorization request in the outbox';
    case HumanStep.SIGN_CONFIRMATION:
      return 'sign the confirmation request in the outbox, or `admin cancel ID`';
    case HumanStep.ASK_AGAIN:
      return 'ask again with the same arguments (the server writes or uses the confirmation), or `admin cancel ID`';
    case HumanStep.SIGN_RECONCILIATION:
      return 'sign the reconciliation request in the outbox with the reconciliation key, `admin inbox add`, `admin reconcile resume ID`';
    case HumanStep.SIGN_RELEASE:
      return 'sign the release request in the outbox with the reconciliation key, `admin inbox add`, `admin release resume ID`';
    case HumanStep.SIGN_ROLLBACK:
      return 'sign the rollback request in the outbox with the confirmation key (or `approve` it in the exchange folder), `admin inbox add`, `admin rollback ID` again';
    case HumanStep.SETTLING:
      return settling(c.state);
    case HumanStep.NOTHING:
      return 'nothing; `admin rollback ID` undoes it';
    case HumanStep.ROLLED_BACK:
      return 'nothing (applied, then rolled back: the target is as it was before)';
    case HumanStep.CLOSED:
      return c.state === RecoveryState.FAILED ? 'nothing (closed without effect)' : 'nothing (expired or cancelled before execution)';
  }
}
