import { load } from '../model/read-contracts.js';
import { checkAnchor } from '../anchor/store-anchor.js';
import { beginExecution, markExecutionAmbiguous, markExecutionFailed, markExecutionVerified } from './execution-transitions.js';
import { decryptProtectedArtifact } from '../artifacts/protected-artifacts.js';
import { reconcileInterrupted } from './reconcile-interrupted.js';
import { recordRefusal } from '../audit/record-refusal.js';
import { beginRollback, markRollbackAmbiguous, markRollbackFailed, markRollbackVerified } from './rollback-transitions.js';
import { SqliteRecoveryContractStore } from '../store/sqlite-recovery-contract-store.js';
import { stateOf, storeFace } from '../store/store-face.js';
import type { BoundOperations } from '../store/store-face.js';
import type { StoreState } from '../store/store-state.js';

/**
 * The executor's operations (docs/DESIGN.md §4): reads, the anchor check (also done inside beginExecution /
 * beginRollback), restart reconciliation, its own transitions, one value-free refusal row (e.g. a failed
 * config-history capture) and artifact decryption. Not `create`, `confirm` or `resolveReconciliation`.
 */
const EXECUTOR_STORE_OPERATIONS = Object.freeze({
  load,
  checkAnchor,
  reconcileInterrupted,
  beginExecution,
  markExecutionVerified,
  markExecutionFailed,
  markExecutionAmbiguous,
  beginRollback,
  markRollbackVerified,
  markRollbackFailed,
  markRollbackAmbiguous,
  recordRefusal,
  decryptProtectedArtifact,
});

/** Every method of the executor face: what libs/executor may call on the store. */
export type ExecutorStoreOperations = BoundOperations<typeof EXECUTOR_STORE_OPERATIONS>;

/**
 * The executor-only face of the store: execution transitions, restart reconciliation and protected
 * artifact decryption. Obtain it with `ExecutorContractStore.of(store)` from a store the composition
 * root constructed. Lint allows only libs/executor to import this entry.
 */
export class ExecutorContractStore extends storeFace(EXECUTOR_STORE_OPERATIONS) {
  private constructor(s: StoreState) {
    super(s);
    Object.freeze(this);
  }

  static of(store: SqliteRecoveryContractStore): ExecutorContractStore {
    if (!(store instanceof SqliteRecoveryContractStore))
      throw new TypeError('ExecutorContractStore.of: "store" must be a SqliteRecoveryContractStore');
    return new ExecutorContractStore(stateOf(store));
  }
}
