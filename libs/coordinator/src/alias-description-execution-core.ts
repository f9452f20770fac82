import {
  AdapterInputError,
  AliasDescriptionAdapter as ALIAS_ADAPTER,
  TargetResolutionError,
  aliasTargetFingerprint,
  normalizeAliasDescriptionIntent,
  parseAliasDescriptionInput,
} from '@pfsense-mcp/adapters';
import type { AliasTarget } from '@pfsense-mcp/adapters';
import {
  ArtifactFormatError,
  ArtifactKind,
  applianceBindingDigest,
  checkCurrentness,
  createPendingAuthorizationRequest,
  createPendingConfirmationRequest,
  createPendingReconciliationRequest,
  createPendingReleaseRequest,
  createPreparedExecutionIntentV1,
  encodeArtifact,
  executionIntentDigest,
  parseArtifact,
  planDigestOf,
  verifyArtifactSignature,
} from '@pfsense-mcp/authorization';
import type {
  AliasChangeReview,
  ApplianceBinding,
  Artifact,
  PendingConfirmationRequest,
  PreparedExecutionIntentV1,
  SigningKey,
} from '@pfsense-mcp/authorization';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { aliasAttemptStepId, aliasOperationId } from './alias-operation-id.js';
import { ArtifactDirectory } from './artifact-directory.js';
import { configHistoryCorroborationOf } from './config-history-corroboration-of.js';
import { authorizationRequestName, parseAuthorizationRequestName } from './authorization-request-name.js';
import { InboxIndex, selectorOf } from './inbox-index.js';
import { confirmationRequestName, reconciliationRequestName, releaseRequestName } from './pending-request-names.js';
import { writeOperationsView } from './write-operations-view.js';
import type { WriteOperationsPage, WriteOperationsQuery } from './write-operations-view.js';
import type { ArtifactSelector } from './inbox-index.js';
import { CoordinatorInputError } from './coordinator-input-error.js';
import { CoordinatorRefusedError } from './coordinator-refused-error.js';
import { ExecutionCoordinator } from './execution-coordinator.js';
import { OperationStatus, isClosedWithoutEffect, statusOfContract } from './operation-outcome.js';
import { prepareAliasExecutionIntent } from './prepare-alias-execution-intent.js';
import { ApplianceIdentityError } from './read-appliance-binding.js';
import { RefusalGate } from './refusal-audit.js';
import { WRITE_REQUEST_LIMITS } from './write-request-limits.js';

/** The caller's request: change one alias's description. */
export interface AliasDescriptionChangeInput {
  readonly aliasName: string;
  readonly description: string;
}

/** What one call returns (frozen). Never says which gate refused. */
export interface AliasDescriptionChangeResult {
  readonly status: OperationStatus;
  /** Derived from appliance binding + alias + description; always null when `refused` (one shape for every refusal). */
  readonly operationId: string | null;
  /** The operation's current contract, when one exists (null when `refused`). */
  readonly contractId: string | null;
  /** The outbox file (name only) the operator should review and sign now, when one is pending. */
  readonly pendingRequest: string | null;
}

export interface AliasDescriptionExecutionCoreOptions {
  readonly coordinator: ExecutionCoordinator;
  /**
   * Fixed directories from configuration (created 0700 on first use; never caller input). Tests may pass
   * an ArtifactDirectory opened with its test-only owner seam instead of a path.
   */
  readonly inboxDirectory: string | ArtifactDirectory;
  readonly outboxDirectory: string | ArtifactDirectory;
  /** The server's own request key (role server-request): it signs pending requests, nothing else. */
  readonly serverKey: SigningKey;
  /** The pinned public half of serverKey (role server-request): re-verifies the server's own outbox files. */
  readonly serverAuthorities: PinnedAuthoritySet;
  readonly clock: () => number;
  /** Validity of a pending authorization / reconciliation / release request (default 1 h, max 7 days). */
  readonly requestLifetimeMs?: number;
}

const DEFAULT_REQUEST_LIFETIME_MS = 60 * 60 * 1000;
const MAX_REQUEST_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const ADAPTER = ALIAS_ADAPTER;

interface InboxEntry {
  readonly fileName: string;
  readonly artifact: Artifact;
}

/**
 * Every `refused` has one shape — no operation id, contract id or pending request — whichever gate refused
 * and whether the binding could be read at all (docs/DESIGN.md §6: `refused` never says which gate refused;
 * an id present for some gates and absent for others would say it). The ids are in the audit.
 */
function result(status: OperationStatus, operationId: string | null, contractId: string | null = null, pendingRequest: string | null = null): AliasDescriptionChangeResult {
  if (status === OperationStatus.REFUSED) return REFUSED;
  return Object.freeze({ status, operationId, contractId, pendingRequest });
}

const REFUSED: AliasDescriptionChangeResult = Object.freeze({ status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null });

const ARGUMENT_NAMES: Readonly<Record<string, string>> = Object.freeze({ alias_name: 'aliasName', description: 'description' });

/**
 * The alias-description execution core (docs/DESIGN.md §6): one asynchronous operation per
 * (appliance, alias, description). Each call reads the operation's durable state from the contract store
 * and moves it as far as the signed artifacts in the inbox allow: pending authorization request → signed
 * authorization → PREPARED contract → pending confirmation request → signed confirmation → the executor →
 * VERIFIED (or FAILED / RECONCILIATION), writing the next pending request to the outbox when one is
 * needed. It holds no state of its own between calls.
 */
export class AliasDescriptionExecutionCore {
  readonly #coordinator: ExecutionCoordinator;
  readonly #inbox: ArtifactDirectory;
  readonly #inboxIndex: InboxIndex;
  readonly #outbox: ArtifactDirectory;
  readonly #serverKey: SigningKey;
  readonly #serverAuthorities: PinnedAuthoritySet;
  readonly #clock: () => number;
  readonly #requestLifetimeMs: number;

  constructor(options: AliasDescriptionExecutionCoreOptions) {
    const fn = 'AliasDescriptionExecutionCore';
    if (options === null || typeof options !== 'object') throw new TypeError(`${fn}: "options" must be an object`);
    if (!(options.coordinator instanceof ExecutionCoordinator)) throw new TypeError(`${fn}: "coordinator" must be an ExecutionCoordinator`);
    if (options.serverKey === null || typeof options.serverKey !== 'object' || !(options.serverKey.privateKey instanceof Uint8Array)) {
      throw new TypeError(`${fn}: "serverKey" must be {privateKey}`);
    }
    if (!(options.serverAuthorities instanceof PinnedAuthoritySet)) throw new TypeError(`${fn}: "serverAuthorities" must be a PinnedAuthoritySet`);
    if (typeof options.clock !== 'function') throw new TypeError(`${fn}: "clock" must be a function returning UTC milliseconds`);
    const lifetime = options.requestLifetimeMs ?? DEFAULT_REQUEST_LIFETIME_MS;
    if (!Number.isSafeInteger(lifetime) || lifetime < 1000 || lifetime > MAX_REQUEST_LIFETIME_MS) {
      throw new TypeError(`${fn}: "requestLifetimeMs" must be an integer between 1000 and ${MAX_REQUEST_LIFETIME_MS}`);
    }
    const pathOf = (d: unknown): string | null => (typeof d === 'string' ? d : d instanceof ArtifactDirectory ? d.path : null);
    const inboxPath = pathOf(options.inboxDirectory);
    const outboxPath = pathOf(options.outboxDirectory);
    if (inboxPath === null || outboxPath === null || inboxPath === outboxPath) {
      throw new TypeError(`${fn}: "inboxDirectory" and "outboxDirectory" must be two different paths`);
    }
    this.#coordinator = options.coordinator;
    this.#inbox = options.inboxDirectory instanceof ArtifactDirectory ? options.inboxDirectory : ArtifactDirectory.open(inboxPath);
    this.#outbox = options.outboxDirectory instanceof ArtifactDirectory ? options.outboxDirectory : ArtifactDirectory.open(outboxPath);
    this.#inboxIndex = new InboxIndex(this.#inbox);
    this.#serverKey = Object.freeze({ privateKey: new Uint8Array(options.serverKey.privateKey) });
    this.#serverAuthorities = options.serverAuthorities;
    this.#clock = options.clock;
    this.#requestLifetimeMs = lifetime;
    Object.freeze(this);
  }

  /**
   * requested | awaiting_confirmation | verified | reconciliation_required | refused, for the operation
   * these arguments name. Throws CoordinatorInputError for invalid arguments (naming the argument) and
   * an unknown alias; every other refusal is the `refused` status. Never sends a non-GET request except
   * through the executor, for a contract the operator confirmed.
   */
  async requestAliasDescriptionChange(input: AliasDescriptionChangeInput): Promise<AliasDescriptionChangeResult> {
    const checked = this.#checkInput(input);
    if (!this.#coordinator.isWriteEnabled()) {
      this.#coordinator.refuse('ANOMALY', RefusalGate.CAPABILITY);
      return result(OperationStatus.REFUSED, null);
    }
    let binding: ApplianceBinding;
    try {
      binding = await this.#coordinator.readApplianceBinding();
    } catch (e) {
      // No usable appliance id is an anomaly; a failed read is I/O, audited like the freshness gate's (STALE).
      if (e instanceof ApplianceIdentityError && e.code === 'NO_APPLIANCE_ID') this.#coordinator.refuse('ANOMALY', RefusalGate.APPLIANCE_BINDING);
      else this.#coordinator.refuse('STALE', RefusalGate.FRESHNESS);
      return result(OperationStatus.REFUSED, null);
    }
    const bindingDigest = applianceBindingDigest(binding);
    const operationId = aliasOperationId(bindingDigest, checked.alias_name, checked.description);
    const before = this.#latestVersion(operationId);
    try {
      return await this.#advance(checked, binding, bindingDigest, operationId);
    } catch (e) {
      if (e instanceof CoordinatorInputError) throw e;
      // Another call (this process or another one on the same store) moved the operation meanwhile — it
      // consumed the authorization first, or began the execution: report the operation from its durable
      // state once more instead of a refusal (one operation, whoever won). The store decided the race.
      const now = this.#latestVersion(operationId);
      if (now !== null && now !== before) {
        try {
          return await this.#advance(checked, binding, bindingDigest, operationId);
        } catch (again) {
          if (again instanceof CoordinatorInputError) throw again;
        }
      }
      // The uniform refusal: the gate (if any) was audited where it failed.
      return result(OperationStatus.REFUSED, operationId);
    }
  }

  /** The operation's latest contract and state version, or null (compared to see whether a race moved it). */
  #latestVersion(operationId: string): string | null {
    try {
      const contracts = this.#coordinator.contractsOf(operationId);
      const latest = contracts[contracts.length - 1];
      return latest === undefined ? null : `${latest.contract_id}:${latest.state_version}`;
    } catch {
      return null;
    }
  }

  #checkInput(input: AliasDescriptionChangeInput): { alias_name: string; description: string } {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', null, 'must be an object {aliasName, description}');
    }
    const extra = Object.keys(input).find((k) => k !== 'aliasName' && k !== 'description');
    if (extra !== undefined) throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', 'UNKNOWN_FIELD', 'must have only aliasName and description');
    try {
      return parseAliasDescriptionInput({ alias_name: input.aliasName, description: input.description });
    } catch (e) {
      if (e instanceof AdapterInputError) {
        const argument = ARGUMENT_NAMES[e.argument] ?? 'input';
        throw new CoordinatorInputError('INVALID_ARGUMENT', argument, e.code, 'is invalid');
      }
      throw new CoordinatorInputError('INVALID_ARGUMENT', 'input', null, 'is invalid');
    }
  }

  async #advance(
    input: { alias_name: string; description: string },
    binding: ApplianceBinding,
    bindingDigest: string,
    operationId: string,
  ): Promise<AliasDescriptionChangeResult> {
    this.#coordinator.expireDue();
    const contracts = this.#coordinator.contractsOf(operationId);
    const latest = contracts[contracts.length - 1];
    if (latest !== undefined && !isClosedWithoutEffect(latest)) return this.#resume(latest, input, binding, bindingDigest, operationId);

    // No open contract: a new attempt (the n-th attempt has its own step id, so its plan is new).
    let target: AliasTarget;
    try {
      target = await this.#coordinator.readAlias(input.alias_name);
    } catch (e) {
      if (e instanceof TargetResolutionError && e.code === 'NOT_FOUND') {
        throw new CoordinatorInputError('UNKNOWN_ALIAS', 'aliasName', 'NOT_FOUND', 'names no alias on the appliance');
      }
      throw new CoordinatorRefusedError();
    }
    let intent;
    try {
      intent = normalizeAliasDescriptionIntent(input, target);
    } catch {
      // A no-op (the description is already the requested one) is refused (docs/DESIGN.md §5).
      throw new CoordinatorRefusedError();
    }
    const prepared = prepareAliasExecutionIntent(target, intent, bindingDigest);
    const stepId = aliasAttemptStepId(contracts.length + 1);
    const planDigest = planDigestOf({ operationId, steps: [{ step_id: stepId, execution_intent_digest: prepared.executionIntentDigest }] });

    const authorizations = this.#inboxMatches(operationId, (a) => a.kind === ArtifactKind.PLAN_AUTHORIZATION && a.planDigest === planDigest);
    if (authorizations.length === 0) {
      const pending = this.#ensureAuthorizationRequest(operationId, stepId, planDigest, prepared, binding, input.alias_name);
      return result(OperationStatus.REQUESTED, operationId, null, pending);
    }
    const [only] = authorizations;
    if (only === undefined || authorizations.length > 1) throw this.#coordinator.refuse('ANOMALY', RefusalGate.INBOX, { operationId });
    const contract = await this.#coordinator.authorizeAndCreate({
      authorization: only.artifact,
      preparedIntent: prepared.executionIntent,
      stepId,
    });
    const pending = this.#ensureConfirmationRequest(contract, prepared.executionIntent, prepared.review, binding);
    return result(OperationStatus.AWAITING_CONFIRMATION, operationId, contract.contract_id, pending);
  }

  /** Continues an operation from its contract's durable, authenticated state. */
  async #resume(
    contract: RecoveryContract,
    input: { alias_name: string; description: string },
    binding: ApplianceBinding,
    bindingDigest: string,
    operationId: string,
  ): Promise<AliasDescriptionChangeResult> {
    let c = contract;
    const id = c.contract_id;
    if (c.state === RecoveryState.PREPARING) c = this.#coordinator.completePreparation(id);
    if (c.state === RecoveryState.PREPARED) {
      const intent = this.#intentOf(c, input, bindingDigest);
      if (c.confirmation !== null) return this.#afterHandoff(await this.#coordinator.resumeConfirmed(id, intent), input, binding, bindingDigest, operationId);
      const confirmations = this.#inboxMatches(operationId, (a) => a.kind === ArtifactKind.CONFIRMATION && a.contractId === id);
      if (confirmations.length === 0) {
        const review = await this.#reviewForConfirmation(c, input);
        const pending = this.#ensureConfirmationRequest(c, intent, review, binding);
        return result(OperationStatus.AWAITING_CONFIRMATION, operationId, id, pending);
      }
      const [only] = confirmations;
      if (only === undefined || confirmations.length > 1) throw this.#coordinator.refuse('ANOMALY', RefusalGate.INBOX, { operationId, contractId: id });
      return this.#afterHandoff(await this.#coordinator.confirmAndHandoff(id, only.artifact, intent), input, binding, bindingDigest, operationId);
    }
    if (c.state === RecoveryState.RECONCILIATION && c.reconciliation !== null) {
      const version = c.state_version;
      const evidence = this.#inboxMatches(
        operationId,
        (a) => a.kind === ArtifactKind.RECONCILIATION && a.contractId === id && a.stateVersion === version,
      );
      if (evidence.length === 0) {
        const pending = await this.#ensureReconciliationRequest(c, this.#boundAppliance(c, input, binding, bindingDigest));
        return result(OperationStatus.RECONCILIATION_REQUIRED, operationId, id, pending);
      }
      const [only] = evidence;
      if (only === undefined || evidence.length > 1) throw this.#coordinator.refuse('ANOMALY', RefusalGate.INBOX, { operationId, contractId: id });
      return this.#after(this.#coordinator.resumeReconciliation(only.artifact), operationId);
    }
    if (c.state === RecoveryState.ROLLBACK_FAILED && c.reservation_release === null) {
      const version = c.state_version;
      const releases = this.#inboxMatches(
        operationId,
        (a) => a.kind === ArtifactKind.RELEASE && a.contractId === id && a.stateVersion === version,
      );
      if (releases.length === 0) {
        const pending = this.#ensureReleaseRequest(c, this.#boundAppliance(c, input, binding, bindingDigest));
        return result(OperationStatus.RECONCILIATION_REQUIRED, operationId, id, pending);
      }
      const [only] = releases;
      if (only === undefined || releases.length > 1) throw this.#coordinator.refuse('ANOMALY', RefusalGate.INBOX, { operationId, contractId: id });
      return this.#after(this.#coordinator.releaseRollbackFailedReservation(only.artifact), operationId);
    }
    // VERIFIED (authenticated by the store) → verified, also after the change, instead of the no-op
    // refusal; EXECUTING / ROLLING_BACK → reconciliation_required (nothing uncertain is ever success).
    return result(statusOfContract(c), operationId, id);
  }

  /**
   * After the executor: an ambiguous outcome (RECONCILIATION) gets its reconciliation request written now, so
   * the very answer that reports it names the file the operator must sign (the RECONCILIATION branch of
   * #resume never hands off again, so this recursion is one level deep).
   */
  async #afterHandoff(
    contract: RecoveryContract,
    input: { alias_name: string; description: string },
    binding: ApplianceBinding,
    bindingDigest: string,
    operationId: string,
  ): Promise<AliasDescriptionChangeResult> {
    if (contract.state === RecoveryState.RECONCILIATION && contract.reconciliation !== null) {
      return this.#resume(contract, input, binding, bindingDigest, operationId);
    }
    return this.#after(contract, operationId);
  }

  #after(contract: RecoveryContract, operationId: string): AliasDescriptionChangeResult {
    return result(statusOfContract(contract), operationId, contract.contract_id);
  }

  /**
   * The prepared intent of an existing contract, rebuilt from the caller's arguments, the fresh appliance
   * binding and the contract's own digests — and accepted only if it digests to the contract's signed
   * execution-intent provenance (so another appliance, or other arguments, cannot resume it).
   */
  #intentOf(c: RecoveryContract, input: { alias_name: string; description: string }, bindingDigest: string): PreparedExecutionIntentV1 {
    try {
      const intent = createPreparedExecutionIntentV1({
        capability: ADAPTER.capability,
        endpoint_symbol: ADAPTER.endpointSymbol,
        method: ADAPTER.httpMethod,
        adapter_semantics_version: ADAPTER.semanticsVersion,
        natural_target: { alias_name: input.alias_name },
        precondition_fingerprint: c.target_fingerprint,
        normalized_intent: {
          operation: 'set_firewall_alias_description_v1',
          raw_target_hint: { alias_name: input.alias_name },
          new_description: input.description,
        },
        rollback_snapshot_digest: c.snapshot_digest,
        rollback_plan_version: ADAPTER.rollbackPlanVersion,
        appliance_binding_digest: bindingDigest,
      });
      if (executionIntentDigest(intent) === c.provenance.execution_intent_digest) return intent;
    } catch {
      // fall through to the refusal
    }
    throw this.#coordinator.refuse('ANOMALY', RefusalGate.BINDING, { operationId: c.operation_id, contractId: c.contract_id });
  }

  /**
   * The fresh appliance binding, accepted for a reconciliation or release request only if it is the one the
   * contract's signed execution intent names (#intentOf refuses otherwise): the operator is shown the
   * appliance the change was made on, never merely the one the server talks to now.
   */
  #boundAppliance(
    c: RecoveryContract,
    input: { alias_name: string; description: string },
    binding: ApplianceBinding,
    bindingDigest: string,
  ): ApplianceBinding {
    this.#intentOf(c, input, bindingDigest);
    return binding;
  }

  // ------------------------------------------------------------------ inbox

  /**
   * Every inbox candidate is checked on every call (owner, mode, no symlink, size: `statKey`) and parsed
   * once per change (the InboxIndex); a file that fails any of that poisons the scan (fail closed: it is
   * never treated as absent), and is left in place. Only the files `relevant` selects are opened again, in
   * full, and returned — discovery grants nothing: each is fully verified by the gate it is handed to.
   */
  #inboxMatches(operationId: string, relevant: (a: ArtifactSelector) => boolean): readonly InboxEntry[] {
    const out: InboxEntry[] = [];
    try {
      for (const { fileName, selector } of this.#inboxIndex.scan()) {
        if (!relevant(selector)) continue;
        const artifact = parseArtifact(this.#inbox.read(fileName));
        // Changed between the scan and this read: refused rather than used unselected.
        if (!relevant(selectorOf(artifact))) throw new CoordinatorRefusedError();
        out.push(Object.freeze({ fileName, artifact }));
      }
    } catch {
      throw this.#coordinator.refuse('ANOMALY', RefusalGate.INBOX, { operationId });
    }
    return out;
  }

  // ------------------------------------------------------------------ outbox

  /** One of the server's own outbox files, read and verified (an unsafe or forged file fails closed). */
  #ownOutboxFile(fileName: string, kind: Artifact['kind']): Artifact {
    try {
      const artifact = parseArtifact(this.#outbox.read(fileName));
      if (artifact.kind !== kind || !('proof' in artifact)) throw new CoordinatorRefusedError();
      verifyArtifactSignature(artifact, this.#serverAuthorities);
      return artifact;
    } catch {
      throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX);
    }
  }

  /**
   * The operations the store knows, newest first (docs/DESIGN.md §6): ids, status, contract state, times
   * and the pending request's file name when it is in the outbox — never a value. Read-only: nothing is
   * expired, moved or written. `limit` 1..1000, `offset` ≥ 0, `operationId` a safe token when given.
   */
  listWriteOperations(query: WriteOperationsQuery): WriteOperationsPage {
    const fn = 'listWriteOperations';
    if (query === null || typeof query !== 'object') throw new TypeError(`${fn}: "query" must be an object`);
    if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > 1000) throw new TypeError(`${fn}: "limit" must be an integer in 1..1000`);
    if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new TypeError(`${fn}: "offset" must be a non-negative integer`);
    if (query.operationId !== undefined && (typeof query.operationId !== 'string' || !/^op-[0-9a-f]{64}$/.test(query.operationId))) {
      throw new TypeError(`${fn}: "operationId" must be op- followed by 64 lowercase hex`);
    }
    const contracts = query.operationId === undefined ? this.#coordinator.allContracts() : this.#coordinator.contractsOf(query.operationId);
    return writeOperationsView(contracts, query, (name) => this.#outbox.has(name));
  }

  /**
   * Artifact files (candidate `*.json` names) in the inbox and the outbox, counted by name only — nothing
   * is opened — and whether they have piled up past WRITE_REQUEST_LIMITS.leftoverWarningFiles.
   */
  artifactCounts(): { readonly inboxFiles: number; readonly outboxFiles: number; readonly pileUp: boolean } {
    const inboxFiles = this.#inbox.list().length;
    const outboxFiles = this.#outbox.list().length;
    return Object.freeze({ inboxFiles, outboxFiles, pileUp: inboxFiles + outboxFiles >= WRITE_REQUEST_LIMITS.leftoverWarningFiles });
  }

  /**
   * Builds one pending request. A request whose alias is beyond the authorization library's size bounds
   * (MAX_ALIAS_MEMBERS members, MAX_ALIAS_STATE_BYTES per alias state) is refused before anything is written,
   * audited STALE with gate SIZE_LIMIT (value-free: it may pass once the alias is smaller).
   */
  #build<T>(build: () => T, context: { operationId?: string; contractId?: string }): T {
    try {
      return build();
    } catch (e) {
      if (e instanceof ArtifactFormatError && e.code === 'TOO_LARGE') throw this.#coordinator.refuse('STALE', RefusalGate.SIZE_LIMIT, context);
      throw e;
    }
  }

  #write(fileName: string, artifact: Artifact): string {
    let text: string;
    try {
      text = encodeArtifact(artifact);
    } catch (e) {
      if (e instanceof ArtifactFormatError && e.code === 'TOO_LARGE') throw this.#coordinator.refuse('STALE', RefusalGate.SIZE_LIMIT);
      throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX);
    }
    try {
      this.#outbox.write(fileName, text);
    } catch {
      throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX);
    }
    return fileName;
  }

  /**
   * The operation's current pending authorization request, or a new one within WRITE_REQUEST_LIMITS. The
   * outbox is scanned by name only (authorization-request-name.ts): names of other operations, expired
   * requests and other kinds are skipped without being opened. What can concern this call is read and
   * verified: this plan's unexpired request (reused), and this alias's unexpired, unanswered requests
   * (counted). Other aliases' requests are counted by name, and a request is answered when the store holds
   * a contract created from its plan. Over a limit → STALE / REQUEST_LIMIT, nothing written.
   */
  #ensureAuthorizationRequest(
    operationId: string,
    stepId: string,
    planDigest: string,
    prepared: { executionIntent: PreparedExecutionIntentV1; review: AliasChangeReview },
    binding: ApplianceBinding,
    aliasName: string,
  ): string {
    const now = this.#clock();
    const aliasKey = ADAPTER.identityDigest(Object.freeze({ alias_name: aliasName })).slice(0, 16);
    const planPrefix = planDigest.slice(0, 16);
    let names: readonly string[];
    try {
      names = this.#outbox.list();
    } catch {
      throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX, { operationId });
    }
    const live = names
      .map((fileName) => ({ fileName, parts: parseAuthorizationRequestName(fileName) }))
      .filter((e): e is { fileName: string; parts: NonNullable<typeof e.parts> } => e.parts !== null && e.parts.expiresAt > now);

    // This plan's current request: reused (no new file, no count).
    for (const e of live) {
      if (e.parts.operationId !== operationId || e.parts.planPrefix !== planPrefix) continue;
      const artifact = this.#ownOutboxFile(e.fileName, ArtifactKind.AUTHORIZATION_REQUEST);
      if (artifact.kind !== ArtifactKind.AUTHORIZATION_REQUEST || artifact.payload.plan_digest !== planDigest) continue;
      try {
        checkCurrentness(artifact, now);
        return e.fileName;
      } catch {
        // Not current after all (issued in the future, or expired since the name was chosen): not reused.
      }
    }

    const contractsByOperation = new Map<string, readonly RecoveryContract[]>();
    const answered = (parts: { operationId: string; planPrefix: string }): boolean => {
      let contracts = contractsByOperation.get(parts.operationId);
      if (contracts === undefined) {
        contracts = this.#coordinator.contractsOf(parts.operationId);
        contractsByOperation.set(parts.operationId, contracts);
      }
      return contracts.some((c) => c.provenance.plan_digest.startsWith(parts.planPrefix));
    };
    const outstanding = live.filter((e) => !answered(e.parts));
    const ofAlias = outstanding.filter((e) => e.parts.aliasKey === aliasKey);
    // This alias's outstanding requests concern this call: each must be the server's own, as named.
    for (const e of ofAlias) {
      const artifact = this.#ownOutboxFile(e.fileName, ArtifactKind.AUTHORIZATION_REQUEST);
      if (artifact.kind !== ArtifactKind.AUTHORIZATION_REQUEST || artifact.payload.expires_at !== e.parts.expiresAt || artifact.payload.operation_id !== e.parts.operationId) {
        throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX, { operationId });
      }
    }
    if (ofAlias.length >= WRITE_REQUEST_LIMITS.perAlias || outstanding.length >= WRITE_REQUEST_LIMITS.outbox) {
      throw this.#coordinator.refuse('STALE', RefusalGate.REQUEST_LIMIT, { operationId });
    }

    const expiresAt = now + this.#requestLifetimeMs;
    const request = this.#build(() => createPendingAuthorizationRequest(
      {
        operationId,
        stepId,
        riskClass: 'low',
        executionIntent: prepared.executionIntent,
        appliance: binding,
        review: prepared.review,
        issuedAt: now,
        expiresAt,
      },
      this.#serverKey,
    ), { operationId });
    return this.#write(authorizationRequestName({ aliasKey, operationId, planPrefix, expiresAt }), request);
  }

  #ensureConfirmationRequest(
    c: RecoveryContract,
    intent: PreparedExecutionIntentV1,
    review: AliasChangeReview,
    binding: ApplianceBinding,
  ): string {
    const name = confirmationRequestName(c.contract_id);
    if (this.#outbox.has(name)) return name;
    const request = this.#build(() => createPendingConfirmationRequest(
      {
        contractId: c.contract_id,
        operationId: c.operation_id,
        intentDigest: c.intent_digest,
        targetFingerprint: c.target_fingerprint,
        executionIntent: intent,
        appliance: binding,
        review,
        issuedAt: this.#clock(),
        expiresAt: c.expires_at,
      },
      this.#serverKey,
    ), { operationId: c.operation_id, contractId: c.contract_id });
    return this.#write(name, request);
  }

  /** The review of a PREPARED contract whose confirmation request is missing: only from a read equal to its pre-state. */
  async #reviewForConfirmation(c: RecoveryContract, input: { alias_name: string; description: string }): Promise<AliasChangeReview> {
    const existing = this.#reviewFromOutbox(c);
    if (existing !== null) return existing;
    let target: AliasTarget;
    try {
      target = await this.#coordinator.readAlias(input.alias_name);
    } catch {
      throw this.#coordinator.refuse('STALE', RefusalGate.FRESHNESS, { contractId: c.contract_id });
    }
    if (aliasTargetFingerprint(target) !== c.target_fingerprint) throw this.#coordinator.refuse('STALE', RefusalGate.FRESHNESS, { contractId: c.contract_id });
    const s = ADAPTER.snapshotOf(target);
    return Object.freeze({
      pre_state: Object.freeze({ name: s.name, type: s.type, descr: s.descr, address: [...s.address], detail: [...s.detail] }),
      new_description: input.description,
    });
  }

  /**
   * The review (pre-state and new description) of a contract, from the server's own signed confirmation
   * request — accepted only if the pre-state it shows has the contract's fingerprint.
   */
  #reviewFromOutbox(c: RecoveryContract): AliasChangeReview | null {
    const name = confirmationRequestName(c.contract_id);
    if (!this.#outbox.has(name)) return null;
    try {
      const doc = parseArtifact(this.#outbox.read(name));
      if (doc.kind !== ArtifactKind.CONFIRMATION_REQUEST) return null;
      verifyArtifactSignature(doc, this.#serverAuthorities);
      const p = (doc as PendingConfirmationRequest).payload;
      if (p.contract_id !== c.contract_id || p.target_fingerprint !== c.target_fingerprint) return null;
      if (aliasTargetFingerprint(p.review.pre_state) !== c.target_fingerprint) return null;
      return p.review;
    } catch {
      return null;
    }
  }

  async #ensureReconciliationRequest(c: RecoveryContract, appliance: ApplianceBinding): Promise<string> {
    const name = reconciliationRequestName(c.contract_id, c.state_version);
    if (this.#outbox.has(name)) return name;
    const review = this.#reviewFromOutbox(c);
    if (review === null) throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    // The executor's read-only observation (zero sends), and the observed alias shown for review — only
    // if a read now has exactly the fingerprint the executor observed.
    const observation = await this.#coordinator.observeReconciliationTarget(c.contract_id);
    let observed: AliasTarget;
    try {
      observed = await this.#coordinator.readAlias(review.pre_state.name);
    } catch {
      throw this.#coordinator.refuse('STALE', RefusalGate.RECONCILIATION, { contractId: c.contract_id });
    }
    if (aliasTargetFingerprint(observed) !== observation.observedFingerprint) {
      throw this.#coordinator.refuse('STALE', RefusalGate.RECONCILIATION, { contractId: c.contract_id });
    }
    const now = this.#clock();
    const snapshot = ADAPTER.snapshotOf(observed);
    const request = this.#build(() => createPendingReconciliationRequest(
      {
        contractId: c.contract_id,
        operationId: c.operation_id,
        stateVersion: observation.stateVersion,
        origin: observation.origin,
        observedFingerprint: observation.observedFingerprint,
        observedLocator: observation.observedLifecycleLocator,
        observedState: { name: snapshot.name, type: snapshot.type, descr: snapshot.descr, address: [...snapshot.address], detail: [...snapshot.detail] },
        review,
        // What pfSense's config history showed after the send, as the contract recorded it (corroboration only).
        configHistory: configHistoryCorroborationOf(observation.configHistory),
        appliance,
        targetFingerprint: c.target_fingerprint,
        intentDigest: c.intent_digest,
        issuedAt: now,
        expiresAt: now + this.#requestLifetimeMs,
      },
      this.#serverKey,
    ), { operationId: c.operation_id, contractId: c.contract_id });
    return this.#write(name, request);
  }

  #ensureReleaseRequest(c: RecoveryContract, appliance: ApplianceBinding): string {
    const name = releaseRequestName(c.contract_id, c.state_version);
    if (this.#outbox.has(name)) return name;
    const review = this.#reviewFromOutbox(c);
    if (review === null) throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    const now = this.#clock();
    const request = this.#build(() => createPendingReleaseRequest(
      {
        contractId: c.contract_id,
        operationId: c.operation_id,
        stateVersion: c.state_version,
        review,
        appliance,
        targetFingerprint: c.target_fingerprint,
        intentDigest: c.intent_digest,
        issuedAt: now,
        expiresAt: now + this.#requestLifetimeMs,
      },
      this.#serverKey,
    ), { operationId: c.operation_id, contractId: c.contract_id });
    return this.#write(name, request);
  }

  // ------------------------------------------------------------------ the operator's recovery commands

  /**
   * `pfsense-mcp admin rollback`: the executor's rollback of a VERIFIED contract (its own checks; at most one
   * send). Returns the contract after: ROLLED_BACK, ROLLBACK_FAILED or RECONCILIATION.
   */
  async rollback(contractId: string): Promise<RecoveryContract> {
    return this.#coordinator.requestRollback(contractId);
  }

  /** The authenticated contract (for the admin commands' state checks). */
  loadContract(contractId: string): RecoveryContract {
    return this.#coordinator.loadContract(contractId);
  }

  /**
   * `admin reconcile emit` / `admin release emit`: a fresh executor observation (reconciliation) and a
   * server-signed request in the outbox for a RECONCILIATION (forward or rollback origin) or unreleased
   * ROLLBACK_FAILED contract, bound to the appliance the change was made on (the binding read now must be the
   * one the server's own confirmation request named). An existing request for this state version is
   * returned as already pending. Refuses (CoordinatorRefusedError) any other state.
   */
  async emitRecoveryRequest(contractId: string, kind: 'reconciliation' | 'release'): Promise<{ readonly contract: RecoveryContract; readonly pendingRequest: string; readonly alreadyPending: boolean }> {
    const c = this.#coordinator.loadContract(contractId);
    if (!this.#awaits(c, kind)) throw this.#coordinator.refuse('ANOMALY', kind === 'release' ? RefusalGate.RELEASE : RefusalGate.RECONCILIATION, { contractId });
    const name = kind === 'release' ? releaseRequestName(c.contract_id, c.state_version) : reconciliationRequestName(c.contract_id, c.state_version);
    if (this.#outbox.has(name)) return Object.freeze({ contract: c, pendingRequest: name, alreadyPending: true });
    const appliance = await this.#applianceOfContract(c);
    const pending = kind === 'release' ? this.#ensureReleaseRequest(c, appliance) : await this.#ensureReconciliationRequest(c, appliance);
    return Object.freeze({ contract: c, pendingRequest: pending, alreadyPending: false });
  }

  /**
   * `admin reconcile resume` / `admin release resume`: the one operator-signed evidence for this contract and
   * state version in the inbox resolves it (zero sends). None or more than one → refused.
   */
  resumeRecovery(contractId: string, kind: 'reconciliation' | 'release'): RecoveryContract {
    const c = this.#coordinator.loadContract(contractId);
    const gateOf = kind === 'release' ? RefusalGate.RELEASE : RefusalGate.RECONCILIATION;
    if (!this.#awaits(c, kind)) throw this.#coordinator.refuse('ANOMALY', gateOf, { contractId });
    const wanted = kind === 'release' ? ArtifactKind.RELEASE : ArtifactKind.RECONCILIATION;
    const version = c.state_version;
    const evidence = this.#inboxMatches(c.operation_id, (a) => a.kind === wanted && a.contractId === c.contract_id && a.stateVersion === version);
    const [only] = evidence;
    if (only === undefined || evidence.length > 1) throw this.#coordinator.refuse('ANOMALY', RefusalGate.INBOX, { operationId: c.operation_id, contractId });
    return kind === 'release' ? this.#coordinator.releaseRollbackFailedReservation(only.artifact) : this.#coordinator.resumeReconciliation(only.artifact);
  }

  #awaits(c: RecoveryContract, kind: 'reconciliation' | 'release'): boolean {
    return kind === 'release'
      ? c.state === RecoveryState.ROLLBACK_FAILED && c.reservation_release === null
      : c.state === RecoveryState.RECONCILIATION && c.reconciliation !== null;
  }

  /** The binding read now, accepted only if it is the one the server's own confirmation request for c named. */
  async #applianceOfContract(c: RecoveryContract): Promise<ApplianceBinding> {
    const name = confirmationRequestName(c.contract_id);
    let expected: string | null = null;
    try {
      const doc = parseArtifact(this.#outbox.read(name));
      if (doc.kind === ArtifactKind.CONFIRMATION_REQUEST) {
        verifyArtifactSignature(doc, this.#serverAuthorities);
        const p = (doc as PendingConfirmationRequest).payload;
        if (p.contract_id === c.contract_id) expected = p.appliance_binding_digest;
      }
    } catch {
      expected = null;
    }
    if (expected === null) throw this.#coordinator.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    let binding: ApplianceBinding;
    try {
      binding = await this.#coordinator.readApplianceBinding();
    } catch {
      throw this.#coordinator.refuse('STALE', RefusalGate.FRESHNESS, { contractId: c.contract_id });
    }
    if (applianceBindingDigest(binding) !== expected) throw this.#coordinator.refuse('ANOMALY', RefusalGate.APPLIANCE_BINDING, { contractId: c.contract_id });
    return binding;
  }
}
