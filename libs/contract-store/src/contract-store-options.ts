import type { AntiRollbackAnchor } from './anti-rollback-anchor.js';
import type { WithCrashHooks } from './crash-hooks.js';
import type { ConfirmationVerifier, ReconciliationVerifier, ReservationReleaseVerifier } from './evidence-verifiers.js';
import type { RateLimits } from './rate-gate.js';
import type { MasterKeySource } from './store-keys.js';

/** Options of `SqliteRecoveryContractStore.open`. */
export interface ContractStoreOptions extends MasterKeySource, WithCrashHooks {
  /** Store directory: must exist, be a real directory owned by the process user, mode 0700. */
  readonly directory: string;
  /** Database file name inside `directory` (default `contracts.sqlite`). */
  readonly fileName?: string;
  /** Injected wall clock, UTC milliseconds. The store never reads the system clock itself. */
  readonly clock: () => number;
  /** The anti-rollback anchor: an implementation, or `{ file }` for the file anchor keyed by this store. */
  readonly anchor: AntiRollbackAnchor | { readonly file: string };
  readonly confirmationVerifier?: ConfirmationVerifier;
  readonly reconciliationVerifier?: ReconciliationVerifier;
  readonly reservationReleaseVerifier?: ReservationReleaseVerifier;
  /** Rate / blast-radius limits (defaults: policy's provisional values, docs/DESIGN.md §3). */
  readonly rateLimits?: Partial<RateLimits>;
  /** How long protected artifacts of terminal contracts are kept (default 30 days). */
  readonly retentionMs?: number;
  /** SQLite busy timeout for lock waits (default 10 s). */
  readonly busyTimeoutMs?: number;
  /** Verify every contract row MAC and the whole audit chain at open (default true). */
  readonly verifyOnOpen?: boolean;
  /** Run pending migrations of an older, known schema (default false: an older schema is refused). */
  readonly migrate?: boolean;
}

export const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
