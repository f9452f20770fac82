import { RecoveryState } from '@pfsense-mcp/state-machine';
import { loadIn } from '../model/contract-rows.js';
import { PreconditionError, RecordIntegrityError, TargetReservedError } from '../store/contract-store-error.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import type { ReservationRow } from '../store/store-statements.js';
import { assertOpen } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';

function reservationMac(s: StoreState, target: string, contractId: string, acquiredAt: number): Uint8Array {
  return rowMac(s.keys.recordMac, MacDomain.RESERVATION, [s.storeId, target, contractId, String(acquiredAt)]);
}

export function verifyReservationRow(s: StoreState, row: ReservationRow): void {
  if (!macMatches(reservationMac(s, row.target_identity_digest, row.contract_id, row.acquired_at), row.mac)) {
    throw new RecordIntegrityError('RESERVATION_MAC', row.contract_id, 'target reservation failed authentication');
  }
}

/** The authenticated reservation of a target, or null. */
export function reservationOf(s: StoreState, target: string): ReservationRow | null {
  const row = s.stmt.getReservation.get(target) as ReservationRow | undefined;
  if (row === undefined) return null;
  verifyReservationRow(s, row);
  return row;
}

/** At most one reservation per target; the contracts table is cross-checked so a deleted row cannot help. */
export function acquireReservation(s: StoreState, contract: RecoveryContract, now: number): void {
  const existing = reservationOf(s, contract.target_identity_digest);
  if (existing !== null) throw new TargetReservedError(contract.contract_id);
  // Cross-check against the contract rows, so a deleted reservation row cannot let a second holder in.
  for (const h of s.stmt.holdersOfTarget.all(contract.target_identity_digest, contract.contract_id) as { contract_id: string }[]) {
    const holder = loadIn(s, h.contract_id);
    if (holder.state === RecoveryState.ROLLBACK_FAILED && holder.reservation_release !== null) continue;
    throw new TargetReservedError(contract.contract_id);
  }
  s.stmt.insertReservation.run(
    contract.target_identity_digest,
    contract.contract_id,
    now,
    Buffer.from(reservationMac(s, contract.target_identity_digest, contract.contract_id, now)),
  );
}

export function releaseReservationRow(s: StoreState, contract: RecoveryContract): void {
  const existing = reservationOf(s, contract.target_identity_digest);
  if (existing === null || existing.contract_id !== contract.contract_id) {
    throw new PreconditionError('NOT_HOLDING_RESERVATION', contract.contract_id, 'contract does not hold its target reservation');
  }
  s.stmt.deleteReservation.run(contract.target_identity_digest, contract.contract_id);
}

/** True when the contract currently holds its target's reservation. */
export function holdsReservation(s: StoreState, contractId: string): boolean {
  assertOpen(s);
  return s.db.transaction(() => {
    const contract = loadIn(s, contractId);
    const r = reservationOf(s, contract.target_identity_digest);
    return r !== null && r.contract_id === contractId;
  })();
}
