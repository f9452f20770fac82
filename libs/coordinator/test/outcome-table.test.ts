import { describe, expect, it } from 'vitest';
import { RECOVERY_STATES } from '@pfsense-mcp/state-machine';
import { CLOSED_STATUSES, OperationStatus, STATUS_OF_STATE, isClosed, statusOfContract } from '../src/index.js';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';

const EXPECTED = {
  PREPARING: 'awaiting_confirmation',
  PREPARED: 'awaiting_confirmation',
  EXECUTING: 'reconciliation_required',
  VERIFIED: 'verified',
  ROLLING_BACK: 'reconciliation_required',
  ROLLED_BACK: 'rolled_back',
  FAILED: 'refused',
  ROLLBACK_FAILED: 'reconciliation_required',
  RECONCILIATION: 'reconciliation_required',
  EXPIRED: 'refused',
} as const;

describe('contract state → operation status', () => {
  it('maps every state to exactly one of the six, only VERIFIED to verified, ROLLED_BACK to rolled_back (never refused)', () => {
    expect(Object.keys(STATUS_OF_STATE).sort()).toEqual([...RECOVERY_STATES].sort());
    expect(STATUS_OF_STATE).toEqual(EXPECTED);
    const five = new Set(Object.values(OperationStatus));
    for (const s of RECOVERY_STATES) expect(five.has(STATUS_OF_STATE[s])).toBe(true);
    expect(RECOVERY_STATES.filter((s) => STATUS_OF_STATE[s] === 'verified')).toEqual(['VERIFIED']);
  });

  it('a released ROLLBACK_FAILED is closed; an unknown state is never success', () => {
    const c = (state: string, release: unknown = null) => ({ state, reservation_release: release }) as unknown as RecoveryContract;
    expect(statusOfContract(c('ROLLBACK_FAILED'))).toBe('reconciliation_required');
    expect(statusOfContract(c('ROLLBACK_FAILED', { release_id: 'r' }))).toBe('refused');
    expect(statusOfContract(c('SOMETHING_NEW'))).toBe('reconciliation_required');
  });

  it('the closed statuses are refused and rolled_back: after either a new attempt may start', () => {
    const c = (state: string) => ({ state, reservation_release: null }) as unknown as RecoveryContract;
    expect([...CLOSED_STATUSES].sort()).toEqual(['refused', 'rolled_back']);
    expect(RECOVERY_STATES.filter((s) => isClosed(c(s))).sort()).toEqual(['EXPIRED', 'FAILED', 'ROLLED_BACK']);
  });
});
