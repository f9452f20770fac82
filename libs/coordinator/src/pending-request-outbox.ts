import {
  ArtifactFormatError,
  ArtifactKind,
  checkCurrentness,
  createPendingAuthorizationRequest,
  createPendingConfirmationRequest,
  createPendingReconciliationRequest,
  createPendingReleaseRequest,
  createPendingRollbackRequest,
  encodeArtifact,
  parseArtifact,
  verifyArtifactSignature,
} from '@pfsense-mcp/authorization';
import type {
  WriteReview,
  ApplianceBinding,
  Artifact,
  PendingConfirmationRequest,
  PreparedExecutionIntentV1,
  SigningKey,
  WriteState,
} from '@pfsense-mcp/authorization';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import type { ReconciliationObservation } from '@pfsense-mcp/executor';
import type { ArtifactDirectory } from './artifact-directory.js';
import type { CapabilityRegistry } from './capability-registry.js';
import { authorizationRequestName, parseAuthorizationRequestName } from './authorization-request-name.js';
import { configHistoryCorroborationOf } from './config-history-corroboration-of.js';
import { CoordinatorRefusalError } from './coordinator-refusal-error.js';
import { confirmationRequestName, reconciliationRequestName, releaseRequestName, rollbackRequestName } from './pending-request-names.js';
import { pfTableStateOf } from './pf-table-state-of.js';
import { RefusalGate } from './refusal-audit.js';
import type { RefusalRecorder } from './refusal-recorder.js';
import { WRITE_REQUEST_LIMITS } from './write-request-limits.js';
import type { RequestedOperation } from './write-operations-view.js';

/** The authorization request a call answers with, and when this plan's earlier request expired unanswered (UTC ms), if one did. */
export interface AuthorizationRequestWritten {
  readonly fileName: string;
  readonly earlierExpiredAt: number | null;
}

/** What the outbox needs from its owner: the directory, the server's request key and the store's view. */
export interface PendingRequestOutboxOptions {
  readonly directory: ArtifactDirectory;
  /** The capabilities whose adapters check a review against its contract (fingerprint, snapshot). */
  readonly capabilities: CapabilityRegistry;
  /** The server's own request key (role server-request): it signs pending requests, nothing else. */
  readonly serverKey: SigningKey;
  /** The pinned public half of serverKey: re-verifies the server's own outbox files. */
  readonly serverAuthorities: PinnedAuthoritySet;
  readonly clock: () => number;
  readonly requestLifetimeMs: number;
  readonly refusals: RefusalRecorder;
  /** Authenticated contracts of one operation (whether an authorization request was answered). */
  readonly contractsOf: (operationId: string) => readonly RecoveryContract[];
}

/**
 * The server's outbox (docs/DESIGN.md §6): writes the server-signed pending requests — authorization,
 * confirmation, reconciliation, release — within WRITE_REQUEST_LIMITS and the size bounds, never overwriting a
 * name, and reads back and re-verifies the server's own files. It reads no appliance and decides no gate.
 */
export class PendingRequestOutbox {
  readonly #outbox: ArtifactDirectory;
  readonly #capabilities: CapabilityRegistry;
  readonly #serverKey: SigningKey;
  readonly #serverAuthorities: PinnedAuthoritySet;
  readonly #clock: () => number;
  readonly #requestLifetimeMs: number;
  readonly #refusals: RefusalRecorder;
  readonly #contractsOf: (operationId: string) => readonly RecoveryContract[];

  /** Options are checked by the operation driver that owns this outbox (its constructor is the boundary). */
  constructor(options: PendingRequestOutboxOptions) {
    this.#outbox = options.directory;
    this.#capabilities = options.capabilities;
    this.#serverKey = options.serverKey;
    this.#serverAuthorities = options.serverAuthorities;
    this.#clock = options.clock;
    this.#requestLifetimeMs = options.requestLifetimeMs;
    this.#refusals = options.refusals;
    this.#contractsOf = options.contractsOf;
    Object.freeze(this);
  }

  /** Whether a file of this name is in the outbox (by name; nothing opened). */
  has(name: string): boolean {
    return this.#outbox.has(name);
  }

  /** The outbox's candidate artifact names (nothing opened). */
  list(): readonly string[] {
    return this.#outbox.list();
  }

  /**
   * The appliance binding digest the server's own signed confirmation request for c named, or null when that
   * file is missing, forged or for another contract.
   */
  confirmedApplianceDigest(c: RecoveryContract): string | null {
    try {
      const doc = parseArtifact(this.#outbox.read(confirmationRequestName(c.contract_id)));
      if (doc.kind !== ArtifactKind.CONFIRMATION_REQUEST) return null;
      verifyArtifactSignature(doc, this.#serverAuthorities);
      const p = (doc as PendingConfirmationRequest).payload;
      return p.contract_id === c.contract_id ? p.appliance_binding_digest : null;
    } catch {
      return null;
    }
  }

  /** One of the server's own outbox files, read and verified (an unsafe or forged file fails closed). */
  #ownOutboxFile(fileName: string, kind: Artifact['kind']): Artifact {
    try {
      const artifact = parseArtifact(this.#outbox.read(fileName));
      if (artifact.kind !== kind || !('proof' in artifact)) throw new CoordinatorRefusalError();
      verifyArtifactSignature(artifact, this.#serverAuthorities);
      return artifact;
    } catch {
      throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX);
    }
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
      if (e instanceof ArtifactFormatError && e.code === 'TOO_LARGE') throw this.#refusals.refuse('STALE', RefusalGate.SIZE_LIMIT, context);
      throw e;
    }
  }

  /** Builds and writes one request about contract c; a size refusal names the operation and the contract. */
  #writeContractRequest(fileName: string, c: RecoveryContract, build: () => Artifact): string {
    return this.#write(fileName, this.#build(build, { operationId: c.operation_id, contractId: c.contract_id }));
  }

  /**
   * What a reconciliation or release request names about contract c — its ids, the appliance it is bound to,
   * its target fingerprint and intent digest — issued now, for the request lifetime.
   */
  #contractFacts(c: RecoveryContract, appliance: ApplianceBinding) {
    const now = this.#clock();
    return {
      contractId: c.contract_id,
      operationId: c.operation_id,
      appliance,
      targetFingerprint: c.target_fingerprint,
      intentDigest: c.intent_digest,
      issuedAt: now,
      expiresAt: now + this.#requestLifetimeMs,
    };
  }

  #write(fileName: string, artifact: Artifact): string {
    let text: string;
    try {
      text = encodeArtifact(artifact);
    } catch (e) {
      if (e instanceof ArtifactFormatError && e.code === 'TOO_LARGE') throw this.#refusals.refuse('STALE', RefusalGate.SIZE_LIMIT);
      throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX);
    }
    try {
      this.#outbox.write(fileName, text);
    } catch {
      throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX);
    }
    return fileName;
  }

  /**
   * The operations whose authorization request waits in the outbox for the operator's signature: unexpired by
   * name, unanswered (no contract from its plan), and the server's own signed file (read and verified; any other
   * file is skipped), of one operation when `operationId` is given. Read-only: nothing is refused, audited or written — the operations view calls it.
   */
  requestedOperations(operationId?: string): readonly RequestedOperation[] {
    const now = this.#clock();
    const out: RequestedOperation[] = [];
    for (const fileName of this.#outbox.list()) {
      const parts = parseAuthorizationRequestName(fileName);
      if (parts === null || parts.expiresAt <= now || (operationId !== undefined && parts.operationId !== operationId)) continue;
      if (this.#contractsOf(parts.operationId).some((c) => c.provenance.plan_digest.startsWith(parts.planPrefix))) continue;
      try {
        const doc = parseArtifact(this.#outbox.read(fileName));
        if (doc.kind !== ArtifactKind.AUTHORIZATION_REQUEST || doc.payload.operation_id !== parts.operationId) continue;
        verifyArtifactSignature(doc, this.#serverAuthorities);
        out.push(Object.freeze({ operationId: parts.operationId, fileName, issuedAt: doc.payload.issued_at }));
      } catch {
        // Not the server's own current file: not an operation to show.
      }
    }
    return Object.freeze(out);
  }

  /**
   * The operation's current pending authorization request, or a new one within WRITE_REQUEST_LIMITS. The
   * outbox is scanned by name only (authorization-request-name.ts): names of other operations, expired
   * requests and other kinds are skipped without being opened. What can concern this call is read and
   * verified: this plan's unexpired request (reused), and this target's unexpired, unanswered requests
   * (counted; `targetKey` is the first 16 hex of the target's identity digest, the name's alias16). Other
   * targets' requests are counted by name, and a request is answered when the store holds
   * a contract created from its plan. Over a limit → STALE / REQUEST_LIMIT, nothing written.
   */
  authorizationRequest(
    operationId: string,
    stepId: string,
    planDigest: string,
    prepared: { executionIntent: PreparedExecutionIntentV1; review: WriteReview },
    binding: ApplianceBinding,
    targetKey: string,
  ): AuthorizationRequestWritten {
    const now = this.#clock();
    const aliasKey = targetKey;
    const planPrefix = planDigest.slice(0, 16);
    let names: readonly string[];
    try {
      names = this.#outbox.list();
    } catch {
      throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX, { operationId });
    }
    const parsed = names
      .map((fileName) => ({ fileName, parts: parseAuthorizationRequestName(fileName) }))
      .filter((e): e is { fileName: string; parts: NonNullable<typeof e.parts> } => e.parts !== null);
    const live = parsed.filter((e) => e.parts.expiresAt > now);

    // This plan's current request: reused (no new file, no count).
    for (const e of live) {
      if (e.parts.operationId !== operationId || e.parts.planPrefix !== planPrefix) continue;
      const artifact = this.#ownOutboxFile(e.fileName, ArtifactKind.AUTHORIZATION_REQUEST);
      if (artifact.kind !== ArtifactKind.AUTHORIZATION_REQUEST || artifact.payload.plan_digest !== planDigest) continue;
      try {
        checkCurrentness(artifact, now);
        return Object.freeze({ fileName: e.fileName, earlierExpiredAt: null });
      } catch {
        // Not current after all (issued in the future, or expired since the name was chosen): not reused.
      }
    }

    const contractsByOperation = new Map<string, readonly RecoveryContract[]>();
    const answered = (parts: { operationId: string; planPrefix: string }): boolean => {
      let contracts = contractsByOperation.get(parts.operationId);
      if (contracts === undefined) {
        contracts = this.#contractsOf(parts.operationId);
        contractsByOperation.set(parts.operationId, contracts);
      }
      return contracts.some((c) => c.provenance.plan_digest.startsWith(parts.planPrefix));
    };
    const outstanding = live.filter((e) => !answered(e.parts));
    const ofAlias = outstanding.filter((e) => e.parts.aliasKey === aliasKey);
    // This alias's outstanding requests concern this call: each must be the server's own, as named.
    for (const e of ofAlias) {
      const artifact = this.#ownOutboxFile(e.fileName, ArtifactKind.AUTHORIZATION_REQUEST);
      if (
        artifact.kind !== ArtifactKind.AUTHORIZATION_REQUEST ||
        artifact.payload.expires_at !== e.parts.expiresAt ||
        artifact.payload.operation_id !== e.parts.operationId
      ) {
        throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX, { operationId });
      }
    }
    if (ofAlias.length >= WRITE_REQUEST_LIMITS.perAlias || outstanding.length >= WRITE_REQUEST_LIMITS.outbox) {
      throw this.#refusals.refuse('STALE', RefusalGate.REQUEST_LIMIT, { operationId });
    }

    // This plan's own earlier request that expired unanswered (by name: no contract came of this plan, or the
    // call would not be here): the caller says so, with its time only, instead of a silent fresh `requested`.
    const expired = parsed.filter(
      (e) => e.parts.operationId === operationId && e.parts.planPrefix === planPrefix && e.parts.expiresAt <= now,
    );
    const earlierExpiredAt = expired.length === 0 ? null : Math.max(...expired.map((e) => e.parts.expiresAt));

    const expiresAt = now + this.#requestLifetimeMs;
    const request = this.#build(
      () =>
        createPendingAuthorizationRequest(
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
        ),
      { operationId },
    );
    const fileName = this.#write(authorizationRequestName({ aliasKey, operationId, planPrefix, expiresAt }), request);
    return Object.freeze({ fileName, earlierExpiredAt });
  }

  confirmationRequest(c: RecoveryContract, intent: PreparedExecutionIntentV1, review: WriteReview, binding: ApplianceBinding): string {
    const name = confirmationRequestName(c.contract_id);
    if (this.#outbox.has(name)) return name;
    return this.#writeContractRequest(name, c, () =>
      createPendingConfirmationRequest(
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
      ),
    );
  }

  /**
   * The review (pre-state and new description) of a contract, from the server's own signed confirmation
   * request — accepted only if the pre-state it shows has the contract's fingerprint.
   */
  reviewOf(c: RecoveryContract): WriteReview | null {
    const name = confirmationRequestName(c.contract_id);
    if (!this.#outbox.has(name)) return null;
    try {
      const doc = parseArtifact(this.#outbox.read(name));
      if (doc.kind !== ArtifactKind.CONFIRMATION_REQUEST) return null;
      verifyArtifactSignature(doc, this.#serverAuthorities);
      const p = (doc as PendingConfirmationRequest).payload;
      if (p.contract_id !== c.contract_id || p.target_fingerprint !== c.target_fingerprint) return null;
      const adapter = this.#capabilities.get(c.capability);
      if (adapter === null || adapter.fingerprint(p.review.pre_state) !== c.target_fingerprint) return null;
      return p.review;
    } catch {
      return null;
    }
  }

  /**
   * The reconciliation request for a RECONCILIATION contract from the executor's read-only observation (its
   * fingerprint, locator and the snapshot of that same read, which the executor took with the contract's
   * adapter), bound to `appliance` (checked by the caller). The observed state is shown only if the adapter
   * gives it the observed fingerprint (as the review's pre-state is checked in reviewOf).
   */
  reconciliationRequest(
    c: RecoveryContract,
    appliance: ApplianceBinding,
    review: WriteReview,
    observation: ReconciliationObservation,
  ): string {
    const name = reconciliationRequestName(c.contract_id, c.state_version);
    const adapter = this.#capabilities.get(c.capability);
    let observed = false;
    try {
      observed = adapter !== null && adapter.fingerprint(observation.observedSnapshot) === observation.observedFingerprint;
    } catch {
      // not the observed state: refused below
    }
    if (!observed) throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    return this.#writeContractRequest(name, c, () =>
      createPendingReconciliationRequest(
        {
          ...this.#contractFacts(c, appliance),
          stateVersion: observation.stateVersion,
          origin: observation.origin,
          observedFingerprint: observation.observedFingerprint,
          observedLocator: observation.observedLifecycleLocator,
          observedState: observation.observedSnapshot as WriteState,
          review,
          // What pfSense's config history showed after the send, as the contract recorded it (corroboration only).
          configHistory: configHistoryCorroborationOf(observation.configHistory),
          // The alias's pf table read with the observation (a write that applies the filter), for the operator.
          observedPfTable: pfTableStateOf(observation.observedPfTable),
        },
        this.#serverKey,
      ),
    );
  }

  releaseRequest(c: RecoveryContract, appliance: ApplianceBinding): string {
    const name = releaseRequestName(c.contract_id, c.state_version);
    if (this.#outbox.has(name)) return name;
    const review = this.reviewOf(c);
    if (review === null) throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    return this.#writeContractRequest(name, c, () =>
      createPendingReleaseRequest({ ...this.#contractFacts(c, appliance), stateVersion: c.state_version, review }, this.#serverKey),
    );
  }

  /**
   * The rollback request of a VERIFIED contract whose rollback needs a signature (docs/DESIGN.md §5): the forward
   * review (pre-state and change) and the fingerprint sealed at VERIFIED, bound to `appliance` (checked by the caller).
   */
  rollbackRequest(c: RecoveryContract, appliance: ApplianceBinding): string {
    const name = rollbackRequestName(c.contract_id, c.state_version);
    if (this.#outbox.has(name)) return name;
    const review = this.reviewOf(c);
    const verified = c.verified_target_fingerprint;
    if (review === null || verified === null) throw this.#refusals.refuse('ANOMALY', RefusalGate.OUTBOX, { contractId: c.contract_id });
    return this.#writeContractRequest(name, c, () =>
      createPendingRollbackRequest(
        { ...this.#contractFacts(c, appliance), stateVersion: c.state_version, verifiedTargetFingerprint: verified, review },
        this.#serverKey,
      ),
    );
  }
}
