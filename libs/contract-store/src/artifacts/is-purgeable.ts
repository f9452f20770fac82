import { RecoveryState } from '@pfsense-mcp/state-machine';
import type { RecoveryContract } from '../model/recovery-contract.js';

/**
 * The retention rule (docs/DESIGN.md §3): a contract's protected artifacts may be purged once it has been terminal
 * for longer than the retention window and they are not purged yet. A ROLLBACK_FAILED contract keeps its snapshot
 * while its reservation is held, and its window counts from the signed release (the snapshot is what a manual
 * recovery works from).
 */
export function isPurgeable(c: RecoveryContract, now: number, retentionMs: number): boolean {
  if (!Number.isSafeInteger(now) || !Number.isSafeInteger(retentionMs) || retentionMs < 0)
    throw new TypeError('isPurgeable: "now" and "retentionMs" must be safe integers, retentionMs ≥ 0');
  const cutoff = now - retentionMs;
  if (c.terminal_at === null || c.terminal_at > cutoff || c.artifacts_purged_at !== null) return false;
  if (c.state === RecoveryState.ROLLBACK_FAILED) return c.reservation_release !== null && c.reservation_release.released_at <= cutoff;
  return true;
}
