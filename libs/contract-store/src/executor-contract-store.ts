import type { CanonicalValue } from '@pfsense-mcp/canonical';
import type { ConfigHistoryRecord } from './config-history-record.js';
import type { ProtectedArtifactPurpose, RecoveryContract } from './recovery-contract.js';
import { SqliteRecoveryContractStore, coreOf } from './sqlite-recovery-contract-store.js';
import type { RefusalAuditInput } from './refusal-audit-input.js';
import type { ReconciledContract } from './store-core.js';
import type { VerifiedSeal } from './verified-seal.js';

/**
 * The executor-only face of the store: execution transitions, restart reconciliation and protected
 * artifact decryption. Obtain it with `ExecutorContractStore.of(store)` from a store the composition
 * root constructed. Lint allows only libs/executor to import this entry.
 */
export class ExecutorContractStore {
  readonly #store: SqliteRecoveryContractStore;

  private constructor(store: SqliteRecoveryContractStore) {
    this.#store = store;
    Object.freeze(this);
  }

  static of(store: SqliteRecoveryContractStore): ExecutorContractStore {
    if (!(store instanceof SqliteRecoveryContractStore)) throw new TypeError('ExecutorContractStore.of: "store" must be a SqliteRecoveryContractStore');
    coreOf(store);
    return new ExecutorContractStore(store);
  }

  load(contractId: string): RecoveryContract {
    return coreOf(this.#store).load(contractId);
  }

  /** Anchor check now (also done inside beginExecution / beginRollback). */
  checkAnchor(): void {
    coreOf(this.#store).checkAnchor();
  }

  /** EXECUTING/ROLLING_BACK contracts whose owner process is dead → RECONCILIATION. Live owners are left alone. */
  reconcileInterrupted(): readonly ReconciledContract[] {
    return coreOf(this.#store).reconcileInterrupted();
  }

  /**
   * PREPARED → EXECUTING: anchor check, confirmed and unexpired, in-flight rate checkpoint, target
   * reservation acquired (refused if held), owner record written — one transaction.
   */
  beginExecution(contractId: string, expectedStateVersion: number): RecoveryContract {
    return coreOf(this.#store).beginExecution(contractId, expectedStateVersion);
  }

  /** EXECUTING → VERIFIED, sealing the post-forward fingerprint and locator atomically; releases the reservation. */
  markExecutionVerified(contractId: string, expectedStateVersion: number, seal: VerifiedSeal, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return coreOf(this.#store).markExecutionVerified(contractId, expectedStateVersion, seal, configHistory);
  }

  /** EXECUTING → FAILED (proven no effect or verified failure); releases the reservation. */
  markExecutionFailed(contractId: string, expectedStateVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return coreOf(this.#store).markExecutionFailed(contractId, expectedStateVersion, outcomeClass, configHistory);
  }

  /** EXECUTING → RECONCILIATION (outcome not provable); the reservation stays held. */
  markExecutionAmbiguous(contractId: string, expectedStateVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return coreOf(this.#store).markExecutionAmbiguous(contractId, expectedStateVersion, outcomeClass, configHistory);
  }

  /** VERIFIED → ROLLING_BACK: anchor check, re-acquires the reservation (refused if held by other work). */
  beginRollback(contractId: string, expectedStateVersion: number): RecoveryContract {
    return coreOf(this.#store).beginRollback(contractId, expectedStateVersion);
  }

  /** ROLLING_BACK → ROLLED_BACK, sealing the post-rollback fingerprint and locator; releases the reservation. */
  markRollbackVerified(contractId: string, expectedStateVersion: number, seal: VerifiedSeal, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return coreOf(this.#store).markRollbackVerified(contractId, expectedStateVersion, seal, configHistory);
  }

  /** ROLLING_BACK → ROLLBACK_FAILED; the reservation stays held until a signed release. */
  markRollbackFailed(contractId: string, expectedStateVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return coreOf(this.#store).markRollbackFailed(contractId, expectedStateVersion, outcomeClass, configHistory);
  }

  /** ROLLING_BACK → RECONCILIATION; the reservation stays held. */
  markRollbackAmbiguous(contractId: string, expectedStateVersion: number, outcomeClass: string, configHistory?: ConfigHistoryRecord): RecoveryContract {
    return coreOf(this.#store).markRollbackAmbiguous(contractId, expectedStateVersion, outcomeClass, configHistory);
  }

  /**
   * One value-free refusal row in the audit chain (the executor's own refusals before a transition, e.g. a
   * failed config-history capture): same validation as the store's recordRefusal.
   */
  recordRefusal(input: RefusalAuditInput): void {
    this.#store.recordRefusal(input);
  }

  /** Decrypts one protected artifact (AEAD, AAD = contract id + purpose + schema version). Keep the result in the call frame. */
  decryptProtectedArtifact(contractId: string, purpose: ProtectedArtifactPurpose): CanonicalValue {
    return coreOf(this.#store).decryptProtectedArtifact(contractId, purpose);
  }
}
