import type { CanonicalValue } from '@pfsense-mcp/canonical';
import type { AuditChainResult } from './audit-chain.js';
import type { NewContractInput } from './new-contract-input.js';
import type { RefusalAuditInput } from './refusal-audit-input.js';
import type { RecoveryContract } from './recovery-contract.js';
import type { RateWindowsView } from './rate-windows-view.js';
import { StoreCore } from './store-core.js';
import { integrityFailureOf } from './store-integrity-report.js';
import type { StoreIntegrityReport } from './store-integrity-report.js';
import type { AuditEventView, ContractStoreOptions, CreateOptions, IntegrityReport, ListFilter } from './store-core.js';

const cores = new WeakMap<SqliteRecoveryContractStore, StoreCore>();

/** Internal: the executor entry reaches the core of a store it was handed. Not exported from the package. */
export function coreOf(store: SqliteRecoveryContractStore): StoreCore {
  const core = store instanceof SqliteRecoveryContractStore ? cores.get(store) : undefined;
  if (core === undefined) throw new TypeError('executor store: "store" must be a SqliteRecoveryContractStore');
  return core;
}

/** Verification result of the audit chain: ok, or the first sequence whose row does not verify. */
export type AuditVerification = { readonly ok: true } | { readonly ok: false; readonly firstBrokenSequence: number };

/**
 * The durable, authenticated Recovery Contract store (docs/DESIGN.md §3). This public face has no
 * execution transitions and cannot decrypt the intent or snapshot artifacts: those live behind the executor
 * entry (`@pfsense-mcp/contract-store/executor`), which only libs/executor may import. It reveals only the
 * target identity (`revealTargetIdentity`), for the operator.
 *
 * All operations are synchronous; each write is one BEGIN IMMEDIATE transaction followed by the anchor
 * advance. Errors are ContractStoreError subclasses (plus the state machine's IllegalTransitionError).
 */
export class SqliteRecoveryContractStore {
  private constructor(core: StoreCore) {
    cores.set(this, core);
    Object.freeze(this);
  }

  /** Opens (creating on first use) the store; fails closed on unsafe files, unknown schema, bad MACs or a rollback. */
  static async open(options: ContractStoreOptions): Promise<SqliteRecoveryContractStore> {
    return new SqliteRecoveryContractStore(await StoreCore.open(options));
  }

  /**
   * OPERATOR ACTION after restoring a backup (README "Backup and restore"): with the old anchor moved
   * aside (refused while an anchor exists), verifies the whole store and writes a new anchor at its
   * current head. Never called by the server; interrupted work is then reconciled as after any restart.
   */
  static async reanchorRestoredStore(options: ContractStoreOptions): Promise<SqliteRecoveryContractStore> {
    return new SqliteRecoveryContractStore(await StoreCore.open(options, 'reanchor'));
  }

  /**
   * OPERATOR ACTION, the explicit acceptance of a restored store (README "Accepting a restored store"):
   * verifies every row and the whole chain, refuses (PreconditionError RESTORE_WITH_WORK_IN_FLIGHT) while
   * any contract is EXECUTING, ROLLING_BACK or RECONCILIATION, then re-points the anchor at the head —
   * whatever it said (behind, diverged, missing; an anchor failing its MAC is still refused) — recording
   * the acceptance time in it, and expires restored PREPARING/PREPARED contracts (RESTORED_FROM_BACKUP).
   */
  static async acceptRestore(options: ContractStoreOptions): Promise<SqliteRecoveryContractStore> {
    return new SqliteRecoveryContractStore(await StoreCore.open(options, 'accept-restore'));
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
    let core: StoreCore;
    try {
      core = await StoreCore.open(options, 'verify');
    } catch (error) {
      const failure = integrityFailureOf(error);
      if (failure === null) throw error;
      return Object.freeze({ ok: false as const, failure });
    }
    try {
      return core.integrityReport();
    } finally {
      core.close();
    }
  }

  /** The same whole-store check as `verifyIntegrity`, on this open store (read-only). */
  verifyIntegrity(): StoreIntegrityReport {
    return coreOf(this).integrityReport();
  }

  get storeId(): string {
    return coreOf(this).storeId;
  }

  /** The master-key epoch of this store file (1 until the first `rotate master-key`; README "Rotating the master key"). */
  get keyEpoch(): number {
    return coreOf(this).keyEpoch;
  }

  /**
   * New contract in PREPARING (artifacts encrypted, rate PREPARE checkpoint applied). `options.consume`
   * runs inside the creation transaction after every refusal create can make (see CreateOptions).
   */
  create(input: NewContractInput, options?: CreateOptions): RecoveryContract {
    return coreOf(this).create(input, options);
  }

  /** Read-only: throws what `create(input)` would refuse now (duplicates, RateLimitError); writes nothing. */
  precheckCreate(input: NewContractInput): void {
    coreOf(this).precheckCreate(input);
  }

  /** PREPARING → PREPARED (CAS on state_version). */
  markPrepared(contractId: string, expectedStateVersion: number): RecoveryContract {
    return coreOf(this).markPrepared(contractId, expectedStateVersion);
  }

  /** Records a confirmation accepted by the injected ConfirmationVerifier (PREPARED, unexpired, once). */
  confirm(contractId: string, evidence: unknown): RecoveryContract {
    return coreOf(this).confirm(contractId, evidence);
  }

  /** PREPARING/PREPARED contracts past their expiry → EXPIRED. Returns the expired ids. */
  expire(): readonly string[] {
    return coreOf(this).expire();
  }

  /** Leaves RECONCILIATION with a resolution accepted by the injected ReconciliationVerifier. */
  resolveReconciliation(contractId: string, signedResolution: unknown): RecoveryContract {
    return coreOf(this).resolveReconciliation(contractId, signedResolution);
  }

  /** Clears a ROLLBACK_FAILED contract's reservation with a release accepted by the injected verifier. */
  releaseRollbackFailedReservation(contractId: string, signedRelease: unknown): RecoveryContract {
    return coreOf(this).releaseRollbackFailedReservation(contractId, signedRelease);
  }

  /** Authenticates the row before returning anything. */
  load(contractId: string): RecoveryContract {
    return coreOf(this).load(contractId);
  }

  /** Authenticated contracts for status views, ordered by contract id (keyset pagination). */
  list(filter?: ListFilter): readonly RecoveryContract[] {
    return coreOf(this).list(filter);
  }

  /** Value-free audit rows (for status views; their chain is checked by verifyAuditChain). */
  listAuditEvents(filter?: { readonly contractId?: string; readonly afterSequence?: number; readonly limit?: number }): readonly AuditEventView[] {
    return coreOf(this).listAuditEvents(filter);
  }

  /**
   * Appends a value-free refusal row (gate code, STALE / ANOMALY, optional operation id, contract id and
   * artifact digest) to the HMAC-chained audit in its own transaction and advances the anchor (§6).
   */
  recordRefusal(input: RefusalAuditInput): AuditEventView {
    return coreOf(this).recordRefusal(input);
  }

  /**
   * The operator's view of which target a contract is about (`pfsense-mcp admin status --show-targets`): the
   * decrypted target-identity artifact only — never the intent or the snapshot, which hold descriptions.
   * SENSITIVE (it names the target); ProtectedArtifactError PURGED once retention zeroed the artifacts.
   */
  revealTargetIdentity(contractId: string): CanonicalValue {
    return coreOf(this).decryptProtectedArtifact(contractId, 'target-identity');
  }

  /** The rate windows in force now, from the authenticated rate row and the live contract rows (digests, never names). */
  rateWindows(): RateWindowsView {
    return coreOf(this).rateWindows();
  }

  /** True when the contract currently holds its target's reservation. */
  holdsReservation(contractId: string): boolean {
    return coreOf(this).holdsReservation(contractId);
  }

  verifyAuditChain(): AuditVerification {
    const r: AuditChainResult = coreOf(this).verifyAuditChain();
    return r.ok ? Object.freeze({ ok: true as const }) : Object.freeze({ ok: false as const, firstBrokenSequence: r.firstBrokenSequence });
  }

  /** Counts, audit head, anchor and the first failed integrity check (reported, not thrown). */
  integrityReport(): IntegrityReport {
    return coreOf(this).operatorIntegrityReport();
  }

  /** Takes back a PREPARED contract that never began executing (→ EXPIRED, outcome CANCELLED, audited). */
  cancel(contractId: string): RecoveryContract {
    return coreOf(this).cancel(contractId);
  }

  /** A consistent online copy (SQLite backup API) into a new 0600 file (exclusive creation). */
  backupTo(path: string): Promise<void> {
    return coreOf(this).backupTo(path);
  }

  /** Compares the database with the anti-rollback anchor now (and advances it over a valid extension). */
  checkAnchor(): void {
    coreOf(this).checkAnchor();
  }

  /** Retention: purges protected artifacts of terminal contracts older than the retention period. */
  purgeExpiredArtifacts(): readonly string[] {
    return coreOf(this).purgeExpiredArtifacts();
  }

  /** WAL checkpoint (TRUNCATE) + VACUUM: purged bytes leave the files. */
  compact(): void {
    coreOf(this).compact();
  }

  close(): void {
    coreOf(this).close();
  }
}

export type { CanonicalValue };
