import { RESERVATION_HOLDING_STATES, RecoveryState } from '@pfsense-mcp/state-machine';
import { AuditedContracts } from '../audit/audited-contracts.js';
import { authenticRecord } from '../model/contract-rows.js';
import { AuditChainError, RecordIntegrityError, StoreConsistencyError } from '../store/contract-store-error.js';
import { sha256Hex } from '../artifacts/protected-artifacts.js';
import { PROTECTED_ARTIFACT_PURPOSES } from '../model/recovery-contract.js';
import type { ProtectedArtifactPurpose, RecoveryContract } from '../model/recovery-contract.js';
import type { ContractRow, ReservationRow } from '../store/store-statements.js';
import type { StoreState } from '../store/store-state.js';
import { upgradeStoreVersion } from '../migration/store-version-upgrade.js';
import { verifyReservationRow } from '../transitions/target-reservations.js';
import { walkAuditChain } from '../audit/walk-audit-chain.js';

/**
 * Every row against the authenticated audit chain, in one pass over each table (inside the caller's
 * transaction): the chain from genesis; each contract row authentic, its index columns equal to its
 * record, and its state_version and state exactly the latest the audit records for it — and every
 * contract the audit names present; the reservations exactly those the contract states hold; the
 * protected artifacts exactly those of the unpurged contracts, with the recorded digests; the rate
 * row bound to the audit head (`rateWindows: 'bound'`, at open) and its window state schema-checked
 * (`'validated'`, the default: integrity checks and migrations; otherwise on first use). Throws the first
 * failure (AuditChainError, RecordIntegrityError, StoreConsistencyError). docs/DESIGN.md §3.
 */
export function verifyStoreContents(
  s: StoreState,
  rateWindows: 'bound' | 'validated' = 'validated',
): { contracts: number; auditEvents: number } {
  const audited = new AuditedContracts();
  // Each row is folded once it verified, in the same pass over the chain.
  const chain = walkAuditChain(s, 0, s.genesisMac, (sequence, contractId, body) => audited.add(sequence, contractId, body));
  if (!chain.ok) throw new AuditChainError(chain.firstBrokenSequence);

  const holders = new Map<string, string>();
  const artifacts = new Map<string, { refs: RecoveryContract['protected_artifacts']; seen: number }>();
  let contracts = 0;
  for (const row of s.stmt.allContracts.iterate() as Iterable<ContractRow>) {
    const r = authenticRecord(s, row);
    const a = audited.take(row.contract_id);
    if (a === undefined) throw new StoreConsistencyError('contracts', 'ROW_UNEXPECTED', row.contract_id);
    if (r.state_version < a.stateVersion) throw new StoreConsistencyError('contracts', 'ROW_STALE', row.contract_id);
    if (r.state_version !== a.stateVersion || r.state !== a.state)
      throw new StoreConsistencyError('contracts', 'ROW_MISMATCH', row.contract_id);
    const holds = RESERVATION_HOLDING_STATES.has(r.state) && !(r.state === RecoveryState.ROLLBACK_FAILED && r.reservation_release !== null);
    if (holds) {
      if (holders.has(r.target_identity_digest)) throw new StoreConsistencyError('contracts', 'ROW_MISMATCH', row.contract_id);
      holders.set(r.target_identity_digest, row.contract_id);
    }
    if (r.artifacts_purged_at === null) artifacts.set(row.contract_id, { refs: r.protected_artifacts, seen: 0 });
    contracts += 1;
  }
  const missing = audited.firstUntaken();
  if (missing !== null) throw new StoreConsistencyError('contracts', 'ROW_MISSING', missing);

  for (const row of s.stmt.allReservations.iterate() as Iterable<ReservationRow>) {
    verifyReservationRow(s, row);
    if (holders.get(row.target_identity_digest) !== row.contract_id) {
      throw new StoreConsistencyError('target_reservations', 'ROW_UNEXPECTED', row.contract_id);
    }
    holders.delete(row.target_identity_digest);
  }
  const unreserved = holders.values().next();
  if (unreserved.done !== true) throw new StoreConsistencyError('target_reservations', 'ROW_MISSING', unreserved.value);

  for (const row of s.stmt.allArtifacts.iterate() as Iterable<{ contract_id: string; purpose: string; envelope: Buffer }>) {
    const expected = artifacts.get(row.contract_id);
    const ref = expected?.refs[row.purpose as ProtectedArtifactPurpose];
    if (expected === undefined || ref === undefined)
      throw new StoreConsistencyError('protected_artifacts', 'ROW_UNEXPECTED', row.contract_id);
    if (
      !(row.envelope instanceof Uint8Array) ||
      row.envelope.length !== ref.envelope_bytes ||
      sha256Hex(row.envelope) !== ref.envelope_sha256
    ) {
      throw new RecordIntegrityError(
        'ARTIFACT_DIGEST',
        row.contract_id,
        `protected artifact ${row.purpose} does not match the authenticated record`,
      );
    }
    expected.seen += 1;
  }
  for (const [contractId, expected] of artifacts) {
    if (expected.seen !== PROTECTED_ARTIFACT_PURPOSES.length)
      throw new StoreConsistencyError('protected_artifacts', 'ROW_MISSING', contractId);
  }

  s.rate.verifyAll(chain.headSequence, rateWindows);
  return { contracts, auditEvents: chain.headSequence };
}

/** `verifyStoreContents` in its own read transaction (open, re-anchor, accept-restore). */
export function verifyEverything(s: StoreState): void {
  s.db.transaction(() => verifyStoreContents(s, 'bound'))();
}

/** `migrate`: the version steps and then every row check, in one transaction — a store that fails is left as it was. */
export function upgradeVersion(s: StoreState, from: number, createdAt: number): void {
  s.db
    .transaction(() => {
      upgradeStoreVersion(s.db, s.keys.recordMac, s.storeId, createdAt, from);
      verifyStoreContents(s);
    })
    .immediate();
}
