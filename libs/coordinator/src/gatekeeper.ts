import {
  ArtifactKind,
  applianceBindingDigest,
  artifactDigestOf,
  checkCurrentness,
  checkAnswersThisServer,
  checkPlanAuthorizationBinding,
  executionIntentDigest,
  parsePreparedExecutionIntent,
  planDigestOf,
  validateArtifactDocument,
  verifyArtifactSignature,
} from '@pfsense-mcp/authorization';
import type { ApplianceBinding, Artifact, PlanAuthorizationV2, PreparedExecutionIntentV1 } from '@pfsense-mcp/authorization';
import { isSafeToken } from '@pfsense-mcp/canonical';
import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { NewContractInput, RecoveryContract } from '@pfsense-mcp/contract-store';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ExecutorRefusalError, MutationExecutor } from '@pfsense-mcp/executor';
import type { ReconciliationObservation, RollbackAuthorizationUse } from '@pfsense-mcp/executor';
import { assertFunction, assertObject, readClock } from '@pfsense-mcp/foundation';
import { MutationPolicy, isGranted, isProfile } from '@pfsense-mcp/policy';
import type { HttpMethod, Profile } from '@pfsense-mcp/policy';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { CapabilityRegistry } from './capability-registry.js';
import type { WriteCapability } from './capability-registry.js';
import { CoordinatorRefusalError } from './coordinator-refusal-error.js';
import { GateFailure, creationGate, fail, gate, gateAsync } from './gate-failure.js';
import { ApplianceIdentityError } from './read-appliance-binding.js';
import { intentPartsOf } from './intent-parts-of.js';
import { operationIdOf } from './operation-id.js';
import { prepareExecutionIntent } from './prepare-execution-intent.js';
import { RefusalGate } from './refusal-audit.js';
import { RefusalRecorder } from './refusal-recorder.js';
import { rollbackAuthorizationUseOf } from './rollback-authorization-use.js';

/** The one-time consumption ledger (contract-store's SqliteConsumptionStore satisfies it). */
export interface ConsumptionLedger {
  /**
   * Consumes the id now: true exactly once per id, false for a replay. `issuedAt` is the authorization's
   * issued_at: after an operator-accepted restore, one issued at or before the acceptance is a replay.
   */
  tryConsume(authorizationId: string, issuedAt: number): boolean;
  /** Read-only: whether the id was consumed (the replay gate before containment, which consumes nothing). */
  isConsumed(authorizationId: string, issuedAt: number): boolean;
}

/** What the gatekeeper is built from (by the operation driver, which owns it). */
export interface GatekeeperOptions {
  /** The closed registry of capabilities (composed by the composition root). */
  readonly capabilities: CapabilityRegistry;
  /** The public face of the contract store (create, markPrepared, confirm, resolve, release, load). */
  readonly store: SqliteRecoveryContractStore;
  readonly consumption: ConsumptionLedger;
  readonly executor: MutationExecutor;
  readonly policy: MutationPolicy;
  readonly profile: Profile;
  /** Pinned operator authorities (plan-authorization, confirmation, reconciliation roles). */
  readonly authorities: PinnedAuthoritySet;
  /** This server's own request keys, current and retired (role server-request): whose requests an answer may answer. */
  readonly serverAuthorities: PinnedAuthoritySet;
  /** Injected wall clock, UTC ms (the store's clock). */
  readonly clock: () => number;
  /** Where refusals are recorded: the recorder the driver refuses through too (one audit sink). */
  readonly refusals: RefusalRecorder;
  /** Longest life of a new contract before confirmation (default 1 h; never past the authorization). */
  readonly contractLifetimeMs?: number;
}

/**
 * The call's one read pass of the appliance (docs/DESIGN.md §6): the binding and the target, read by the
 * driver after it found the artifact the call acts on, handed to the gates that compare against them.
 */
export interface FreshRead {
  readonly binding: ApplianceBinding;
  /** The adapter's readTarget result (opaque here; the adapter's own functions look inside). */
  readonly target: unknown;
}

/** What authorizeAndCreate is given: the signed authorization, the intent it should approve, the step and the fresh read. */
export interface AuthorizeAndCreateRequest {
  /** A parsed artifact document (any kind: anything but a valid PlanAuthorizationV2 is refused). */
  readonly authorization: unknown;
  /** The PreparedExecutionIntentV1 the caller prepared (and asked the operator to authorize). */
  readonly preparedIntent: unknown;
  /** The step of the plan being executed. */
  readonly stepId: string;
  /**
   * This call's read of the binding and the target, asked for at gate 5 only (so nothing is read for an
   * artifact gates 1–4 refuse): the driver hands the read it already made for this call; gate 5 compares the
   * intent rebuilt from it. Its ApplianceIdentityError NO_APPLIANCE_ID is ANOMALY, any other failure STALE.
   */
  readonly fresh: () => Promise<FreshRead>;
  /** What besides the input names the operation (the adapter's `operationBasisOf` of the driver's read), if any. */
  readonly operationBasis?: object;
}

const DEFAULT_CONTRACT_LIFETIME_MS = 60 * 60 * 1000;

/** The adapter's method as a contract binding: a mutating one (a GET adapter never makes a contract). */
function mutatingMethodOf(method: HttpMethod): NewContractInput['http_method'] {
  if (method === 'GET') throw new TypeError("the adapter's method is not a mutating one");
  return method;
}

/**
 * The gates of a write (docs/DESIGN.md §6): the only path from a signed authorization
 * to a Recovery Contract, from a signed confirmation to the sealed executor, and from signed reconciliation
 * or release evidence to the store's resolution. It composes the authorization library's pure checks, one
 * freshness re-read, the one-time consumption ledger and the store in a fixed order, and refuses every
 * failure with the same CoordinatorRefusalError. It never sends: the executor alone does, and only for a
 * contract these gates created and the operator confirmed. It calls nothing above it: the operation
 * driver calls it.
 */
export class Gatekeeper {
  readonly #capabilities: CapabilityRegistry;
  readonly #store: SqliteRecoveryContractStore;
  readonly #consumption: ConsumptionLedger;
  readonly #executor: MutationExecutor;
  readonly #policy: MutationPolicy;
  readonly #profile: Profile;
  readonly #authorities: PinnedAuthoritySet;
  readonly #requestKeyIds: readonly string[];
  readonly #clock: () => number;
  readonly #refusals: RefusalRecorder;
  readonly #contractLifetimeMs: number;

  constructor(options: GatekeeperOptions) {
    const fn = 'Gatekeeper';
    assertObject(options, `${fn}: "options"`);
    if (!(options.capabilities instanceof CapabilityRegistry)) throw new TypeError(`${fn}: "capabilities" must be a CapabilityRegistry`);
    if (!(options.store instanceof SqliteRecoveryContractStore))
      throw new TypeError(`${fn}: "store" must be a SqliteRecoveryContractStore`);
    assertObject(options.consumption, `${fn}: "consumption"`);
    assertFunction(options.consumption.tryConsume, `${fn}: "consumption.tryConsume"`, 'a function tryConsume(authorizationId, issuedAt)');
    assertFunction(options.consumption.isConsumed, `${fn}: "consumption.isConsumed"`, 'a function isConsumed(authorizationId, issuedAt)');
    if (!(options.executor instanceof MutationExecutor)) throw new TypeError(`${fn}: "executor" must be a MutationExecutor`);
    if (!(options.policy instanceof MutationPolicy)) throw new TypeError(`${fn}: "policy" must be a MutationPolicy`);
    if (!isProfile(options.profile)) throw new TypeError(`${fn}: "profile" must be a Profile`);
    if (!(options.authorities instanceof PinnedAuthoritySet)) throw new TypeError(`${fn}: "authorities" must be a PinnedAuthoritySet`);
    if (!(options.serverAuthorities instanceof PinnedAuthoritySet))
      throw new TypeError(`${fn}: "serverAuthorities" must be a PinnedAuthoritySet`);
    assertFunction(options.clock, `${fn}: "clock"`, 'a function returning UTC milliseconds');
    if (!(options.refusals instanceof RefusalRecorder)) throw new TypeError(`${fn}: "refusals" must be a RefusalRecorder`);
    const lifetime = options.contractLifetimeMs ?? DEFAULT_CONTRACT_LIFETIME_MS;
    if (!Number.isSafeInteger(lifetime) || lifetime < 1000) throw new TypeError(`${fn}: "contractLifetimeMs" must be an integer ≥ 1000`);
    this.#capabilities = options.capabilities;
    this.#store = options.store;
    this.#consumption = options.consumption;
    this.#executor = options.executor;
    this.#policy = options.policy;
    this.#profile = options.profile;
    this.#authorities = options.authorities;
    this.#requestKeyIds = Object.freeze(
      options.serverAuthorities
        .entries()
        .filter((e) => e.role === 'server-request')
        .map((e) => e.keyId),
    );
    this.#clock = options.clock;
    this.#refusals = options.refusals;
    this.#contractLifetimeMs = lifetime;
    Object.freeze(this);
  }

  /**
   * Gate 1, per capability (facts 2 and 3 of docs/DESIGN.md §6): the capability is in this build's registry,
   * granted by the profile, and its endpoint and method are in the mutation allow-list. Its one owner: the
   * driver asks it first in every call (before any read), authorizeAndCreate and requestRollback in their order.
   */
  admits(capability: unknown): WriteCapability | null {
    const a = this.#capabilities.get(capability);
    if (a === null) return null;
    return isGranted(this.#profile, a.capability) && this.#policy.allows(a.capability, a.endpointSymbol, a.httpMethod) ? a : null;
  }

  /** PREPARING → PREPARED for a contract whose creation was interrupted before that step (gate 9 once more). */
  completePreparation(contractId: string): RecoveryContract {
    const c = this.#store.load(contractId);
    if (c.state !== RecoveryState.PREPARING) return c;
    return this.#store.markPrepared(c.contract_id, c.state_version);
  }

  // ------------------------------------------------------------------ authorize → contract

  /**
   * The gates, in order (docs/DESIGN.md §6): (1) capability granted and endpoint allow-listed; (2) the
   * authorization's algorithm and signature in the plan-authorization role, (3) currentness, (4) step and
   * execution-intent binding against the plan recomputed from the prepared intent — all pure; (5)
   * freshness: the call's one read of the appliance binding and the target (`fresh`, read by the driver after
   * it found this authorization), the execution intent rebuilt from it and its digest compared exactly; (6) replay (read-only isConsumed);
   * (7) containment: the store's read-only precheckCreate; (8) store.create, whose transaction repeats the
   * checks and then consumes the authorization; (9) PREPARED. Nothing is consumed before (8) has passed
   * every check; every failure is the same CoordinatorRefusalError, and the audit sink gets STALE
   * (freshness, containment) or ANOMALY (anything else).
   */
  async authorizeAndCreate(request: AuthorizeAndCreateRequest): Promise<RecoveryContract> {
    assertObject(request, 'authorizeAndCreate: "request"');
    const now = readClock(this.#clock, 'Gatekeeper');
    let operationId: string | null = null;
    let artifactDigest: string | null = null;
    try {
      // The intent the caller prepared names the capability; it determines the plan (pure).
      const prepared = gate('ANOMALY', RefusalGate.BINDING, () => parsePreparedExecutionIntent(request.preparedIntent));
      // (1) capability registered, granted and allow-listed: facts about this process, no I/O.
      if (this.admits(prepared.payload.capability) === null) fail('ANOMALY', RefusalGate.CAPABILITY);
      const stepId = gate('ANOMALY', RefusalGate.BINDING, () => {
        if (!isSafeToken(request.stepId)) throw new TypeError('stepId');
        return request.stepId;
      });
      const { adapter: a, intent } = gate('ANOMALY', RefusalGate.BINDING, () => intentPartsOf(this.#capabilities, prepared));
      const intentDigest = gate('ANOMALY', RefusalGate.BINDING, () => executionIntentDigest(prepared));
      operationId = gate('ANOMALY', RefusalGate.BINDING, () =>
        operationIdOf(prepared.payload.appliance_binding_digest, { ...a.inputOfIntent(intent), ...(request.operationBasis ?? {}) }),
      );
      const planDigest = planDigestOf({ operationId, steps: [{ step_id: stepId, execution_intent_digest: intentDigest }] });

      const authorization = gate('ANOMALY', RefusalGate.ARTIFACT, (): PlanAuthorizationV2 => {
        const doc: Artifact = validateArtifactDocument(request.authorization);
        if (doc.kind !== ArtifactKind.PLAN_AUTHORIZATION) throw new TypeError('kind');
        return doc;
      });
      artifactDigest = artifactDigestOf(authorization);
      // (2) algorithm, then signature against the pinned set in the plan-authorization role.
      gate('ANOMALY', RefusalGate.SIGNATURE, () => verifyArtifactSignature(authorization, this.#authorities));
      // (3) currentness: now < expires_at.
      gate('ANOMALY', RefusalGate.CURRENTNESS, () => checkCurrentness(authorization, now));
      // (4) exact plan digest, step membership and that step's execution-intent digest; and it answers this
      // server's own request key (docs/DESIGN.md §10).
      gate('ANOMALY', RefusalGate.BINDING, () => {
        checkPlanAuthorizationBinding(authorization, { planDigest, stepId, executionIntentDigest: intentDigest });
        checkAnswersThisServer(authorization, this.#requestKeyIds);
      });

      // (5) freshness, against this call's one read (docs/DESIGN.md §6: taken after the authorization was
      // found, so it is at least as fresh as the signature). The appliance must be the one the intent names
      // (else ANOMALY), and the intent rebuilt from the read must be byte-identical (else STALE; nothing consumed).
      const { binding, target } = await gateAsync('STALE', RefusalGate.FRESHNESS, async () => {
        try {
          const read = await request.fresh();
          assertObject(read, 'fresh');
          return read;
        } catch (e) {
          if (e instanceof ApplianceIdentityError && e.code === 'NO_APPLIANCE_ID') fail('ANOMALY', RefusalGate.APPLIANCE_BINDING);
          throw e;
        }
      });
      const bindingDigest = gate('ANOMALY', RefusalGate.APPLIANCE_BINDING, () => applianceBindingDigest(binding));
      if (bindingDigest !== prepared.payload.appliance_binding_digest) fail('ANOMALY', RefusalGate.APPLIANCE_BINDING);
      const fresh = gate('STALE', RefusalGate.FRESHNESS, () => prepareExecutionIntent(a, target, intent, bindingDigest));
      if (fresh.executionIntentDigest !== intentDigest) fail('STALE', RefusalGate.FRESHNESS);

      // (6) replay, read-only: an authorization already consumed is refused as a replay before containment.
      const authorizationId = authorization.payload.authorization_id;
      const issuedAt = authorization.payload.issued_at;
      if (gate('ANOMALY', RefusalGate.REPLAY, () => this.#consumption.isConsumed(authorizationId, issuedAt)) !== false)
        fail('ANOMALY', RefusalGate.REPLAY);

      // The contract this authorization creates; its life never outlasts the authorization.
      const identity = a.identityOfTarget(target);
      const snapshot = a.snapshotOf(target);
      const input: NewContractInput = {
        operation_id: operationId,
        capability: a.capability,
        endpoint_symbol: a.endpointSymbol,
        http_method: mutatingMethodOf(a.httpMethod),
        target_identity_digest: a.identityDigest(identity),
        target_fingerprint: a.fingerprint(target),
        intent_digest: a.intentDigest(intent),
        snapshot_digest: a.snapshotDigest(snapshot),
        rollback_plan_version: a.rollbackPlanVersion,
        lifecycle_locator: a.transportLocator(target),
        provenance: {
          authorization_id: authorizationId,
          plan_digest: authorization.payload.plan_digest,
          step_id: stepId,
          execution_intent_digest: intentDigest,
          authorization_expires_at: authorization.payload.expires_at,
        },
        expires_at: Math.min(now + this.#contractLifetimeMs, authorization.payload.expires_at),
        target_identity: identity,
        intent,
        snapshot,
      };

      // (7) containment, read-only: what create would refuse now (rate / blast radius → STALE, nothing
      // consumed; the same authorization passes once the window has passed while it is current).
      creationGate(() => this.#store.precheckCreate(input));

      // (8) create, with the one-time consumption inside its transaction after the same checks ran again
      // atomically: a race lost there is refused as in (7), still before anything is consumed.
      const created = creationGate(() =>
        this.#store.create(input, {
          consume: (id) => gate('ANOMALY', RefusalGate.REPLAY, () => this.#consumption.tryConsume(id, issuedAt)),
        }),
      );
      // (9) PREPARED. The authorization is consumed: a failure here leaves a PREPARING contract the next
      // call completes (completePreparation), never a second consumption.
      return gate('ANOMALY', RefusalGate.CREATE, () => this.#store.markPrepared(created.contract_id, created.state_version));
    } catch (e) {
      if (e instanceof GateFailure) throw this.#refusals.refuse(e.refusalClass, e.gate, { operationId, artifactDigest }, e.retryAtMs);
      throw this.#refusals.refuse('ANOMALY', RefusalGate.ARTIFACT, { operationId, artifactDigest });
    }
  }

  // ------------------------------------------------------------------ confirm → executor

  /** The prepared intent of a contract, checked against its provenance (pure). Refuses on any mismatch. */
  #boundIntent(contract: RecoveryContract, preparedIntent: unknown): PreparedExecutionIntentV1 {
    return gate('ANOMALY', RefusalGate.BINDING, () => {
      const p = parsePreparedExecutionIntent(preparedIntent);
      intentPartsOf(this.#capabilities, p);
      if (executionIntentDigest(p) !== contract.provenance.execution_intent_digest) throw new TypeError('intent');
      return p;
    });
  }

  /**
   * store.confirm(contractId, evidence) — the store's verifier checks the operator's signature, currentness
   * and binding to this exact contract — then exactly one executor.execute. `preparedIntent` must digest to
   * the contract's execution-intent provenance; its normalized intent is what the executor is given (and
   * re-checks against intent_digest). Returns the contract as the executor's final transition committed it.
   * A refusal before the executor holds the reservation (nothing sent) is the uniform CoordinatorRefusalError.
   */
  async confirmAndHandoff(contractId: string, evidence: unknown, preparedIntent: unknown): Promise<RecoveryContract> {
    if (!isSafeToken(contractId)) throw new TypeError('confirmAndHandoff: "contractId" must be a safe token');
    try {
      const contract = gate('ANOMALY', RefusalGate.CONFIRMATION, () => this.#store.load(contractId));
      const adapter = this.#adapterOf(contract);
      const intent = this.#boundIntent(contract, preparedIntent);
      if (contract.state !== RecoveryState.PREPARED || contract.confirmation !== null) fail('ANOMALY', RefusalGate.CONFIRMATION);
      // It answers this server's own request key (docs/DESIGN.md §10); the store's verifier checks the rest.
      gate('ANOMALY', RefusalGate.CONFIRMATION, () => {
        const doc = validateArtifactDocument(evidence);
        if (doc.kind !== ArtifactKind.CONFIRMATION) throw new TypeError('kind');
        checkAnswersThisServer(doc, this.#requestKeyIds);
      });
      gate('ANOMALY', RefusalGate.CONFIRMATION, () => this.#store.confirm(contractId, evidence));
      return await this.#handoff(contract, adapter, intent);
    } catch (e) {
      if (e instanceof GateFailure) throw this.#refusals.refuse(e.refusalClass, e.gate, { contractId });
      throw e;
    }
  }

  /**
   * Resumes a PREPARED contract that was already confirmed (a crash between confirm and execute): the
   * executor is handed the contract once more; its own checks (state, confirmation, expiry, bindings,
   * reservation) decide. Returns the contract after the call.
   */
  async resumeConfirmed(contractId: string, preparedIntent: unknown): Promise<RecoveryContract> {
    if (!isSafeToken(contractId)) throw new TypeError('resumeConfirmed: "contractId" must be a safe token');
    try {
      const contract = gate('ANOMALY', RefusalGate.CONFIRMATION, () => this.#store.load(contractId));
      const adapter = this.#adapterOf(contract);
      const intent = this.#boundIntent(contract, preparedIntent);
      if (contract.state !== RecoveryState.PREPARED || contract.confirmation === null) fail('ANOMALY', RefusalGate.CONFIRMATION);
      return await this.#handoff(contract, adapter, intent);
    } catch (e) {
      if (e instanceof GateFailure) throw this.#refusals.refuse(e.refusalClass, e.gate, { contractId });
      throw e;
    }
  }

  /**
   * One executor.execute; the answer is the contract its final transition committed (ExecutionOutcome.contract).
   * Only when that final store write itself threw is nothing known to be committed: the durable state is read.
   */
  async #handoff(contract: RecoveryContract, adapter: WriteCapability, intent: PreparedExecutionIntentV1): Promise<RecoveryContract> {
    try {
      return (await this.#executor.execute(contract.contract_id, { adapter, intent: intent.payload.normalized_intent })).contract;
    } catch (e) {
      // Before the reservation: nothing sent, nothing changed.
      if (e instanceof ExecutorRefusalError) throw new CoordinatorRefusalError();
      return this.#store.load(contract.contract_id);
    }
  }

  /** The registered adapter of a contract's capability (gate 1 for it); refuses (GateFailure) otherwise. */
  #adapterOf(contract: RecoveryContract): WriteCapability {
    const a = this.admits(contract.capability);
    return a ?? fail('ANOMALY', RefusalGate.CAPABILITY);
  }

  // ------------------------------------------------------------------ rollback, reconciliation, release

  /**
   * VERIFIED → rollback through the executor (its own checks; one send at most). A contract whose rollback is
   * itself a firewall change (policy's needsSignedRollback) needs `signedAuthorization`, the operator's rollback
   * authorization for this contract as it is now; the executor consumes it once, after its own refusals. Returns
   * the contract as the executor's final transition committed it (read back only when that write itself threw).
   */
  async requestRollback(contractId: string, signedAuthorization?: unknown): Promise<RecoveryContract> {
    if (!isSafeToken(contractId)) throw new TypeError('requestRollback: "contractId" must be a safe token');
    let adapter: WriteCapability;
    let authorization: RollbackAuthorizationUse | undefined;
    try {
      const contract = gate('ANOMALY', RefusalGate.CAPABILITY, () => this.#store.load(contractId));
      adapter = this.#adapterOf(contract);
      authorization = rollbackAuthorizationUseOf(contract, signedAuthorization, {
        authorities: this.#authorities,
        nowMs: readClock(this.#clock, 'Gatekeeper'),
        tryConsume: (id, issuedAt) => this.#consumption.tryConsume(id, issuedAt),
      });
    } catch (e) {
      if (e instanceof GateFailure) throw this.#refusals.refuse(e.refusalClass, e.gate, { contractId });
      throw e;
    }
    try {
      return (await this.#executor.rollback(contractId, { adapter, ...(authorization === undefined ? {} : { authorization }) })).contract;
    } catch (e) {
      if (e instanceof ExecutorRefusalError) throw new CoordinatorRefusalError();
      return this.#store.load(contractId);
    }
  }

  /** A read-only fresh observation of a RECONCILIATION contract's target (zero sends). */
  async observeReconciliationTarget(contractId: string): Promise<ReconciliationObservation> {
    if (!isSafeToken(contractId)) throw new TypeError('observeReconciliationTarget: "contractId" must be a safe token');
    try {
      const adapter = this.#adapterOf(this.#store.load(contractId));
      return await this.#executor.observeReconciliationTarget(contractId, { adapter });
    } catch {
      throw new CoordinatorRefusalError();
    }
  }

  /**
   * Leaves RECONCILIATION with the operator's signed evidence: store.resolveReconciliation, whose verifier
   * checks signature (reconciliation role), currentness and binding to the contract's state version and
   * origin. Zero sends. Returns the contract after.
   */
  resumeReconciliation(signedEvidence: unknown): RecoveryContract {
    return this.#resolveWithEvidence(signedEvidence, ArtifactKind.RECONCILIATION, RefusalGate.RECONCILIATION, (id, doc) =>
      this.#store.resolveReconciliation(id, doc),
    );
  }

  /** Clears a ROLLBACK_FAILED reservation with the operator's signed release (reconciliation role). Zero sends. */
  releaseRollbackFailedReservation(signedRelease: unknown): RecoveryContract {
    return this.#resolveWithEvidence(signedRelease, ArtifactKind.RELEASE, RefusalGate.RELEASE, (id, doc) =>
      this.#store.releaseRollbackFailedReservation(id, doc),
    );
  }

  /**
   * The one routine behind both recovery resolutions: the document must be a well-formed artifact of `kind`
   * (else ANOMALY/ARTIFACT); the store's verifier then decides, and any refusal there is ANOMALY at `g`.
   */
  #resolveWithEvidence(
    signed: unknown,
    kind: typeof ArtifactKind.RECONCILIATION | typeof ArtifactKind.RELEASE,
    g: RefusalGate,
    resolve: (contractId: string, doc: Artifact) => RecoveryContract,
  ): RecoveryContract {
    let contractId: string | null = null;
    let artifactDigest: string | null = null;
    try {
      const doc = gate('ANOMALY', RefusalGate.ARTIFACT, () => {
        const d = validateArtifactDocument(signed);
        if (d.kind !== kind) throw new TypeError('kind');
        return d as Extract<Artifact, { kind: typeof kind }>;
      });
      contractId = doc.payload.contract_id;
      artifactDigest = artifactDigestOf(doc);
      return gate('ANOMALY', g, () => resolve(doc.payload.contract_id, doc));
    } catch (e) {
      if (e instanceof GateFailure) throw this.#refusals.refuse(e.refusalClass, e.gate, { contractId, artifactDigest });
      throw this.#refusals.refuse('ANOMALY', g, { contractId, artifactDigest });
    }
  }
}
