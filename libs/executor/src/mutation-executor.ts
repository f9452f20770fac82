import type { TargetReader } from '@pfsense-mcp/adapters';
import { isHex64, isSafeToken } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { ReconciledContract, RecoveryContract } from '@pfsense-mcp/contract-store';
import { ExecutorContractStore } from '@pfsense-mcp/contract-store/executor';
import type { ExecutorStoreOperations, RollbackAuthorizationUse, VerifiedSeal } from '@pfsense-mcp/contract-store/executor';
import { assertFunction, assertObject, readClock } from '@pfsense-mcp/foundation';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { MutationPolicy, PolicyRefusalError } from '@pfsense-mcp/policy';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { WriteApiClient, appliesFilter } from '@pfsense-mcp/write-client';
import { checkAdapter } from './check-adapter.js';
import type { AnyCapabilityAdapter, CheckedAdapter } from './check-adapter.js';
import { captureConfigHistory, corroborateConfigHistory } from './config-history-capture.js';
import { configHistoryRecordOf } from './config-history.js';
import type { ConfigHistoryEvidence, ConfigRevision } from './config-history.js';
import { bindDescriptors, bindExecution, bindRollback, storedIdentity } from './contract-bindings.js';
import { EffectKnowledge } from './effect-knowledge.js';
import { DEFAULT_FILTER_VERIFICATION_DELAYS_MS, checkVerificationDelays, observePfTable, refuseIfPending } from './filter-apply.js';
import { filterOutcome } from './filter-outcome.js';
import { executionOutcome } from './execution-outcome.js';
import type { ExecutionOutcome, ReconciliationObservation } from './execution-outcome.js';
import { ExecutorRefusalError } from './executor-refusal-error.js';
import type { ExecutorOperation } from './executor-refusal-error.js';
import { isPlainObject } from './is-plain-object.js';
import { refuseOnStoreError } from './refuse-on-store-error.js';
import { sendOnce } from './send-once.js';
import { StepRefusal, preSendClass } from './step-refusal.js';
import { checkedRequest, readCheckedTarget, resolveCheckedTarget, sealOf } from './target-checks.js';

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
  /**
   * The waits between the pf verification reads after a send that applies the filter (default
   * DEFAULT_FILTER_VERIFICATION_DELAYS_MS; at most 30 s in all). Tests shorten it.
   */
  readonly filterVerificationDelaysMs?: readonly number[];
}

/** What execute is handed besides the contract id. */
export interface ExecuteArgs {
  readonly adapter: AnyCapabilityAdapter;
  /** The normalized intent the caller holds (it must digest to the contract's intent_digest). */
  readonly intent: unknown;
}

/** What rollback and observeReconciliationTarget are handed besides the contract id. */
export interface RollbackArgs {
  readonly adapter: AnyCapabilityAdapter;
  /**
   * Rollback only: the operator's verified rollback authorization, required exactly when the contract's capability
   * needs a signed rollback (the store refuses otherwise); consumed inside VERIFIED → ROLLING_BACK, after the
   * pending check and every other refusal, so a refused run never uses it up.
   */
  readonly authorization?: RollbackAuthorizationUse;
}

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
  readonly #filterDelays: readonly number[];
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
    this.#filterDelays = checkVerificationDelays(options.filterVerificationDelaysMs ?? DEFAULT_FILTER_VERIFICATION_DELAYS_MS);
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
    assertObject(args, 'execute: "args"');
    const a = this.#adapter(op, contractId, args.adapter);

    // 1. authoritative contract: PREPARED, confirmed, unexpired.
    const contract = refuseOnStoreError(op, contractId, () => this.#store.load(contractId));
    if (contract.state !== RecoveryState.PREPARED)
      throw new ExecutorRefusalError('WRONG_STATE', op, contractId, { reason: contract.state });
    if (contract.confirmation === null) throw new ExecutorRefusalError('NOT_CONFIRMED', op, contractId);
    const now = this.#now();
    if (contract.expires_at <= now) throw new ExecutorRefusalError('CONTRACT_EXPIRED', op, contractId);
    if (contract.confirmation.expires_at <= now) throw new ExecutorRefusalError('CONFIRMATION_EXPIRED', op, contractId);

    // 2. policy.
    this.#authorize(op, contractId, a);

    // 3. bindings recomputed with the adapter's pure functions (precondition from the protected snapshot).
    const identity = bindExecution(this.#store, op, contract, a, args.intent);

    // 4. config-history capture BEFORE the transition: a failed capture is a plain refusal (nothing consumed,
    // retry works), never a FAILED forward. Then the anchor check and PREPARED → EXECUTING.
    const captured = await captureConfigHistory(this.#readClient, this.#store, op, contract);
    await refuseIfPending(this.#readClient, this.#store, op, contract);
    refuseOnStoreError(op, contractId, () => this.#store.checkAnchor());
    const executing = refuseOnStoreError(op, contractId, () => this.#store.beginExecution(contractId, contract.state_version));

    // From here on every path ends in a transition.
    return this.#runExecution(executing, a, identity, captured);
  }

  /** Steps 5–9 of execute, holding the reservation: every path ends in exactly one transition. */
  async #runExecution(
    executing: RecoveryContract,
    a: CheckedAdapter,
    identity: CanonicalValue,
    captured: readonly ConfigRevision[],
  ): Promise<ExecutionOutcome> {
    const id = executing.contract_id;
    const v = executing.state_version;
    const fail = (cls: string, effect: EffectKnowledge, sends: 0 | 1): ExecutionOutcome =>
      executionOutcome('execute', this.#store.markExecutionFailed(id, v, cls), effect, cls, sends);
    const ambiguous = (cls: string, history: ConfigHistoryEvidence): ExecutionOutcome =>
      executionOutcome(
        'execute',
        this.#store.markExecutionAmbiguous(id, v, cls, configHistoryRecordOf(history)),
        EffectKnowledge.AMBIGUOUS,
        cls,
        1,
        history,
      );

    // 5–6. authoritative re-read, then the request — all before the send; any failure → FAILED, zero sends.
    let pre: unknown;
    let intent: CanonicalValue;
    let request: object;
    try {
      pre = await readCheckedTarget(this.#reader, a, identity, executing, executing.lifecycle_locator);
      if (a.fn.fingerprint(pre) !== executing.target_fingerprint) throw new StepRefusal('TARGET_FINGERPRINT_CHANGED');
      const resolved = resolveCheckedTarget(a, pre, executing, executing.lifecycle_locator);
      intent = this.#store.decryptProtectedArtifact(id, 'intent');
      if (a.fn.intentDigest(intent) !== executing.intent_digest) throw new StepRefusal('ARTIFACT_MISMATCH');
      request = checkedRequest(a, executing, a.fn.buildRequest(intent, resolved));
    } catch (error) {
      return fail(preSendClass(error), EffectKnowledge.PROVEN_NONE, 0);
    }

    // 7. exactly one send; 8. classify.
    const sent = await sendOnce(this.#writeClient, a, executing, request);
    // Step 9's re-read is skipped on purpose here (README "Step 9"): the classification itself proves nothing
    // was applied (not written, or pfSense's own error envelope for this request), and FAILED is the outcome
    // whatever a re-read would show.
    if (sent.knowledge === EffectKnowledge.PROVEN_NONE || sent.knowledge === EffectKnowledge.VERIFIED_FAILURE) {
      return fail(sent.outcomeClass, sent.knowledge, 1);
    }
    if (sent.knowledge !== EffectKnowledge.VERIFIED_SUCCESS)
      return ambiguous(sent.outcomeClass, await corroborateConfigHistory(this.#readClient, captured));

    // 9. re-read: identity and locator must match, the adapter's post-condition must hold.
    let seal: VerifiedSeal;
    let post: unknown;
    try {
      post = await readCheckedTarget(this.#reader, a, identity, executing, executing.lifecycle_locator);
      if (a.fn.isSemanticallyVerified(pre, post, intent) !== true) throw new StepRefusal('NOT_VERIFIED');
      seal = sealOf(a, post);
    } catch (error) {
      return ambiguous(
        error instanceof StepRefusal ? error.outcomeClass : 'POST_READ_FAILED',
        await corroborateConfigHistory(this.#readClient, captured),
      );
    }
    // The history corroborates; it never decides (a verified re-read is the proof, whatever it shows) — except
    // for a write that applies the filter, where pf itself must show the effect (filterOutcome).
    const history = await corroborateConfigHistory(this.#readClient, captured);
    const inPf = await filterOutcome(this.#readClient, a, executing, post, history, this.#filterDelays);
    if (inPf !== null) return ambiguous(inPf, history);
    return executionOutcome(
      'execute',
      this.#store.markExecutionVerified(id, v, seal, configHistoryRecordOf(history)),
      EffectKnowledge.VERIFIED_SUCCESS,
      'VERIFIED_SUCCESS',
      1,
      history,
    );
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
    assertObject(args, 'rollback: "args"');
    const a = this.#adapter(op, contractId, args.adapter);

    const contract = refuseOnStoreError(op, contractId, () => this.#store.load(contractId));
    if (contract.state !== RecoveryState.VERIFIED)
      throw new ExecutorRefusalError('WRONG_STATE', op, contractId, { reason: contract.state });
    if (contract.verified_target_fingerprint === null || contract.verified_lifecycle_locator === null) {
      throw new ExecutorRefusalError('MISSING_VERIFIED_SEAL', op, contractId);
    }
    this.#authorize(op, contractId, a);
    const identity = bindRollback(this.#store, op, contract, a);

    // Captured before ROLLING_BACK: a failed capture must not turn into a terminal ROLLBACK_FAILED.
    const captured = await captureConfigHistory(this.#readClient, this.#store, op, contract);
    await refuseIfPending(this.#readClient, this.#store, op, contract);
    // A signed rollback is checked against the sealed alias before its authorization is consumed (docs/DESIGN.md
    // §5): changed since VERIFIED → refused, nothing consumed or sent. The read after ROLLING_BACK checks again.
    if (args.authorization !== undefined) await this.#refuseIfChangedSinceVerified(op, contract, a, identity);
    refuseOnStoreError(op, contractId, () => this.#store.checkAnchor());
    const rollingBack = refuseOnStoreError(op, contractId, () =>
      this.#store.beginRollback(contractId, contract.state_version, args.authorization),
    );
    return this.#runRollback(rollingBack, a, identity, captured);
  }

  /** Reads the target now; anything but the fingerprint sealed at VERIFIED is an audited refusal (STALE), zero sends. */
  async #refuseIfChangedSinceVerified(
    op: ExecutorOperation,
    contract: RecoveryContract,
    a: CheckedAdapter,
    identity: CanonicalValue,
  ): Promise<void> {
    let code: 'TARGET_CHANGED_SINCE_VERIFIED' | 'TARGET_UNRESOLVED' | null = null;
    try {
      const now = await readCheckedTarget(this.#reader, a, identity, contract, contract.lifecycle_locator);
      if (a.fn.fingerprint(now) !== contract.verified_target_fingerprint) code = 'TARGET_CHANGED_SINCE_VERIFIED';
    } catch {
      code = 'TARGET_UNRESOLVED';
    }
    if (code === null) return;
    try {
      this.#store.recordRefusal({
        gate: code,
        refusalClass: 'STALE',
        operationId: contract.operation_id,
        contractId: contract.contract_id,
      });
    } catch {
      // The refusal stands even if its audit row cannot be written.
    }
    throw new ExecutorRefusalError(code, op, contract.contract_id);
  }

  /** The rollback's re-read, request, one send and verification, holding the reservation: one transition on every path. */
  async #runRollback(
    rollingBack: RecoveryContract,
    a: CheckedAdapter,
    identity: CanonicalValue,
    captured: readonly ConfigRevision[],
  ): Promise<ExecutionOutcome> {
    const id = rollingBack.contract_id;
    const v = rollingBack.state_version;
    const fail = (cls: string, effect: EffectKnowledge, sends: 0 | 1): ExecutionOutcome =>
      executionOutcome('rollback', this.#store.markRollbackFailed(id, v, cls), effect, cls, sends);
    const ambiguous = (cls: string, history: ConfigHistoryEvidence): ExecutionOutcome =>
      executionOutcome(
        'rollback',
        this.#store.markRollbackAmbiguous(id, v, cls, configHistoryRecordOf(history)),
        EffectKnowledge.AMBIGUOUS,
        cls,
        1,
        history,
      );
    const locator = rollingBack.lifecycle_locator;

    let snapshot: CanonicalValue;
    let request: object;
    try {
      const pre = await readCheckedTarget(this.#reader, a, identity, rollingBack, locator);
      // Unrelated changes since VERIFIED are a refusal, never overwritten (docs/DESIGN.md §4, §5).
      if (a.fn.fingerprint(pre) !== rollingBack.verified_target_fingerprint) throw new StepRefusal('TARGET_CHANGED_SINCE_VERIFIED');
      const resolved = resolveCheckedTarget(a, pre, rollingBack, locator);
      snapshot = this.#store.decryptProtectedArtifact(id, 'snapshot');
      if (a.fn.snapshotDigest(snapshot) !== rollingBack.snapshot_digest) throw new StepRefusal('ARTIFACT_MISMATCH');
      request = checkedRequest(a, rollingBack, a.fn.buildRollbackRequest(snapshot, resolved));
    } catch (error) {
      return fail(preSendClass(error), EffectKnowledge.PROVEN_NONE, 0);
    }

    const sent = await sendOnce(this.#writeClient, a, rollingBack, request);
    // As in execute: no re-read after PROVEN_NONE / VERIFIED_FAILURE (README "Step 9").
    if (sent.knowledge === EffectKnowledge.PROVEN_NONE || sent.knowledge === EffectKnowledge.VERIFIED_FAILURE) {
      return fail(sent.outcomeClass, sent.knowledge, 1);
    }
    if (sent.knowledge !== EffectKnowledge.VERIFIED_SUCCESS)
      return ambiguous(sent.outcomeClass, await corroborateConfigHistory(this.#readClient, captured));

    let seal: VerifiedSeal;
    let post: unknown;
    try {
      post = await readCheckedTarget(this.#reader, a, identity, rollingBack, locator);
      if (a.fn.isRollbackVerified(snapshot, post) !== true) throw new StepRefusal('NOT_VERIFIED');
      seal = sealOf(a, post);
    } catch (error) {
      return ambiguous(
        error instanceof StepRefusal ? error.outcomeClass : 'POST_READ_FAILED',
        await corroborateConfigHistory(this.#readClient, captured),
      );
    }
    const history = await corroborateConfigHistory(this.#readClient, captured);
    const inPf = await filterOutcome(this.#readClient, a, rollingBack, post, history, this.#filterDelays);
    if (inPf !== null) return ambiguous(inPf, history);
    return executionOutcome(
      'rollback',
      this.#store.markRollbackVerified(id, v, seal, configHistoryRecordOf(history)),
      EffectKnowledge.VERIFIED_SUCCESS,
      'VERIFIED_SUCCESS',
      1,
      history,
    );
  }

  // ------------------------------------------------------------------ observation

  /**
   * A fresh authoritative read of a RECONCILIATION contract's target, for the owner's signed resolution.
   * Read-only: no send, no transition, no reservation change. Refuses any other state.
   */
  async observeReconciliationTarget(contractId: string, args: RollbackArgs): Promise<ReconciliationObservation> {
    const op: ExecutorOperation = 'observeReconciliationTarget';
    if (!isSafeToken(contractId)) throw new TypeError('observeReconciliationTarget: "contractId" must be a safe token');
    assertObject(args, 'observeReconciliationTarget: "args"');
    const a = this.#adapter(op, contractId, args.adapter);
    const contract = refuseOnStoreError(op, contractId, () => this.#store.load(contractId));
    if (contract.state !== RecoveryState.RECONCILIATION || contract.reconciliation === null) {
      throw new ExecutorRefusalError('WRONG_STATE', op, contractId, { reason: contract.state });
    }
    bindDescriptors(op, contract, a);
    const identity = storedIdentity(this.#store, op, contract, a);
    let target: unknown;
    let fingerprint: unknown;
    let locator: unknown;
    let snapshot: unknown;
    try {
      target = await a.fn.readTarget(this.#reader, identity);
      if (!isPlainObject(target)) throw new StepRefusal('TARGET_UNRESOLVED');
      if (a.fn.identityDigest(a.fn.identityOfTarget(target)) !== contract.target_identity_digest) {
        throw new StepRefusal('TARGET_IDENTITY_CHANGED');
      }
      fingerprint = a.fn.fingerprint(target);
      locator = a.fn.transportLocator(target);
      snapshot = a.fn.snapshotOf(target);
    } catch (error) {
      throw new ExecutorRefusalError('TARGET_UNRESOLVED', op, contractId, { reason: preSendClass(error) });
    }
    if (!isHex64(fingerprint) || typeof locator !== 'number' || !Number.isSafeInteger(locator) || locator < 0) {
      throw new ExecutorRefusalError('TARGET_UNRESOLVED', op, contractId, { reason: 'ADAPTER_REFUSED' });
    }
    const seen = snapshot as { name?: unknown; address?: unknown } | null;
    const entries = Array.isArray(seen?.address) && seen.address.every((e) => typeof e === 'string') ? (seen.address as string[]) : null;
    const observedPfTable =
      appliesFilter(contract.endpoint_symbol) && typeof seen?.name === 'string' && entries !== null
        ? await observePfTable(this.#readClient, seen.name, entries)
        : null;
    return Object.freeze({
      contractId: contract.contract_id,
      operationId: contract.operation_id,
      origin: contract.reconciliation.origin,
      stateVersion: contract.state_version,
      observedFingerprint: fingerprint,
      observedLifecycleLocator: locator,
      observedSnapshot: snapshot,
      locatorMatches: locator === contract.lifecycle_locator,
      matchesPreForwardFingerprint: fingerprint === contract.target_fingerprint,
      matchesVerifiedFingerprint:
        contract.verified_target_fingerprint === null ? null : fingerprint === contract.verified_target_fingerprint,
      // The corroboration recorded with the send that brought it here (kept in the record, so it survives a
      // restart); null when none was recorded (an interrupted send, or a record from before it existed).
      configHistory:
        (contract.reconciliation.origin === 'EXECUTING' ? contract.execution_config_history : contract.rollback_config_history) ?? null,
      observedPfTable,
    });
  }

  // ------------------------------------------------------------------ steps

  #now(): number {
    return readClock(this.#clock, 'MutationExecutor');
  }

  #adapter(op: ExecutorOperation, contractId: string, adapter: unknown): CheckedAdapter {
    const checked = checkAdapter(adapter);
    if (checked === null) throw new ExecutorRefusalError('ADAPTER_INVALID', op, contractId);
    return checked;
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
}
