import type { AntiRollbackAnchor } from '../anchor/anti-rollback-anchor.js';
import type { ConfirmationVerifier, ReconciliationVerifier, ReservationReleaseVerifier } from '../integrity/evidence-verifiers.js';
import type { StoreDatabaseOptions } from './open-store-database.js';
import type { RateLimits } from '../rate/rate-gate.js';

/**
 * Options of `SqliteRecoveryContractStore.open` (the file options are StoreDatabaseOptions': `directory`,
 * `fileName` — default `contracts.sqlite` —, `clock`, `busyTimeoutMs`, `migrate`, the master key).
 */
export interface ContractStoreOptions extends StoreDatabaseOptions {
  /** The anti-rollback anchor (required): an implementation, or `{ file }` for the file anchor keyed by this store. */
  readonly anchor: AntiRollbackAnchor | { readonly file: string };
  readonly confirmationVerifier?: ConfirmationVerifier;
  readonly reconciliationVerifier?: ReconciliationVerifier;
  readonly reservationReleaseVerifier?: ReservationReleaseVerifier;
  /** Rate / blast-radius limits (defaults: policy's provisional values, docs/DESIGN.md §3). */
  readonly rateLimits?: Partial<RateLimits>;
  /** How long protected artifacts of terminal contracts are kept (default 30 days). */
  readonly retentionMs?: number;
  /** Verify every contract row MAC and the whole audit chain at open (default true). */
  readonly verifyOnOpen?: boolean;
}

export const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
