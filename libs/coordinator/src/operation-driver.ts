import { TargetResolutionError } from '@pfsense-mcp/adapters';
import { ArtifactKind, applianceBindingDigest, planDigestOf } from '@pfsense-mcp/authorization';
import type { WriteReview, ApplianceBinding, Artifact, PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import type { RecoveryContract, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { ReconciliationObservation } from '@pfsense-mcp/executor';
import { readClock, assertObject } from '@pfsense-mcp/foundation';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { ArtifactDirectory } from './artifact-directory.js';
import type { CapabilityRegistry } from './capability-registry.js';
import type { WriteCapability } from './capability-registry.js';
import { changeResult, refusedUntil } from './change-result.js';
import type { ChangeResult } from './change-result.js';
import { checkChangeInput } from './check-change-input.js';
import { CoordinatorInputError } from './coordinator-input-error.js';
import { CoordinatorRefusalError } from './coordinator-refusal-error.js';
import { contractExecutionIntent } from './execution-intent.js';
import { Gatekeeper } from './gatekeeper.js';
import { checkDriverOptions } from './operation-driver-options.js';
import type { OperationDriverOptions } from './operation-driver-options.js';

import { InboxIndex } from './inbox-index.js';
import type { InboxEntry } from './inbox-index.js';
import type { InboxWant } from './inbox-artifact-name.js';
import { allContracts, contractsOfOperation } from './operation-contracts.js';
import { operationBasisOfTarget, operationIdOfCall } from './operation-basis.js';
import { attemptStepId, operationIdOf } from './operation-id.js';
import { normalizedIntentOf } from './normalized-intent-of.js';
import { OperationStatus, isClosed, statusOfContract } from './operation-outcome.js';
import { reconciliationRequestName } from './pending-request-names.js';
import { PendingRequestOutbox } from './pending-request-outbox.js';
import { PendingRequestKind, pendingRequest } from './pending-request.js';
import type { PendingRequest } from './pending-request.js';
import { prepareExecutionIntent } from './prepare-execution-intent.js';
import { ApplianceIdentityError, readApplianceBinding } from './read-appliance-binding.js';
import type { ApplianceConfig } from './read-appliance-binding.js';
import { RECOVERY_KINDS } from './recovery-kinds.js';
import type { OperatorRequestKind, RecoveryKind } from './recovery-kinds.js';
import { RefusalGate } from './refusal-audit.js';

import { RefusalRecorder } from './refusal-recorder.js';
import { StoreRefusalAudit } from './store-refusal-audit.js';
import { writeOperationsView } from './write-operations-view.js';
import type { ArtifactCounts, WriteFacade } from './write-facade.js';
import type { WriteOperationsPage, WriteOperationsQuery } from './write-operations-view.js';
import { WRITE_REQUEST_LIMITS } from './write-request-limits.js';

/** What one call knows about the operation it advances: its capability, checked input, and the binding read now. */
interface OperationCall {
  readonly adapter: WriteCapability;
  /** The checked input (wire names) and the normalized intent it asks for (no appliance read). */
  readonly input: object;
  readonly intent: unknown;
  readonly binding: ApplianceBinding;
  readonly bindingDigest: string;
  readonly operationId: string;
  /** The contract the store committed in this call, latest first: the answer when a later step fails. */
  committed: RecoveryContract | null;
}

/**
 * A contract state that waits for one operator-signed artifact (docs/DESIGN.md §6): with none in the inbox the
 * call writes (or reuses) the pending request to sign; with exactly one it is resolved; more than one is refused.
 */
interface AwaitedEvidence {
  readonly awaits: (c: RecoveryContract) => boolean;
  readonly kind: Artifact['kind'];
  /** Whether the evidence names the contract's state version too (reconciliation, release), not only the contract. */
  readonly byStateVersion: boolean;
  /** The status answered while the request is pending, and the kind of that request. */
  readonly status: OperationStatus;
  readonly requestKind: PendingRequest['kind'];
  readonly request: (c: RecoveryContract, call: OperationCall) => Promise<string>;
  readonly resolve: (c: RecoveryContract, artifact: Artifact, call: OperationCall) => Promise<ChangeResult>;
}

/**
 * The driver of write operations across calls (docs/DESIGN.md §6): one asynchronous operation per (appliance,
 * capability input), for any capability of its closed registry. Each call reads the operation's durable state
 * from the contract store and moves it as far as the signed artifacts in the inbox allow: pending
 * authorization request → signed authorization → PREPARED contract → pending confirmation request → signed
 * confirmation → the executor → VERIFIED (or FAILED / RECONCILIATION), writing the next pending request to the
 * outbox when one is needed. It owns its helpers and calls them, never the other way: the gatekeeper (private:
 * every signed artifact goes through it), the outbox, the inbox index and the refusal recorder both it and the
 * gatekeeper refuse through. It holds no state of its own between calls.
 */
export class OperationDriver implements WriteFacade {
  readonly #gates: Gatekeeper;
  readonly #capabilities: CapabilityRegistry;
  readonly #store: SqliteRecoveryContractStore;
  readonly #readClient: RestApiClient;
  readonly #appliance: ApplianceConfig;
  readonly #inbox: ArtifactDirectory;
  readonly #inboxIndex: InboxIndex;
  readonly #clock: () => number;
  readonly #refusals: RefusalRecorder;
  readonly #requests: PendingRequestOutbox;
  readonly #awaitedEvidence: readonly AwaitedEvidence[];

  constructor(options: OperationDriverOptions) {
    const fn = 'OperationDriver';
    const { lifetime, inboxPath, outboxPath } = checkDriverOptions(options);
    const store = options.store;
    this.#clock = () => readClock(options.clock, `${fn}: clock`);
    this.#refusals = new RefusalRecorder(options.audit ?? new StoreRefusalAudit(store), options.clock);
    // The gatekeeper checks the options it is built from (registry, executor, ledger, policy, …).
    this.#gates = new Gatekeeper({
      capabilities: options.capabilities,
      store,
      consumption: options.consumption,
      executor: options.executor,
      policy: options.policy,
      profile: options.profile,
      authorities: options.authorities,
      serverAuthorities: options.serverAuthorities,
      clock: options.clock,
      refusals: this.#refusals,
      ...(options.contractLifetimeMs === undefined ? {} : { contractLifetimeMs: options.contractLifetimeMs }),
    });
    this.#capabilities = options.capabilities;
    this.#store = store;
    this.#readClient = options.readClient;
    this.#appliance = Object.freeze({ baseUrl: options.appliance.baseUrl, tlsMode: options.appliance.tlsMode });
    this.#inbox = options.inboxDirectory instanceof ArtifactDirectory ? options.inboxDirectory : ArtifactDirectory.open(inboxPath);
    this.#inboxIndex = new InboxIndex(this.#inbox);
    this.#requests = new PendingRequestOutbox({
      directory: options.outboxDirectory instanceof ArtifactDirectory ? options.outboxDirectory : ArtifactDirectory.open(outboxPath),
      capabilities: options.capabilities,
      serverKey: Object.freeze({ privateKey: new Uint8Array(options.serverKey.privateKey) }),
      serverAuthorities: options.serverAuthorities,
      clock: options.clock,
      requestLifetimeMs: lifetime,
      refusals: this.#refusals,
      contractsOf: (operationId: string) => contractsOfOperation(store, operationId),
    });
    this.#awaitedEvidence = this.#awaitedEvidenceTable();
    Object.freeze(this);
  }

  /**
   * requested | awaiting_confirmation | verified | reconciliation_required | refused, for the operation
   * `capability` and these arguments (wire names, e.g. `{alias_name, description}`) name. A capability not in
   * the registry, or not admitted by gate 1, is refused before any read. Throws CoordinatorInputError for
   * invalid arguments (naming the argument) and an unknown target; every other refusal is the `refused`
   * status. Never sends a non-GET request except through the executor, for a contract the operator confirmed.
   */
  async requestChange(capability: string, input: unknown): Promise<ChangeResult> {
    const registered = this.#capabilities.get(capability);
    if (registered === null) {
      this.#refusals.refuse('ANOMALY', RefusalGate.CAPABILITY);
      return changeResult(OperationStatus.REFUSED, null);
    }
    const checked = checkChangeInput(registered, input);
    const adapter = this.#gates.admits(capability);
    if (adapter === null) {
      this.#refusals.refuse('ANOMALY', RefusalGate.CAPABILITY);
      return changeResult(OperationStatus.REFUSED, null);
    }
    // The read pass, part 1: the binding names the operation (it is part of its id).
    let binding: ApplianceBinding;
    try {
      binding = await readApplianceBinding(this.#readClient, this.#appliance);
    } catch (e) {
      // No usable appliance id is an anomaly; a failed read is I/O, audited like the freshness gate's (STALE).
      if (e instanceof ApplianceIdentityError && e.code === 'NO_APPLIANCE_ID')
        this.#refusals.refuse('ANOMALY', RefusalGate.APPLIANCE_BINDING);
      else this.#refusals.refuse('STALE', RefusalGate.FRESHNESS);
      return changeResult(OperationStatus.REFUSED, null);
    }
    const bindingDigest = applianceBindingDigest(binding);
    let operationId: string;
    try {
      operationId = await operationIdOfCall(adapter, this.#readClient, this.#store, bindingDigest, checked, this.#refusals);
    } catch (e) {
      if (e instanceof CoordinatorInputError) throw e;
      if (!(e instanceof CoordinatorRefusalError)) this.#refusals.refuse('STALE', RefusalGate.FRESHNESS);
      return changeResult(OperationStatus.REFUSED, null);
    }
    const call: OperationCall = {
      adapter,
      input: checked,
      intent: adapter.intentOfInput(checked),
      binding,
      bindingDigest,
      operationId,
      committed: null,
    };
    const before = this.#latestVersion(operationId);
    try {
      return await this.#advance(call);
    } catch (e) {
      if (e instanceof CoordinatorInputError) throw e;
      // What the store committed in this call decides the answer: a later step that failed (a pending request
      // not written, an appliance that did not answer) never turns it into `refused` (docs/DESIGN.md §6).
      const known = call.committed;
      if (known !== null) return changeResult(statusOfContract(known), operationId, known.contract_id);
      // Another call (this process or another one on the same store) moved the operation meanwhile — it
      // consumed the authorization first, or began the execution: report the operation from its durable
      // state once more instead of a refusal (one operation, whoever won). The store decided the race.
      const now = this.#latestVersion(operationId);
      if (now !== null && now !== before) {
        try {
          return await this.#advance(call);
        } catch (again) {
          if (again instanceof CoordinatorInputError) throw again;
          const committed = call.committed as RecoveryContract | null;
          if (committed !== null) return changeResult(statusOfContract(committed), operationId, committed.contract_id);
        }
      }
      // The uniform refusal: the gate (if any) was audited where it failed; a cooldown says when it ends.
      if (e instanceof CoordinatorRefusalError && e.retryAtMs !== null) return refusedUntil(e.retryAtMs);
      return changeResult(OperationStatus.REFUSED, operationId);
    }
  }

  /** The operation's latest contract and state version, or null (compared to see whether a race moved it). */
  #latestVersion(operationId: string): string | null {
    try {
      const contracts = contractsOfOperation(this.#store, operationId);
      const latest = contracts[contracts.length - 1];
      return latest === undefined ? null : `${latest.contract_id}:${latest.state_version}`;
    } catch {
      return null;
    }
  }

  async #advance(call: OperationCall): Promise<ChangeResult> {
    const { adapter, operationId } = call;
    this.#store.expire();
    const contracts = contractsOfOperation(this.#store, operationId);
    const latest = contracts[contracts.length - 1];
    if (latest !== undefined && !isClosed(latest)) return this.#resume(latest, call);

    // No open contract: a new attempt (the n-th attempt has its own step id, so its plan is new). The read
    // pass, part 2: the target, read once; the authorization is selected by the plan this read determines,
    // and gate 5 compares against this same read (docs/DESIGN.md §6).
    const target = await this.#readTarget(call, { operationId });
    const intent = normalizedIntentOf(adapter, call.input, target, this.#refusals, operationId);
    // The contract is created under the operation this same read names (the target changed since the call
    // named it → stale).
    const operationBasis = operationBasisOfTarget(adapter, this.#store, target);
    if (operationIdOf(call.bindingDigest, { ...call.input, ...operationBasis }) !== operationId)
      throw this.#refusals.refuse('STALE', RefusalGate.FRESHNESS, { operationId });
    const prepared = prepareExecutionIntent(adapter, target, intent, call.bindingDigest);
    const stepId = attemptStepId(adapter.stepPrefix, contracts.length + 1);
    const planDigest = planDigestOf({ operationId, steps: [{ step_id: stepId, execution_intent_digest: prepared.executionIntentDigest }] });

    const authorizations = this.#inboxMatches(operationId, { kind: ArtifactKind.PLAN_AUTHORIZATION, planDigest });
    if (authorizations.length === 0) {
      const targetKey = adapter.identityDigest(adapter.identityOfIntent(intent)).slice(0, 16);
      const pending = this.#requests.authorizationRequest(operationId, stepId, planDigest, prepared, call.binding, targetKey);
      return changeResult(
        OperationStatus.REQUESTED,
        operationId,
        null,
        pendingRequest(PendingRequestKind.AUTHORIZATION, pending.fileName),
        pending.earlierExpiredAt,
      );
    }
    const [only] = authorizations;
    if (only === undefined || authorizations.length > 1) throw this.#refusals.refuse('ANOMALY', RefusalGate.INBOX, { operationId });
    const contract = await this.#gates.authorizeAndCreate({
      authorization: only.artifact,
      preparedIntent: prepared.executionIntent,
      stepId,
      fresh: async () => ({ binding: call.binding, target }),
      operationBasis,
    });
    call.committed = contract;
    const pending = this.#requests.confirmationRequest(contract, prepared.executionIntent, prepared.review, call.binding);
    return changeResult(
      OperationStatus.AWAITING_CONFIRMATION,
      operationId,
      contract.contract_id,
      pendingRequest(PendingRequestKind.CONFIRMATION, pending),
    );
  }

  /**
   * Continues an operation from its contract's durable, authenticated state: a PREPARING contract is completed,
   * a confirmed PREPARED one handed to the executor again, and a state that waits for an operator-signed
   * artifact goes through the one loop over #awaitedEvidence. Any other state answers its status.
   */
  async #resume(contract: RecoveryContract, call: OperationCall): Promise<ChangeResult> {
    let c = contract;
    const id = c.contract_id;
    if (c.state === RecoveryState.PREPARING) {
      c = this.#gates.completePreparation(id);
      call.committed = c;
    }
    if (c.state === RecoveryState.PREPARED) {
      // Another appliance or other arguments never resume this contract (refused before any inbox scan).
      const intent = this.#intentOf(c, call);
      if (c.confirmation !== null) return this.#afterHandoff(await this.#gates.resumeConfirmed(id, intent), call);
    }
    // A state that awaits recovery evidence is reconciliation_required whatever happens next in this call.
    if (statusOfContract(c) === OperationStatus.RECONCILIATION_REQUIRED) call.committed ??= c;
    for (const step of this.#awaitedEvidence) {
      if (!step.awaits(c)) continue;
      const version = c.state_version;
      const evidence = this.#inboxMatches(call.operationId, {
        kind: step.kind,
        contractId: id,
        ...(step.byStateVersion ? { stateVersion: version } : {}),
      });
      if (evidence.length === 0) {
        return changeResult(step.status, call.operationId, id, pendingRequest(step.requestKind, await step.request(c, call)));
      }
      const [only] = evidence;
      if (only === undefined || evidence.length > 1)
        throw this.#refusals.refuse('ANOMALY', RefusalGate.INBOX, { operationId: call.operationId, contractId: id });
      return step.resolve(c, only.artifact, call);
    }
    // VERIFIED (authenticated by the store) → verified, also after the change, instead of the no-op
    // refusal; EXECUTING / ROLLING_BACK → reconciliation_required (nothing uncertain is ever success).
    return changeResult(statusOfContract(c), call.operationId, id);
  }

  /** The states that wait for one operator-signed artifact, in the order #resume tries them. */
  #awaitedEvidenceTable(): readonly AwaitedEvidence[] {
    const reconciliation = RECOVERY_KINDS.reconciliation;
    const release = RECOVERY_KINDS.release;
    return Object.freeze([
      Object.freeze({
        awaits: (c: RecoveryContract) => c.state === RecoveryState.PREPARED && c.confirmation === null,
        kind: ArtifactKind.CONFIRMATION,
        byStateVersion: false,
        status: OperationStatus.AWAITING_CONFIRMATION,
        requestKind: PendingRequestKind.CONFIRMATION,
        request: async (c: RecoveryContract, call: OperationCall) => {
          const intent = this.#intentOf(c, call);
          const review = await this.#reviewForConfirmation(c, call);
          return this.#requests.confirmationRequest(c, intent, review, call.binding);
        },
        resolve: async (c: RecoveryContract, artifact: Artifact, call: OperationCall) =>
          this.#afterHandoff(await this.#gates.confirmAndHandoff(c.contract_id, artifact, this.#intentOf(c, call)), call),
      }),
      Object.freeze({
        awaits: reconciliation.awaits,
        kind: reconciliation.evidence,
        byStateVersion: true,
        status: OperationStatus.RECONCILIATION_REQUIRED,
        requestKind: PendingRequestKind.RECONCILIATION,
        request: (c: RecoveryContract, call: OperationCall) => this.#ensureReconciliationRequest(c, this.#boundAppliance(c, call)),
        resolve: async (c: RecoveryContract, artifact: Artifact, call: OperationCall) =>
          this.#committedResult(this.#gates.resumeReconciliation(artifact), call),
      }),
      Object.freeze({
        awaits: release.awaits,
        kind: release.evidence,
        byStateVersion: true,
        status: OperationStatus.RECONCILIATION_REQUIRED,
        requestKind: PendingRequestKind.RELEASE,
        request: async (c: RecoveryContract, call: OperationCall) => this.#requests.releaseRequest(c, this.#boundAppliance(c, call)),
        resolve: async (c: RecoveryContract, artifact: Artifact, call: OperationCall) =>
          this.#committedResult(this.#gates.releaseRollbackFailedReservation(artifact), call),
      }),
    ]);
  }

  /**
   * After the executor, from the contract its final transition committed (no reload): an ambiguous outcome
   * (RECONCILIATION) gets its reconciliation request written now, so the very answer that reports it names the
   * file the operator must sign; if that request cannot be written, the committed state is still the answer
   * (reconciliation_required, no pending file: `admin reconcile emit` writes it later).
   */
  async #afterHandoff(contract: RecoveryContract, call: OperationCall): Promise<ChangeResult> {
    const result = this.#committedResult(contract, call);
    if (!RECOVERY_KINDS.reconciliation.awaits(contract)) return result;
    const pending = await this.#ensureReconciliationRequest(contract, this.#boundAppliance(contract, call));
    return changeResult(result.status, call.operationId, contract.contract_id, pendingRequest(PendingRequestKind.RECONCILIATION, pending));
  }

  /** The answer from a contract the store committed in this call (remembered for a later step's failure). */
  #committedResult(contract: RecoveryContract, call: OperationCall): ChangeResult {
    call.committed = contract;
    return changeResult(statusOfContract(contract), call.operationId, contract.contract_id);
  }

  /**
   * The prepared intent of an existing contract, rebuilt from the caller's arguments, the fresh appliance
   * binding and the contract's own digests — and accepted only if it digests to the contract's signed
   * execution-intent provenance (so another appliance, or other arguments, cannot resume it).
   */
  #intentOf(c: RecoveryContract, call: OperationCall): PreparedExecutionIntentV1 {
    const intent = contractExecutionIntent(call.adapter, c, call.intent, call.bindingDigest);
    if (intent !== null) return intent;
    throw this.#refusals.refuse('ANOMALY', RefusalGate.BINDING, { operationId: c.operation_id, contractId: c.contract_id });
  }

  /**
   * The fresh appliance binding, accepted for a reconciliation or release request only if it is the one the
   * contract's signed execution intent names (#intentOf refuses otherwise): the operator is shown the
   * appliance the change was made on, never merely the one the server talks to now.
   */
  #boundAppliance(c: RecoveryContract, call: OperationCall): ApplianceBinding {
    this.#intentOf(c, call);
    return call.binding;
  }

  // ------------------------------------------------------------------ the operator's calls (admin, lab)

  /**
   * `admin rollback`: VERIFIED → rollback through the executor (gate 1 for the contract's capability, then the
   * executor's own checks; one send at most). A signed rollback (RECOVERY_KINDS.rollback) takes the one rollback
   * authorization for this contract and state version in the inbox (none or several → refused). Returns the
   * contract as the store committed it.
   */
  async rollback(contractId: string): Promise<RecoveryContract> {
    const c = this.#store.load(contractId);
    if (!RECOVERY_KINDS.rollback.awaits(c)) return this.#gates.requestRollback(contractId);
    return this.#gates.requestRollback(contractId, this.#signedEvidenceOf(c, 'rollback').artifact);
  }

  /** Whether a VERIFIED contract's rollback needs a signature that the inbox does not hold yet (`admin rollback` asks). */
  rollbackAwaitsAuthorization(contractId: string): boolean {
    const c = this.#store.load(contractId);
    const want = { kind: RECOVERY_KINDS.rollback.evidence, contractId: c.contract_id, stateVersion: c.state_version };
    return RECOVERY_KINDS.rollback.awaits(c) && this.#inboxMatches(c.operation_id, want).length === 0;
  }

  /** The executor's read-only fresh observation of a RECONCILIATION contract's target (zero sends). */
  observeReconciliationTarget(contractId: string): Promise<ReconciliationObservation> {
    return this.#gates.observeReconciliationTarget(contractId);
  }

  // ------------------------------------------------------------------ read-only views

  /**
   * The operations the store and the outbox know, newest first (docs/DESIGN.md §6): ids, status, contract state,
   * times and the pending request's file name when it is in the outbox — never a value. Operations still
   * `requested` come from the outbox's unanswered authorization requests. Read-only: nothing is
   * expired, moved or written. `limit` 1..1000, `offset` ≥ 0, `operationId` a safe token when given.
   */
  listWriteOperations(query: WriteOperationsQuery): WriteOperationsPage {
    const fn = 'listWriteOperations';
    assertObject(query, `${fn}: "query"`);
    if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > 1000)
      throw new TypeError(`${fn}: "limit" must be an integer in 1..1000`);
    if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new TypeError(`${fn}: "offset" must be a non-negative integer`);
    if (query.operationId !== undefined && (typeof query.operationId !== 'string' || !/^op-[0-9a-f]{64}$/.test(query.operationId))) {
      throw new TypeError(`${fn}: "operationId" must be op- followed by 64 lowercase hex`);
    }
    const contracts = query.operationId === undefined ? allContracts(this.#store) : contractsOfOperation(this.#store, query.operationId);
    return writeOperationsView(contracts, query, (name) => this.#requests.has(name), this.#requests.requestedOperations(query.operationId));
  }

  /**
   * Artifact files (candidate `*.json` names) in the inbox and the outbox, counted by name only — nothing
   * is opened — and whether they have piled up past WRITE_REQUEST_LIMITS.leftoverWarningFiles.
   */
  artifactCounts(): ArtifactCounts {
    const inboxFiles = this.#inbox.list().length;
    const outboxFiles = this.#requests.list().length;
    return Object.freeze({ inboxFiles, outboxFiles, pileUp: inboxFiles + outboxFiles >= WRITE_REQUEST_LIMITS.leftoverWarningFiles });
  }

  // ------------------------------------------------------------------ what a pending request shows

  /** The review of a PREPARED contract whose confirmation request is missing: only from a read equal to its pre-state. */
  async #reviewForConfirmation(c: RecoveryContract, call: OperationCall): Promise<WriteReview> {
    const existing = this.#requests.reviewOf(c);
    if (existing !== null) return existing;
    const target = await this.#readTarget(call, { contractId: c.contract_id });
    if (call.adapter.fingerprint(target) !== c.target_fingerprint)
      throw this.#refusals.refuse('STALE', RefusalGate.FRESHNESS, { contractId: c.contract_id });
    return call.adapter.reviewOf(target, call.intent);
  }

  /**
   * The reconciliation request of a RECONCILIATION contract: the executor's read-only observation (zero sends),
   * whose own read's snapshot is the observed state shown for review (no second read).
   */
  async #ensureReconciliationRequest(c: RecoveryContract, appliance: ApplianceBinding): Promise<string> {
    const name = reconciliationRequestName(c.contract_id, c.state_version);
    if (this.#requests.has(name)) return name;
    const review = this.#requests.reviewOf(c);
    if (review === null) throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    let observation: ReconciliationObservation;
    try {
      observation = await this.#gates.observeReconciliationTarget(c.contract_id);
    } catch {
      throw this.#refusals.refuse('STALE', RefusalGate.RECONCILIATION, { contractId: c.contract_id });
    }
    return this.#requests.reconciliationRequest(c, appliance, review, observation);
  }

  // ------------------------------------------------------------------ the operator's recovery commands

  /**
   * `admin reconcile emit` / `admin release emit`: a fresh executor observation (reconciliation) and a
   * server-signed request in the outbox for a RECONCILIATION (forward or rollback origin) or unreleased
   * ROLLBACK_FAILED contract, bound to the appliance the change was made on (the binding read now must be the
   * one the server's own confirmation request named). An existing request for this state version is
   * returned as already pending. Refuses (CoordinatorRefusalError) any other state.
   */
  async emitRecoveryRequest(
    contractId: string,
    kind: OperatorRequestKind,
  ): Promise<{ readonly contract: RecoveryContract; readonly pendingRequest: PendingRequest; readonly alreadyPending: boolean }> {
    const c = this.#store.load(contractId);
    const k = RECOVERY_KINDS[kind];
    if (!k.awaits(c)) throw this.#refusals.refuse('ANOMALY', k.gate, { contractId });
    const name = k.requestName(c.contract_id, c.state_version);
    // The operator's request kinds are named as their requests are (reconciliation, release, rollback).
    if (this.#requests.has(name)) return Object.freeze({ contract: c, pendingRequest: pendingRequest(kind, name), alreadyPending: true });
    const appliance = await this.#applianceOfContract(c);
    const pending =
      kind === 'release'
        ? this.#requests.releaseRequest(c, appliance)
        : kind === 'rollback'
          ? this.#requests.rollbackRequest(c, appliance)
          : await this.#ensureReconciliationRequest(c, appliance);
    return Object.freeze({ contract: c, pendingRequest: pendingRequest(kind, pending), alreadyPending: false });
  }

  /**
   * `admin reconcile resume` / `admin release resume`: the one operator-signed evidence for this contract and
   * state version in the inbox resolves it (zero sends). None or more than one → refused.
   */
  resumeRecovery(contractId: string, kind: RecoveryKind): RecoveryContract {
    const c = this.#store.load(contractId);
    const only = this.#signedEvidenceOf(c, kind);
    return kind === 'release'
      ? this.#gates.releaseRollbackFailedReservation(only.artifact)
      : this.#gates.resumeReconciliation(only.artifact);
  }

  /** The one operator-signed evidence of `kind` for c's state version in the inbox; refused in another state, or none or several. */
  #signedEvidenceOf(c: RecoveryContract, kind: OperatorRequestKind): InboxEntry {
    const k = RECOVERY_KINDS[kind];
    if (!k.awaits(c)) throw this.#refusals.refuse('ANOMALY', k.gate, { contractId: c.contract_id });
    const evidence = this.#inboxMatches(c.operation_id, { kind: k.evidence, contractId: c.contract_id, stateVersion: c.state_version });
    const [only] = evidence;
    if (only === undefined || evidence.length > 1)
      throw this.#refusals.refuse('ANOMALY', RefusalGate.INBOX, { operationId: c.operation_id, contractId: c.contract_id });
    return only;
  }

  /** The binding read now, accepted only if it is the one the server's own confirmation request for c named. */
  async #applianceOfContract(c: RecoveryContract): Promise<ApplianceBinding> {
    const expected = this.#requests.confirmedApplianceDigest(c);
    if (expected === null) throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    let binding: ApplianceBinding;
    try {
      binding = await readApplianceBinding(this.#readClient, this.#appliance);
    } catch {
      throw this.#refusals.refuse('STALE', RefusalGate.FRESHNESS, { contractId: c.contract_id });
    }
    if (applianceBindingDigest(binding) !== expected)
      throw this.#refusals.refuse('ANOMALY', RefusalGate.APPLIANCE_BINDING, { contractId: c.contract_id });
    return binding;
  }

  // ------------------------------------------------------------------ reads

  /**
   * The call's read of the target its intent names, through the adapter. A target that does not exist is the
   * caller's input error (UNKNOWN_TARGET, naming the adapter's argument); any other failure is I/O, refused
   * and audited STALE like the freshness gate's (nothing consumed; the same call passes once it reads).
   */
  async #readTarget(call: OperationCall, context: { operationId?: string; contractId?: string }): Promise<unknown> {
    try {
      return await call.adapter.readTarget(this.#readClient, call.adapter.identityOfIntent(call.intent));
    } catch (e) {
      if (e instanceof TargetResolutionError && e.code === 'NOT_FOUND') {
        throw new CoordinatorInputError('UNKNOWN_TARGET', e.argument, 'NOT_FOUND', 'names nothing on the appliance');
      }
      throw this.#refusals.refuse('STALE', RefusalGate.FRESHNESS, context);
    }
  }

  /** The inbox files a call looks for (InboxIndex.matches); an unreadable file whose name concerns it refuses the call. */
  #inboxMatches(operationId: string, want: InboxWant): readonly InboxEntry[] {
    try {
      return this.#inboxIndex.matches(want, this.#clock());
    } catch {
      throw this.#refusals.refuse('ANOMALY', RefusalGate.INBOX, { operationId });
    }
  }
}
