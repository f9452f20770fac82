import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { confirm, markPrepared } from '../transitions/confirm-contract.js';
import type { ContractStoreOptions } from './contract-store-options.js';
import { create, precheckCreate } from '../transitions/create-contract.js';
import { cancel, expire } from '../transitions/expire-contracts.js';
import { listAuditEvents } from '../audit/list-audit-events.js';
import { openStore } from './open-store.js';
import { revealTargetIdentity } from '../artifacts/protected-artifacts.js';
import { purgeExpiredArtifacts } from '../artifacts/purge-artifacts.js';
import { list, load } from '../model/read-contracts.js';
import { rateWindows } from '../rate/read-rate-windows.js';
import { recordRefusal } from '../audit/record-refusal.js';
import { releaseRollbackFailedReservation } from '../transitions/release-reservation.js';
import { resolveReconciliation } from '../transitions/resolve-reconciliation.js';
import { checkAnchor } from '../anchor/store-anchor.js';
import { stateOf, storeFace } from './store-face.js';
import { integrityReport, verifyIntegrity } from '../integrity/store-integrity.js';
import { integrityFailureOf } from '../integrity/store-integrity-report.js';
import type { StoreIntegrityReport } from '../integrity/store-integrity-report.js';
import { backupTo, close, compact } from './store-maintenance.js';
import type { StoreState } from './store-state.js';
import { holdsReservation } from '../transitions/target-reservations.js';
import { verifyAuditChain } from '../audit/verify-audit-chain.js';

/** The public store's operations (each documented where it is written). */
const PUBLIC_STORE_OPERATIONS = Object.freeze({
  create,
  precheckCreate,
  markPrepared,
  confirm,
  expire,
  resolveReconciliation,
  releaseRollbackFailedReservation,
  load,
  list,
  listAuditEvents,
  recordRefusal,
  revealTargetIdentity,
  rateWindows,
  holdsReservation,
  verifyAuditChain,
  verifyIntegrity,
  integrityReport,
  cancel,
  backupTo,
  checkAnchor,
  purgeExpiredArtifacts,
  compact,
  close,
});

/**
 * The durable, authenticated Recovery Contract store (docs/DESIGN.md §3). This public face has no
 * execution transitions and cannot decrypt the intent or snapshot artifacts: those live behind the executor
 * entry (`@pfsense-mcp/contract-store/executor`), which only libs/executor may import. It reveals only the
 * target identity (`revealTargetIdentity`), for the operator.
 *
 * All operations are synchronous; each write is one BEGIN IMMEDIATE transaction followed by the anchor
 * advance. Errors are ContractStoreError subclasses (plus the state machine's IllegalTransitionError).
 */
export class SqliteRecoveryContractStore extends storeFace(PUBLIC_STORE_OPERATIONS) {
  private constructor(s: StoreState) {
    super(s);
    Object.freeze(this);
  }

  /** Opens (creating on first use) the store; fails closed on unsafe files, unknown schema, bad MACs or a rollback. */
  static async open(options: ContractStoreOptions): Promise<SqliteRecoveryContractStore> {
    return new SqliteRecoveryContractStore(await openStore(options));
  }

  /**
   * OPERATOR ACTION after restoring a backup (README "Backup and restore"): with the old anchor moved
   * aside (refused while an anchor exists), verifies the whole store and writes a new anchor at its
   * current head. Never called by the server; interrupted work is then reconciled as after any restart.
   */
  static async reanchorRestoredStore(options: ContractStoreOptions): Promise<SqliteRecoveryContractStore> {
    return new SqliteRecoveryContractStore(await openStore(options, 'reanchor'));
  }

  /**
   * OPERATOR ACTION, the explicit acceptance of a restored store (README "Accepting a restored store"):
   * verifies every row and the whole chain, refuses (PreconditionError RESTORE_WITH_WORK_IN_FLIGHT) while
   * any contract is EXECUTING, ROLLING_BACK or RECONCILIATION, then re-points the anchor at the head —
   * whatever it said (behind, diverged, missing; an anchor failing its MAC is still refused) — recording
   * the acceptance time in it, and expires restored PREPARING/PREPARED contracts (RESTORED_FROM_BACKUP).
   */
  static async acceptRestore(options: ContractStoreOptions): Promise<SqliteRecoveryContractStore> {
    return new SqliteRecoveryContractStore(await openStore(options, 'accept-restore'));
  }

  /**
   * OPERATOR CHECK (e.g. `pfsense-mcp admin audit verify`, with the server stopped or running): opens the
   * store without creating, migrating or advancing anything, compares it with its anchor, verifies the
   * whole audit chain and every contract, reservation, protected-artifact and rate row against it, closes
   * it, and returns `{ ok: true, contracts, auditEvents }` or the first failure `{ table, contractId,
   * sequence, kind }` — the same checks that make `open` fail closed. Never a value. Throws only for what
   * is not a verification result: invalid options, unsafe or missing files, an unknown schema, the key.
   */
  static async verifyIntegrity(options: ContractStoreOptions): Promise<StoreIntegrityReport> {
    let s: StoreState;
    try {
      s = await openStore(options, 'verify');
    } catch (error) {
      const failure = integrityFailureOf(error);
      if (failure === null) throw error;
      return Object.freeze({ ok: false as const, failure });
    }
    try {
      return verifyIntegrity(s);
    } finally {
      close(s);
    }
  }

  get storeId(): string {
    return stateOf(this).storeId;
  }

  /** The master-key epoch of this store file (1 until the first `rotate master-key`; README "Rotating the master key"). */
  get keyEpoch(): number {
    return stateOf(this).keyEpoch;
  }
}

export type { CanonicalValue };
