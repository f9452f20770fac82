import { TargetResolutionError } from '@pfsense-mcp/adapters';
import type { TargetReader } from '@pfsense-mcp/adapters';
import type { RecoveryContract, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { RecoveryState } from '@pfsense-mcp/state-machine';
import type { WriteCapability } from './capability-registry.js';
import { CoordinatorInputError } from './coordinator-input-error.js';
import { contractExecutionIntent } from './execution-intent.js';
import { contractsInStates, contractsOnTarget } from './operation-contracts.js';
import { CLOSED_STATUSES, OperationStatus, STATUS_OF_STATE, statusOfContract } from './operation-outcome.js';
import { operationIdOf } from './operation-id.js';
import { RefusalGate } from './refusal-audit.js';
import type { RefusalRecorder } from './refusal-recorder.js';

/** A contract whose status is neither closed nor `verified`: its operation is still under way. */
const isUnfinished = (status: OperationStatus): boolean => status !== OperationStatus.VERIFIED && !CLOSED_STATUSES.has(status);
/** The states a contract under way can be in (the store's filter; each contract's own status decides). */
const UNFINISHED_STATES: readonly RecoveryState[] = Object.freeze(
  (Object.keys(STATUS_OF_STATE) as RecoveryState[]).filter((s) => isUnfinished(STATUS_OF_STATE[s])),
);

/**
 * The latest contract of this capability on the target (by creation), or null: where the target's history stands.
 * Only the target's own contracts are read (the store's index on the target), so a call costs the same with a long
 * history of other targets as with none.
 */
function latestContractOn(store: SqliteRecoveryContractStore, adapter: WriteCapability, target: unknown): string | null {
  const identity = adapter.identityDigest(adapter.identityOfTarget(target));
  let latest: RecoveryContract | null = null;
  for (const c of contractsOnTarget(store, identity)) {
    if (c.capability !== adapter.capability) continue;
    if (latest === null || c.created_at > latest.created_at || (c.created_at === latest.created_at && c.contract_id > latest.contract_id))
      latest = c;
  }
  return latest === null ? null : latest.contract_id;
}

/**
 * What besides the checked input names a new operation (docs/DESIGN.md §6), from the target one read
 * returned: nothing for most capabilities; for one whose adapter defines `operationBasisOf` (the alias
 * entries: a digest of the entries before the change), that basis and the latest contract of the capability on
 * the target — so block → unblock → block are three operations, never a stale `verified` (the entries before
 * the third equal those before the first; the unblock between them does not).
 */
export function operationBasisOfTarget(adapter: WriteCapability, store: SqliteRecoveryContractStore, target: unknown): object {
  if (typeof adapter.operationBasisOf !== 'function') return {};
  return { ...adapter.operationBasisOf(target), after_contract: latestContractOn(store, adapter, target) };
}

/**
 * The operation a call names: the appliance binding digest and the checked input — and, for a capability with
 * an operation basis, first the operation of these arguments on this appliance that is still under way (its
 * contract awaits a confirmation or a reconciliation: after its send the entries are no longer those the
 * operation was named by, and a caller asking again — a lost answer — must reach it, not a new operation);
 * otherwise the basis from one read of the target. A target that does not exist is the caller's input error,
 * as in the driver's own read; more than one such operation is refused (ANOMALY); any other failure is rethrown
 * (the driver refuses it, audited STALE).
 */
export async function operationIdOfCall(
  adapter: WriteCapability,
  reader: TargetReader,
  store: SqliteRecoveryContractStore,
  bindingDigest: string,
  checked: object,
  refusals: RefusalRecorder,
): Promise<string> {
  if (typeof adapter.operationBasisOf !== 'function') return operationIdOf(bindingDigest, checked);
  const intent = adapter.intentOfInput(checked);
  const intentDigest = adapter.intentDigest(intent);
  const open = new Set(
    contractsInStates(store, UNFINISHED_STATES)
      .filter((c) => c.capability === adapter.capability && c.intent_digest === intentDigest && isUnfinished(statusOfContract(c)))
      .filter((c) => contractExecutionIntent(adapter, c, intent, bindingDigest) !== null)
      .map((c) => c.operation_id),
  );
  // One target holds one reservation, so at most one such operation exists; more is not guessed at.
  if (open.size > 1) throw refusals.refuse('ANOMALY', RefusalGate.BINDING);
  const [only] = open;
  if (only !== undefined) return only;
  let target: unknown;
  try {
    target = await adapter.readTarget(reader, adapter.identityOfIntent(intent));
  } catch (e) {
    if (e instanceof TargetResolutionError && e.code === 'NOT_FOUND') {
      throw new CoordinatorInputError('UNKNOWN_TARGET', e.argument, 'NOT_FOUND', 'names nothing on the appliance');
    }
    throw e;
  }
  return operationIdOf(bindingDigest, { ...checked, ...operationBasisOfTarget(adapter, store, target) });
}
