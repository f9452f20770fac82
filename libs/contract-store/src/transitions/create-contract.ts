import { randomBytes } from 'node:crypto';
import { assertFunction, assertObject, deepFreeze } from '@pfsense-mcp/foundation';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { auditContract } from '../audit/append-audit.js';
import { writeContract } from '../model/contract-rows.js';
import { PreconditionError } from '../store/contract-store-error.js';
import { newContractInputSchema } from '../model/new-contract-input.js';
import type { NewContractInput } from '../model/new-contract-input.js';
import { sealProtectedArtifacts, sha256Hex } from '../artifacts/protected-artifacts.js';
import { CONTRACT_SCHEMA_VERSION, PROTECTED_ARTIFACT_PURPOSES, recoveryContractSchema } from '../model/recovery-contract.js';
import type { ProtectedArtifactPurpose, RecoveryContract } from '../model/recovery-contract.js';
import { assertOpen, nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { storeWrite } from '../store/store-write.js';
import { zodPaths } from '../model/zod-paths.js';

/** Options of `create`. */
export interface CreateOptions {
  /**
   * Called with the contract's authorization id inside the creation transaction, after every check that
   * can refuse (duplicates, rate / blast-radius) and immediately before the row is written; it must
   * return true (consumed now) or the creation is refused (AUTHORIZATION_CONSUMED). An error it throws
   * rolls the creation back and propagates unchanged. For the one-time consumption ledger: a refusal
   * can then never follow a consumption.
   */
  readonly consume?: (authorizationId: string) => boolean;
}

/**
 * The duplicates `create` refuses first, in its order: an existing contract id, an authorization that
 * already created a contract, an open contract of the operation. Runs inside the caller's transaction;
 * the rate / blast-radius decision follows it.
 */
function duplicateChecks(
  s: StoreState,
  c: { readonly contractId: string | null; readonly operationId: string; readonly authorizationId: string },
): void {
  if (c.contractId !== null && s.stmt.getContract.get(c.contractId) !== undefined) {
    throw new PreconditionError('DUPLICATE_CONTRACT', c.contractId, 'a contract with this id exists');
  }
  if (s.stmt.byAuthorization.get(c.authorizationId) !== undefined) {
    throw new PreconditionError('DUPLICATE_AUTHORIZATION', c.contractId, 'this authorization already created a contract');
  }
  if (s.stmt.openByOperation.get(c.operationId) !== undefined) {
    throw new PreconditionError('DUPLICATE_OPERATION', c.contractId, 'the operation already has an open contract');
  }
}

/**
 * Read-only: throws exactly what `create(input)` would refuse at this instant before writing (duplicates,
 * then the rate / blast-radius decision: RateLimitError), and writes nothing — no row, no audit, no window.
 * A caller decides containment with it before it consumes anything; `create` repeats the checks atomically.
 */
export function precheckCreate(s: StoreState, input: NewContractInput): void {
  assertOpen(s);
  const parsed = newContractInputSchema.safeParse(input);
  if (!parsed.success) throw new TypeError(`precheckCreate: invalid input at ${zodPaths(parsed.error)}`);
  const i = parsed.data;
  const now = nowOf(s);
  if (i.expires_at <= now)
    throw new PreconditionError('CONTRACT_EXPIRED', i.contract_id ?? null, 'contract would be created already expired');
  s.db.transaction(() => {
    duplicateChecks(s, { contractId: i.contract_id ?? null, operationId: i.operation_id, authorizationId: i.provenance.authorization_id });
    s.rate.checkCreate(i, now);
  })();
}

/**
 * New contract in PREPARING (artifacts encrypted, rate PREPARE checkpoint applied). `options.consume`
 * runs inside the creation transaction after every refusal create can make (see CreateOptions).
 */
export function create(s: StoreState, input: NewContractInput, options: CreateOptions = {}): RecoveryContract {
  assertOpen(s);
  const parsed = newContractInputSchema.safeParse(input);
  if (!parsed.success) throw new TypeError(`create: invalid input at ${zodPaths(parsed.error)}`);
  assertObject(options, 'create: "options"');
  // Read before the assertions narrow `options`: the hook keeps its declared signature.
  const consume = (options as CreateOptions).consume;
  if (consume !== undefined) assertFunction(consume as unknown, 'create: "options.consume"');
  const i = parsed.data;
  const now = nowOf(s);
  const contractId = i.contract_id ?? `ctr-${randomBytes(16).toString('hex')}`;
  if (i.expires_at <= now) throw new PreconditionError('CONTRACT_EXPIRED', contractId, 'contract would be created already expired');

  const envelopes = sealProtectedArtifacts(s, contractId, { 'target-identity': i.target_identity, intent: i.intent, snapshot: i.snapshot });
  const ref = (p: ProtectedArtifactPurpose) => {
    const e = envelopes.get(p) as Buffer;
    return { envelope_sha256: sha256Hex(e), envelope_bytes: e.length };
  };
  const record = deepFreeze({
    schema_version: CONTRACT_SCHEMA_VERSION,
    contract_id: contractId,
    operation_id: i.operation_id,
    capability: i.capability,
    endpoint_symbol: i.endpoint_symbol,
    http_method: i.http_method,
    target_identity_digest: i.target_identity_digest,
    target_fingerprint: i.target_fingerprint,
    intent_digest: i.intent_digest,
    snapshot_digest: i.snapshot_digest,
    rollback_plan_version: i.rollback_plan_version,
    lifecycle_locator: i.lifecycle_locator,
    protected_artifacts: { 'target-identity': ref('target-identity'), intent: ref('intent'), snapshot: ref('snapshot') },
    artifacts_purged_at: null,
    provenance: { ...i.provenance },
    created_at: now,
    expires_at: i.expires_at,
    confirmation: null,
    state: RecoveryState.PREPARING,
    state_version: 1,
    updated_at: now,
    terminal_at: null,
    verified_target_fingerprint: null,
    verified_lifecycle_locator: null,
    rollback_verified_target_fingerprint: null,
    rollback_verified_lifecycle_locator: null,
    owner: null,
    reconciliation: null,
    resolution: null,
    reservation_release: null,
    last_outcome_class: null,
  }) as RecoveryContract;
  // Self-check: what we write must be what load accepts.
  recoveryContractSchema.parse(record);
  s.records.validated(record);

  return storeWrite(s, 'create', () => {
    const authorizationId = record.provenance.authorization_id;
    duplicateChecks(s, { contractId, operationId: record.operation_id, authorizationId });
    s.rate.beforeCreate(record, now);
    // Last, under this transaction's write lock: every refusal above happened before anything was
    // consumed, and no other creation can change the decision until this one commits.
    if (consume !== undefined && consume(authorizationId) !== true) {
      throw new PreconditionError('AUTHORIZATION_CONSUMED', contractId, 'the authorization was already consumed');
    }
    writeContract(s, record, null);
    for (const purpose of PROTECTED_ARTIFACT_PURPOSES) {
      s.stmt.insertArtifact.run(contractId, purpose, envelopes.get(purpose));
    }
    auditContract(s, record, 'create', null, null, now, { outcomeClass: null });
    return record;
  });
}
