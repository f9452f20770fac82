import type { TargetReader } from '@pfsense-mcp/adapters';
import { AdapterInputError, TargetResolutionError } from '@pfsense-mcp/adapters';
import { canonicalize, isHex64, isSafeToken } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import {
  AnchorError,
  AuditChainError,
  BindingMismatchError,
  ContractNotFoundError,
  PreconditionError,
  ProtectedArtifactError,
  RateLimitError,
  RecordIntegrityError,
  SqliteRecoveryContractStore,
  StaleStateVersionError,
  StoreRollbackError,
  TargetReservedError,
  verifyBindings,
} from '@pfsense-mcp/contract-store';
import type { ConfigHistoryRecord, ReconciledContract, RecoveryContract } from '@pfsense-mcp/contract-store';
import { ExecutorContractStore } from '@pfsense-mcp/contract-store/executor';
import type { ExecutorStoreOperations, VerifiedSeal } from '@pfsense-mcp/contract-store/executor';
import { assertFunction, assertObject, readClock } from '@pfsense-mcp/foundation';
import { PfrestResponseError, RestApiClient } from '@pfsense-mcp/pfsense-read';
import { MutationPolicy, PolicyRefusalError } from '@pfsense-mcp/policy';
import { IllegalTransitionError, RecoveryState } from '@pfsense-mcp/state-machine';
import {
  ResponseTooLargeError,
  TransportConnectionError,
  TransportError,
  TransportTimeoutError,
  WriteApiClient,
  isWriteRequestFor,
} from '@pfsense-mcp/write-client';
import { checkAdapter } from './check-adapter.js';
import type { AnyCapabilityAdapter, CheckedAdapter } from './check-adapter.js';
import { classifySendError } from './classify-send-error.js';
import { classifySendResponse } from './classify-send-response.js';
import { EffectKnowledge } from './effect-knowledge.js';
import type { ExecutionOutcome, ReconciliationObservation } from './execution-outcome.js';
import { ExecutorRefusalError } from './executor-refusal-error.js';
import type { ExecutorOperation, ExecutorRefusalCode } from './executor-refusal-error.js';
import { classified } from './send-classification.js';
import {
  ConfigHistoryReadError,
  classifyConfigHistory,
  configHistoryRecordOf,
  readConfigHistory,
  unreadableHistoryEvidence,
} from './config-history.js';
import type { ConfigHistoryEvidence, ConfigRevision } from './config-history.js';
import type { SendClassification } from './send-classification.js';

/** Everything the executor is built from. Only composition roots construct these and hand them over. */
export interface MutationExecutorOptions {
  /**
   * The contract store. Composition roots pass the opened store; the executor takes its executor-only entry
   * itself (docs/DESIGN.md §2: only libs/executor may import it), so no other module ever holds the execution
   * transitions or the artifact decryption.
   */
  readonly store: SqliteRecoveryContractStore | ExecutorContractStore;
  /** The product's only non-GET path. */
  readonly writeClient: WriteApiClient;
  /** The GET-only client for the authoritative reads. */
  readonly readClient: RestApiClient;
  readonly policy: MutationPolicy;
  /** Injected wall clock, UTC milliseconds (the same clock the store uses). */
  readonly clock: () => number;
}

export interface ExecuteArgs {
  readonly adapter: AnyCapabilityAdapter;
  /** The normalized intent the caller holds (it must digest to the contract's intent_digest). */
  readonly intent: unknown;
}

export interface RollbackArgs {
  readonly adapter: AnyCapabilityAdapter;
}

const OUTCOME_CLASS = /^[A-Z][A-Z0-9_]{0,63}$/;

/** A refusal after the reservation, before the send: carries the value-free outcome class only. */
class StepRefusal extends Error {
  override readonly name = 'StepRefusal';
  constructor(readonly outcomeClass: string) {
    super(outcomeClass);
  }
}

function safeCode(error: unknown): string | null {
  const code = error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && OUTCOME_CLASS.test(code) ? code : null;
}

/** Maps a store error thrown before or while acquiring the reservation to a refusal code. */
function storeRefusalCode(error: unknown): ExecutorRefusalCode {
  if (error instanceof IllegalTransitionError) return 'WRONG_STATE';
  if (error instanceof ContractNotFoundError) return 'CONTRACT_NOT_FOUND';
  if (error instanceof TargetReservedError) return 'TARGET_RESERVED';
  if (error instanceof StaleStateVersionError) return 'STALE_STATE';
  if (error instanceof RateLimitError) return 'RATE_LIMITED';
  if (error instanceof StoreRollbackError || error instanceof AnchorError || error instanceof AuditChainError) return 'ANCHOR_REFUSED';
  if (error instanceof RecordIntegrityError) return 'STORE_INTEGRITY';
  if (error instanceof ProtectedArtifactError) return 'ARTIFACT_UNAVAILABLE';
  if (error instanceof BindingMismatchError) return 'BINDING_MISMATCH';
  if (error instanceof PreconditionError) {
    const code = safeCode(error);
    if (code === 'NOT_CONFIRMED' || code === 'CONTRACT_EXPIRED' || code === 'CONFIRMATION_EXPIRED' || code === 'WRONG_STATE') return code;
    return 'WRONG_STATE';
  }
  return 'STORE_FAILURE';
}

/**
 * A failed read of the appliance: pfrest's error envelope or one of the transport failures a read can meet. A
 * TransportError of its own class counts, but not its configuration and invalid-request subclasses (a caller
 * bug, not a read that failed), hence the exact prototype check rather than `instanceof TransportError`.
 */
function isReadFailure(error: unknown): boolean {
  return (
    error instanceof PfrestResponseError ||
    error instanceof TransportTimeoutError ||
    error instanceof TransportConnectionError ||
    error instanceof ResponseTooLargeError ||
    (error instanceof TransportError && Object.getPrototypeOf(error) === TransportError.prototype)
  );
}

/** The outcome class of a failure while resolving or checking the target before the send. */
function preSendClass(error: unknown): string {
  if (error instanceof StepRefusal) return error.outcomeClass;
  if (error instanceof TargetResolutionError) {
    if (error.code === 'NOT_FOUND') return 'TARGET_NOT_FOUND';
    if (error.code === 'DUPLICATE') return 'TARGET_DUPLICATE';
    return 'TARGET_UNRESOLVED';
  }
  if (isReadFailure(error)) return 'TARGET_READ_FAILED';
  if (error instanceof ProtectedArtifactError || error instanceof RecordIntegrityError) return 'ARTIFACT_UNAVAILABLE';
  if (error instanceof AdapterInputError) return 'ADAPTER_REFUSED';
  return 'PRECONDITION_FAILED';
}

function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function outcome(
  operation: 'execute' | 'rollback',
  contract: RecoveryContract,
  effect: EffectKnowledge,
  outcomeClass: string,
  sends: 0 | 1,
  configHistory: ConfigHistoryEvidence | null = null,
): ExecutionOutcome {
  return Object.freeze({
    operation,
    contractId: contract.contract_id,
    state: contract.state,
    stateVersion: contract.state_version,
    effect,
    outcomeClass,
    sends,
    configHistory,
  });
}

/** The record the store keeps with the transition (and whose digest is the audit row's evidence digest). */
const recordOf = (e: ConfigHistoryEvidence): ConfigHistoryRecord => configHistoryRecordOf(e);

/**
 * The only store methods the executor may reach (docs/DESIGN.md §4): reads, the anchor check, restart
 * reconciliation, its own transitions and artifact decryption. Narrowed on purpose: not `create`,
 * `confirm` or `resolveReconciliation`, and the entry exposes no way to the full store
 * (test/sealed-source.test.ts also scans src/ for those calls).
 */
type ExecutorStoreView = ExecutorStoreOperations;

/**
 * The sealed executor (docs/DESIGN.md §4): the only holder of a WriteApiClient. It accepts a
 * contract id, never a contract object, and decides every security-relevant step itself; the adapter only
 * computes. Decrypted artifacts live in local variables of one call and are never stored on the instance.
 *
 * Refusals before the target reservation throw ExecutorRefusalError (no transition, zero sends). Once the
 * reservation is held, every path ends in exactly one store transition (so it is audited) and the call
 * returns an ExecutionOutcome; it throws only if that final store write itself fails, in which case the
 * contract stays EXECUTING / ROLLING_BACK with this process as owner and the next executor constructed
 * after this process ends moves it to RECONCILIATION (reconcileInterrupted). The executor never calls
 * create, confirm or resolveReconciliation, and never sends twice.
 */
export class MutationExecutor {
  readonly #store: ExecutorStoreView;
  readonly #writeClient: WriteApiClient;
  readonly #reader: TargetReader;
  readonly #readClient: RestApiClient;
  readonly #policy: MutationPolicy;
  readonly #clock: () => number;
  readonly #reconciledAtStart: readonly ReconciledContract[];

  constructor(options: MutationExecutorOptions) {
    const fn = 'MutationExecutor';
    assertObject(options, `${fn}: "options"`);
    if (!(options.store instanceof ExecutorContractStore) && !(options.store instanceof SqliteRecoveryContractStore)) {
      throw new TypeError(`${fn}: "store" must be a SqliteRecoveryContractStore`);
    }
    if (!(options.writeClient instanceof WriteApiClient)) throw new TypeError(`${fn}: "writeClient" must be a WriteApiClient`);
    if (!(options.readClient instanceof RestApiClient)) throw new TypeError(`${fn}: "readClient" must be a RestApiClient`);
    if (!(options.policy instanceof MutationPolicy)) throw new TypeError(`${fn}: "policy" must be a MutationPolicy`);
    assertFunction(options.clock, `${fn}: "clock"`, 'a function returning UTC milliseconds');
    const readClient = options.readClient;
    const entry = options.store instanceof ExecutorContractStore ? options.store : ExecutorContractStore.of(options.store);
    this.#store = entry;
    this.#writeClient = options.writeClient;
    this.#readClient = readClient;
    // Adapters get a facade with readAllPages only (docs/DESIGN.md §2: readTarget may call nothing else).
    this.#reader = Object.freeze({ readAllPages: (path: string) => readClient.readAllPages(path) });
    this.#policy = options.policy;
    this.#clock = options.clock;
    // A restarted process never serves a call against an unreconciled store (docs/DESIGN.md §3 "Owners and restart").
    this.#reconciledAtStart = this.#store.reconcileInterrupted();
    Object.freeze(this);
  }

  /** Contracts that `reconcileInterrupted()` moved to RECONCILIATION when this executor was constructed. */
  get reconciledAtStart(): readonly ReconciledContract[] {
    return this.#reconciledAtStart;
  }

  // ------------------------------------------------------------------ execute

  /**
   * PREPARED → EXECUTING → VERIFIED | FAILED | RECONCILIATION with at most one send (docs/DESIGN.md §4).
   * Throws ExecutorRefusalError before the reservation; resolves to the outcome after it.
   */
  async execute(contractId: string, args: ExecuteArgs): Promise<ExecutionOutcome> {
    const op: ExecutorOperation = 'execute';
    if (!isSafeToken(contractId)) throw new TypeError('execute: "contractId" must be a safe token');
    if (args === null || typeof args !== 'object') throw new TypeError('execute: "args" must be {adapter, intent}');
    const a = this.#adapter(op, contractId, args.adapter);

    // 1. authoritative contract: PREPARED, confirmed, unexpired.
    const contract = this.#refuseOnError(op, contractId, () => this.#store.load(contractId));
    if (contract.state !== RecoveryState.PREPARED) throw new ExecutorRefusalError('WRONG_STATE', op, contractId, { reason: contract.state });
    if (contract.confirmation === null) throw new ExecutorRefusalError('NOT_CONFIRMED', op, contractId);
    const now = this.#now();
    if (contract.expires_at <= now) throw new ExecutorRefusalError('CONTRACT_EXPIRED', op, contractId);
    if (contract.confirmation.expires_at <= now) throw new ExecutorRefusalError('CONFIRMATION_EXPIRED', op, contractId);

    // 2. policy.
    this.#authorize(op, contractId, a);

    // 3. bindings recomputed with the adapter's pure functions (precondition from the protected snapshot).
    const identity = this.#bindExecution(op, contract, a, args.intent);

    // 4. config-history capture BEFORE the transition: a failed capture is a plain refusal (nothing consumed,
    // retry works), never a FAILED forward. Then the anchor check and PREPARED → EXECUTING.
    const captured = await this.#captureHistory(op, contract);
    this.#refuseOnError(op, contractId, () => this.#store.checkAnchor());
    const executing = this.#refuseOnError(op, contractId, () => this.#store.beginExecution(contractId, contract.state_version));

    // From here on every path ends in a transition.
    return this.#runExecution(executing, a, identity, captured);
  }

  async #runExecution(
    executing: RecoveryContract,
    a: CheckedAdapter,
    identity: CanonicalValue,
    captured: readonly ConfigRevision[],
  ): Promise<ExecutionOutcome> {
    const id = executing.contract_id;
    const v = executing.state_version;
    const fail = (cls: string, effect: EffectKnowledge, sends: 0 | 1): ExecutionOutcome =>
      outcome('execute', this.#store.markExecutionFailed(id, v, cls), effect, cls, sends);
    const ambiguous = (cls: string, history: ConfigHistoryEvidence): ExecutionOutcome =>
      outcome('execute', this.#store.markExecutionAmbiguous(id, v, cls, recordOf(history)), EffectKnowledge.AMBIGUOUS, cls, 1, history);

    // 5–6. authoritative re-read, then the request — all before the send; any failure → FAILED, zero sends.
    let pre: unknown;
    let intent: CanonicalValue;
    let request: object;
    try {
      pre = await this.#readChecked(a, identity, executing, executing.lifecycle_locator);
      if (a.fn.fingerprint(pre) !== executing.target_fingerprint) throw new StepRefusal('TARGET_FINGERPRINT_CHANGED');
      const resolved = this.#resolve(a, pre, executing, executing.lifecycle_locator);
      intent = this.#store.decryptProtectedArtifact(id, 'intent');
      if (a.fn.intentDigest(intent) !== executing.intent_digest) throw new StepRefusal('ARTIFACT_MISMATCH');
      request = this.#checkedRequest(a, executing, a.fn.buildRequest(intent, resolved));
    } catch (error) {
      return fail(preSendClass(error), EffectKnowledge.PROVEN_NONE, 0);
    }

    // 7. exactly one send; 8. classify.
    const sent = await this.#sendOnce(a, executing, request);
    // Step 9's re-read is skipped on purpose here (README "Step 9"): the classification itself proves nothing
    // was applied (not written, or pfSense's own error envelope for this request), and FAILED is the outcome
    // whatever a re-read would show.
    if (sent.knowledge === EffectKnowledge.PROVEN_NONE || sent.knowledge === EffectKnowledge.VERIFIED_FAILURE) {
      return fail(sent.outcomeClass, sent.knowledge, 1);
    }
    if (sent.knowledge !== EffectKnowledge.VERIFIED_SUCCESS) return ambiguous(sent.outcomeClass, await this.#corroborate(captured));

    // 9. re-read: identity and locator must match, the adapter's post-condition must hold.
    let seal: VerifiedSeal;
    try {
      const post = await this.#readChecked(a, identity, executing, executing.lifecycle_locator);
      if (a.fn.isSemanticallyVerified(pre, post, intent) !== true) throw new StepRefusal('NOT_VERIFIED');
      seal = this.#seal(a, post);
    } catch (error) {
      return ambiguous(error instanceof StepRefusal ? error.outcomeClass : 'POST_READ_FAILED', await this.#corroborate(captured));
    }
    // The history corroborates; it never decides (a verified re-read is the proof, whatever it shows).
    const history = await this.#corroborate(captured);
    return outcome('execute', this.#store.markExecutionVerified(id, v, seal, recordOf(history)), EffectKnowledge.VERIFIED_SUCCESS, 'VERIFIED_SUCCESS', 1, history);
  }

  // ------------------------------------------------------------------ rollback

  /**
   * VERIFIED → ROLLING_BACK → ROLLED_BACK | ROLLBACK_FAILED | RECONCILIATION with at most one send. Same
   * checks as execute (policy, bindings, anchor, identity and locator on both reads); the pre-read must equal
   * the sealed post-forward fingerprint, else ROLLBACK_FAILED with zero sends (never a forced overwrite).
   */
  async rollback(contractId: string, args: RollbackArgs): Promise<ExecutionOutcome> {
    const op: ExecutorOperation = 'rollback';
    if (!isSafeToken(contractId)) throw new TypeError('rollback: "contractId" must be a safe token');
    if (args === null || typeof args !== 'object') throw new TypeError('rollback: "args" must be {adapter}');
    const a = this.#adapter(op, contractId, args.adapter);

    const contract = this.#refuseOnError(op, contractId, () => this.#store.load(contractId));
    if (contract.state !== RecoveryState.VERIFIED) throw new ExecutorRefusalError('WRONG_STATE', op, contractId, { reason: contract.state });
    if (contract.verified_target_fingerprint === null || contract.verified_lifecycle_locator === null) {
      throw new ExecutorRefusalError('MISSING_VERIFIED_SEAL', op, contractId);
    }
    this.#authorize(op, contractId, a);
    const identity = this.#bindRollback(op, contract, a);

    // Captured before ROLLING_BACK: a failed capture must not turn into a terminal ROLLBACK_FAILED.
    const captured = await this.#captureHistory(op, contract);
    this.#refuseOnError(op, contractId, () => this.#store.checkAnchor());
    const rollingBack = this.#refuseOnError(op, contractId, () => this.#store.beginRollback(contractId, contract.state_version));
    return this.#runRollback(rollingBack, a, identity, captured);
  }

  async #runRollback(
    rollingBack: RecoveryContract,
    a: CheckedAdapter,
    identity: CanonicalValue,
    captured: readonly ConfigRevision[],
  ): Promise<ExecutionOutcome> {
    const id = rollingBack.contract_id;
    const v = rollingBack.state_version;
    const fail = (cls: string, effect: EffectKnowledge, sends: 0 | 1): ExecutionOutcome =>
      outcome('rollback', this.#store.markRollbackFailed(id, v, cls), effect, cls, sends);
    const ambiguous = (cls: string, history: ConfigHistoryEvidence): ExecutionOutcome =>
      outcome('rollback', this.#store.markRollbackAmbiguous(id, v, cls, recordOf(history)), EffectKnowledge.AMBIGUOUS, cls, 1, history);
    const locator = rollingBack.lifecycle_locator;

    let snapshot: CanonicalValue;
    let request: object;
    try {
      const pre = await this.#readChecked(a, identity, rollingBack, locator);
      // Unrelated changes since VERIFIED are a refusal, never overwritten (docs/DESIGN.md §4, §5).
      if (a.fn.fingerprint(pre) !== rollingBack.verified_target_fingerprint) throw new StepRefusal('TARGET_CHANGED_SINCE_VERIFIED');
      const resolved = this.#resolve(a, pre, rollingBack, locator);
      snapshot = this.#store.decryptProtectedArtifact(id, 'snapshot');
      if (a.fn.snapshotDigest(snapshot) !== rollingBack.snapshot_digest) throw new StepRefusal('ARTIFACT_MISMATCH');
      request = this.#checkedRequest(a, rollingBack, a.fn.buildRollbackRequest(snapshot, resolved));
    } catch (error) {
      return fail(preSendClass(error), EffectKnowledge.PROVEN_NONE, 0);
    }

    const sent = await this.#sendOnce(a, rollingBack, request);
    // As in execute: no re-read after PROVEN_NONE / VERIFIED_FAILURE (README "Step 9").
    if (sent.knowledge === EffectKnowledge.PROVEN_NONE || sent.knowledge === EffectKnowledge.VERIFIED_FAILURE) {
      return fail(sent.outcomeClass, sent.knowledge, 1);
    }
    if (sent.knowledge !== EffectKnowledge.VERIFIED_SUCCESS) return ambiguous(sent.outcomeClass, await this.#corroborate(captured));

    let seal: VerifiedSeal;
    try {
      const post = await this.#readChecked(a, identity, rollingBack, locator);
      if (a.fn.isRollbackVerified(snapshot, post) !== true) throw new StepRefusal('NOT_VERIFIED');
      seal = this.#seal(a, post);
    } catch (error) {
      return ambiguous(error instanceof StepRefusal ? error.outcomeClass : 'POST_READ_FAILED', await this.#corroborate(captured));
    }
    const history = await this.#corroborate(captured);
    return outcome('rollback', this.#store.markRollbackVerified(id, v, seal, recordOf(history)), EffectKnowledge.VERIFIED_SUCCESS, 'VERIFIED_SUCCESS', 1, history);
  }

  // ------------------------------------------------------------------ observation

  /**
   * A fresh authoritative read of a RECONCILIATION contract's target, for the owner's signed resolution.
   * Read-only: no send, no transition, no reservation change. Refuses any other state.
   */
  async observeReconciliationTarget(contractId: string, args: RollbackArgs): Promise<ReconciliationObservation> {
    const op: ExecutorOperation = 'observeReconciliationTarget';
    if (!isSafeToken(contractId)) throw new TypeError('observeReconciliationTarget: "contractId" must be a safe token');
    if (args === null || typeof args !== 'object') throw new TypeError('observeReconciliationTarget: "args" must be {adapter}');
    const a = this.#adapter(op, contractId, args.adapter);
    const contract = this.#refuseOnError(op, contractId, () => this.#store.load(contractId));
    if (contract.state !== RecoveryState.RECONCILIATION || contract.reconciliation === null) {
      throw new ExecutorRefusalError('WRONG_STATE', op, contractId, { reason: contract.state });
    }
    this.#bindDescriptors(op, contract, a);
    const identity = this.#storedIdentity(op, contract, a);
    let target: unknown;
    let fingerprint: unknown;
    let locator: unknown;
    try {
      target = await a.fn.readTarget(this.#reader, identity);
      if (!isPlainObject(target)) throw new StepRefusal('TARGET_UNRESOLVED');
      if (a.fn.identityDigest(a.fn.identityOfTarget(target)) !== contract.target_identity_digest) {
        throw new StepRefusal('TARGET_IDENTITY_CHANGED');
      }
      fingerprint = a.fn.fingerprint(target);
      locator = a.fn.transportLocator(target);
    } catch (error) {
      throw new ExecutorRefusalError('TARGET_UNRESOLVED', op, contractId, { reason: preSendClass(error) });
    }
    if (!isHex64(fingerprint) || typeof locator !== 'number' || !Number.isSafeInteger(locator) || locator < 0) {
      throw new ExecutorRefusalError('TARGET_UNRESOLVED', op, contractId, { reason: 'ADAPTER_REFUSED' });
    }
    return Object.freeze({
      contractId: contract.contract_id,
      operationId: contract.operation_id,
      origin: contract.reconciliation.origin,
      stateVersion: contract.state_version,
      observedFingerprint: fingerprint,
      observedLifecycleLocator: locator,
      locatorMatches: locator === contract.lifecycle_locator,
      matchesPreForwardFingerprint: fingerprint === contract.target_fingerprint,
      matchesVerifiedFingerprint: contract.verified_target_fingerprint === null ? null : fingerprint === contract.verified_target_fingerprint,
      // The corroboration recorded with the send that brought it here (kept in the record, so it survives a
      // restart); null when none was recorded (an interrupted send, or a record from before it existed).
      configHistory:
        (contract.reconciliation.origin === 'EXECUTING' ? contract.execution_config_history : contract.rollback_config_history) ?? null,
    });
  }

  // ------------------------------------------------------------------ steps

  /**
   * The config-history capture, before any transition. A failed or malformed read is a refusal: audited as
   * CONFIG_HISTORY_<class> (value-free), nothing consumed, the same contract can be run again later.
   */
  async #captureHistory(op: ExecutorOperation, contract: RecoveryContract): Promise<readonly ConfigRevision[]> {
    try {
      return await readConfigHistory(this.#readClient);
    } catch (error) {
      const failureClass = error instanceof ConfigHistoryReadError ? error.failureClass : 'READ_FAILED';
      try {
        this.#store.recordRefusal({
          gate: `CONFIG_HISTORY_${failureClass}`,
          refusalClass: 'ANOMALY',
          operationId: contract.operation_id,
          contractId: contract.contract_id,
        });
      } catch {
        // The refusal stands even if its audit row cannot be written (the store refuses the same way next time).
      }
      throw new ExecutorRefusalError('CONFIG_HISTORY_UNAVAILABLE', op, contract.contract_id, { reason: failureClass });
    }
  }

  /** The read after the send, classified against the capture. A failed read is UNKNOWN evidence, never an error. */
  async #corroborate(captured: readonly ConfigRevision[]): Promise<ConfigHistoryEvidence> {
    try {
      return classifyConfigHistory(captured, await readConfigHistory(this.#readClient));
    } catch {
      return unreadableHistoryEvidence(captured);
    }
  }

  #now(): number {
    return readClock(this.#clock, 'MutationExecutor');
  }

  #adapter(op: ExecutorOperation, contractId: string, adapter: unknown): CheckedAdapter {
    const checked = checkAdapter(adapter);
    if (checked === null) throw new ExecutorRefusalError('ADAPTER_INVALID', op, contractId);
    return checked;
  }

  #refuseOnError<T>(op: ExecutorOperation, contractId: string, body: () => T): T {
    try {
      return body();
    } catch (error) {
      if (error instanceof ExecutorRefusalError) throw error;
      const code = storeRefusalCode(error);
      const field = code === 'BINDING_MISMATCH' ? ((error as { field?: string }).field ?? null) : null;
      throw new ExecutorRefusalError(code, op, contractId, { field, reason: safeCode(error) });
    }
  }

  #authorize(op: ExecutorOperation, contractId: string, a: CheckedAdapter): void {
    try {
      this.#policy.authorize(a.capability, a.endpointSymbol, a.httpMethod);
    } catch (error) {
      throw new ExecutorRefusalError('POLICY_REFUSED', op, contractId, {
        reason: error instanceof PolicyRefusalError ? error.code : 'INVALID_TRIPLE',
      });
    }
  }

  /** The adapter's static descriptors must be the contract's (capability, endpoint, method, rollback plan). */
  #bindDescriptors(op: ExecutorOperation, contract: RecoveryContract, a: CheckedAdapter): void {
    const pairs: readonly (readonly [string, string, string])[] = [
      ['capability', contract.capability, a.capability],
      ['endpoint_symbol', contract.endpoint_symbol, a.endpointSymbol],
      ['http_method', contract.http_method, a.httpMethod],
      ['rollback_plan_version', contract.rollback_plan_version, a.rollbackPlanVersion],
    ];
    for (const [field, want, got] of pairs) {
      if (want !== got) throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field });
    }
  }

  /** The decrypted target identity, checked against the contract's identity digest. Stays in the caller's frame. */
  #storedIdentity(op: ExecutorOperation, contract: RecoveryContract, a: CheckedAdapter): CanonicalValue {
    const identity = this.#refuseOnError(op, contract.contract_id, () => this.#store.decryptProtectedArtifact(contract.contract_id, 'target-identity'));
    let digest: unknown;
    try {
      digest = a.fn.identityDigest(identity);
    } catch {
      throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field: 'target_identity' });
    }
    if (digest !== contract.target_identity_digest) {
      throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field: 'target_identity' });
    }
    return identity;
  }

  /**
   * Step 3: identity from the caller's intent.raw_target_hint, its intent digest, and the precondition
   * fingerprint recomputed from the contract's protected snapshot, all compared with verifyBindings. Returns
   * the stored target identity (equal in digest to the caller's) for the reads.
   */
  #bindExecution(op: ExecutorOperation, contract: RecoveryContract, a: CheckedAdapter, intent: unknown): CanonicalValue {
    const id = contract.contract_id;
    let identityDigest: unknown;
    let intentDigest: unknown;
    try {
      if (!isPlainObject(intent) || !Object.prototype.hasOwnProperty.call(intent, 'raw_target_hint')) throw new TypeError('intent');
      const hint = (intent as { raw_target_hint: unknown }).raw_target_hint;
      identityDigest = a.fn.identityDigest(a.fn.naturalIdentity(hint));
      intentDigest = a.fn.intentDigest(intent);
    } catch (error) {
      throw new ExecutorRefusalError('INTENT_INVALID', op, id, { reason: safeCode(error) });
    }
    let precondition: unknown;
    let snapshotDigest: unknown;
    {
      const snapshot = this.#refuseOnError(op, id, () => this.#store.decryptProtectedArtifact(id, 'snapshot'));
      try {
        precondition = a.fn.fingerprint(snapshot);
        snapshotDigest = a.fn.snapshotDigest(snapshot);
      } catch {
        throw new ExecutorRefusalError('BINDING_MISMATCH', op, id, { field: 'snapshot' });
      }
    }
    if (typeof identityDigest !== 'string' || typeof intentDigest !== 'string' || typeof precondition !== 'string') {
      throw new ExecutorRefusalError('ADAPTER_INVALID', op, id);
    }
    this.#refuseOnError(op, id, () =>
      verifyBindings(contract, {
        capability: a.capability,
        endpoint_symbol: a.endpointSymbol,
        http_method: a.httpMethod,
        target_identity_digest: identityDigest as string,
        target_fingerprint: precondition as string,
        intent_digest: intentDigest as string,
      }),
    );
    if (snapshotDigest !== contract.snapshot_digest) throw new ExecutorRefusalError('BINDING_MISMATCH', op, id, { field: 'snapshot_digest' });
    this.#bindDescriptors(op, contract, a);
    return this.#storedIdentity(op, contract, a);
  }

  #bindRollback(op: ExecutorOperation, contract: RecoveryContract, a: CheckedAdapter): CanonicalValue {
    this.#bindDescriptors(op, contract, a);
    if (contract.verified_lifecycle_locator !== contract.lifecycle_locator) {
      throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field: 'verified_lifecycle_locator' });
    }
    return this.#storedIdentity(op, contract, a);
  }

  /**
   * One authoritative read through the adapter (exactly one match, or it throws), then the executor's own
   * checks: a single plain target object, the contract's identity, the expected locator.
   */
  async #readChecked(a: CheckedAdapter, identity: CanonicalValue, contract: RecoveryContract, locator: number): Promise<unknown> {
    const target: unknown = await a.fn.readTarget(this.#reader, identity);
    // One target per call (docs/DESIGN.md §4): an array, a wrapper or anything but one plain object is refused.
    if (!isPlainObject(target)) throw new StepRefusal('TARGET_UNRESOLVED');
    if (a.fn.identityDigest(a.fn.identityOfTarget(target)) !== contract.target_identity_digest) {
      throw new StepRefusal('TARGET_IDENTITY_CHANGED');
    }
    if (a.fn.transportLocator(target) !== locator) throw new StepRefusal('TARGET_LOCATOR_CHANGED');
    return target;
  }

  /** The frozen transport projection, re-checked against identity and locator. */
  #resolve(a: CheckedAdapter, target: unknown, contract: RecoveryContract, locator: number): unknown {
    const resolved: unknown = a.fn.resolveTransportTarget(target);
    if (!isPlainObject(resolved) || !Object.isFrozen(resolved)) throw new StepRefusal('REQUEST_REFUSED');
    const r = resolved as { identity?: unknown; locator?: unknown };
    if (r.locator !== locator) throw new StepRefusal('TARGET_LOCATOR_CHANGED');
    if (a.fn.identityDigest(r.identity) !== contract.target_identity_digest) throw new StepRefusal('TARGET_IDENTITY_CHANGED');
    return resolved;
  }

  /**
   * Step 6 run-time check: the request is one frozen plain object that the adapter recognizes as its own
   * closed model, that has exactly the endpoint's own closed key set (the write client's `isWriteRequestFor`,
   * not the adapter's word: an adapter whose isRequestModel says yes to anything cannot add a key), and that
   * encodes as canonical JSON. Anything else (a look-alike literal, an extra key, an array of two requests, a
   * class instance) is refused before the send.
   */
  #checkedRequest(a: CheckedAdapter, contract: RecoveryContract, request: unknown): object {
    if (!isPlainObject(request) || !Object.isFrozen(request)) throw new StepRefusal('REQUEST_REFUSED');
    if (!isWriteRequestFor(contract.endpoint_symbol, request)) throw new StepRefusal('REQUEST_REFUSED');
    if (a.fn.isRequestModel(request) !== true) throw new StepRefusal('REQUEST_REFUSED');
    try {
      canonicalize(request);
    } catch {
      throw new StepRefusal('REQUEST_REFUSED');
    }
    return request;
  }

  /** The one send, to the contract's own (endpoint, method). Never retried, whatever happens. */
  async #sendOnce(a: CheckedAdapter, contract: RecoveryContract, request: object): Promise<SendClassification> {
    let response: unknown;
    try {
      response = await this.#writeClient.send(contract.endpoint_symbol, contract.http_method, request);
    } catch (error) {
      return classifySendError(error);
    }
    try {
      return classifySendResponse(response, (view) => {
        const parsed: unknown = a.fn.parseResponse(view, request);
        return parsed !== null && typeof parsed === 'object' && (parsed as { accepted?: unknown }).accepted === true;
      });
    } catch {
      return classified(EffectKnowledge.AMBIGUOUS, 'UNKNOWN_RESPONSE');
    }
  }

  /** The verified seal of a post-read: the adapter's fingerprint digest and the locator, both validated. */
  #seal(a: CheckedAdapter, post: unknown): VerifiedSeal {
    const fingerprint: unknown = a.fn.fingerprint(post);
    const locator: unknown = a.fn.transportLocator(post);
    if (!isHex64(fingerprint) || typeof locator !== 'number' || !Number.isSafeInteger(locator)) throw new StepRefusal('NOT_VERIFIED');
    return { verifiedTargetFingerprint: fingerprint, verifiedLifecycleLocator: locator };
  }
}
