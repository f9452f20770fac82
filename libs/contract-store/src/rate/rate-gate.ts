import type Database from 'better-sqlite3';
import { z } from 'zod';
import { canonicalBytes } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import {
  EMPTY_RATE_WINDOW_STATE,
  RateOutcome,
  decideInFlight,
  decideRateLimit,
  parseRateWindowState,
  rateLimitsFrom,
  recordOutcome,
} from '@pfsense-mcp/policy';
import type { Capability, RateLimits, RateWindowState } from '@pfsense-mcp/policy';
import { RateLimitError, RecordIntegrityError, StoreConsistencyError } from '../store/contract-store-error.js';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';
import { rateWindowsView } from './rate-windows-view.js';
import type { RateWindowsView } from './rate-windows-view.js';

export type { RateLimits };

/** The one rate row's key. */
export const RATE_WINDOW_SCOPE = 'policy-windows';
const SCOPE = RATE_WINDOW_SCOPE;

/** The rate row's bytes: the window state bound to the audit head sequence it is written at (store schema 2). */
export function rateRowBytes(auditSequence: number, windows: RateWindowState): Uint8Array {
  return canonicalBytes({ audit_sequence: auditSequence, windows: windows as unknown as CanonicalValue });
}

/** The rate row's MAC (store schema 2). */
export function rateRowMac(key: Uint8Array, storeId: string, bytes: Uint8Array): Uint8Array {
  return rowMac(key, MacDomain.RATE_WINDOW, [storeId, SCOPE, bytes]);
}
const OUTCOMES: ReadonlySet<string> = new Set(Object.values(RateOutcome));

/** The stored row: the policy's window state and the audit head sequence the row was last written at. */
const storedRateRowSchema = z.strictObject({
  audit_sequence: z.number().int().nonnegative(),
  windows: z.unknown(),
});

/** The stored rate row as last read or written (see `RateGate.#known`); `windows` is filled on first use. */
interface KnownRateRow {
  readonly bytes: Buffer;
  /** The MAC of `bytes`, computed or checked by this gate. */
  readonly mac: Uint8Array;
  readonly auditSequence: number;
  readonly rawWindows: unknown;
  windows: RateWindowState | null;
}

/**
 * Persists the policy lib's rate window state in the store (one MAC'd row) and applies its pure
 * decisions inside the transaction of the transition they gate: the PREPARE checkpoint in `create`,
 * the in-flight checkpoint at PREPARED → EXECUTING and VERIFIED → ROLLING_BACK, and outcome
 * recording on every transition into an outcome state. Live counts come from the contract rows.
 *
 * The row is rewritten at the end of every write that appends audit rows (`flush`), bound to the new
 * audit head sequence: the chain (and its anchor) then also protect the windows — a deleted row, or an
 * older authentic row written back, no longer matches the head (`verifyAll`). Within one write, decisions
 * see the state saved earlier in the same write (`#pending`), and the row is written once, at the end.
 */
export class RateGate {
  readonly #limits: RateLimits;
  readonly #key: Uint8Array;
  readonly #storeId: string;
  readonly #get: Database.Statement;
  readonly #put: Database.Statement;
  readonly #countTargetOutstanding: Database.Statement;
  readonly #countState: Database.Statement;
  readonly #countInFlight: Database.Statement;
  readonly #countInFlightCapability: Database.Statement;
  #pending: RateWindowState | null = null;
  /**
   * The row bytes this gate last read or wrote: their audit binding, the raw `windows` value and — once a
   * decision or view needed it — its validated, frozen parse. A read of exactly these bytes and this MAC
   * reuses them instead of computing the MAC again and JSON-parsing and schema-checking the whole window state
   * on every write (the MAC a check would compute is the one held); keyed by the bytes, so a rolled-back write
   * or another process's row is read afresh.
   */
  #known: KnownRateRow | null = null;

  constructor(db: Database.Database, key: Uint8Array, storeId: string, overrides: Partial<RateLimits>) {
    this.#limits = rateLimitsFrom(overrides);
    this.#key = key;
    this.#storeId = storeId;
    this.#get = db.prepare('SELECT state, mac FROM rate_windows WHERE scope = ?');
    this.#put = db.prepare(
      'INSERT INTO rate_windows (scope, state, mac) VALUES (?, ?, ?) ON CONFLICT(scope) DO UPDATE SET state = excluded.state, mac = excluded.mac',
    );
    this.#countTargetOutstanding = db.prepare(
      "SELECT count(*) AS n FROM contracts WHERE target_identity_digest = ? AND state IN ('PREPARING','PREPARED')",
    );
    this.#countState = db.prepare('SELECT count(*) AS n FROM contracts WHERE state = ?');
    this.#countInFlight = db.prepare("SELECT count(*) AS n FROM contracts WHERE state IN ('EXECUTING','ROLLING_BACK')");
    this.#countInFlightCapability = db.prepare(
      "SELECT count(*) AS n FROM contracts WHERE state IN ('EXECUTING','ROLLING_BACK') AND json_extract(CAST(record AS TEXT), '$.capability') = ?",
    );
  }

  get limits(): RateLimits {
    return this.#limits;
  }

  #mac(bytes: Uint8Array): Uint8Array {
    return rateRowMac(this.#key, this.#storeId, bytes);
  }

  /**
   * The authenticated stored row's audit binding and raw windows, or null when there is none. The windows
   * are validated on first use (`#windowsOf`), not here: open checks only the binding (`verifyAll`).
   */
  #read(): KnownRateRow | null {
    const row = this.#get.get(SCOPE) as { state: Buffer; mac: Buffer } | undefined;
    if (row === undefined) return null;
    if (this.#known !== null && row.state.equals(this.#known.bytes) && macMatches(this.#known.mac, row.mac)) return this.#known;
    const mac = this.#mac(row.state);
    if (!macMatches(mac, row.mac)) throw new RecordIntegrityError('RATE_STATE_MAC', null, 'rate window state failed authentication');
    let stored: z.infer<typeof storedRateRowSchema>;
    try {
      stored = storedRateRowSchema.parse(JSON.parse(row.state.toString('utf8')));
    } catch {
      throw new RecordIntegrityError('RATE_STATE_MALFORMED', null, 'rate window state is malformed');
    }
    this.#known = { bytes: row.state, mac, auditSequence: stored.audit_sequence, rawWindows: stored.windows, windows: null };
    return this.#known;
  }

  /** The row's windows, validated and frozen once per row bytes. */
  #windowsOf(known: KnownRateRow): RateWindowState {
    if (known.windows === null) {
      try {
        known.windows = parseRateWindowState(known.rawWindows);
      } catch {
        throw new RecordIntegrityError('RATE_STATE_MALFORMED', null, 'rate window state is malformed');
      }
    }
    return known.windows;
  }

  #load(): RateWindowState {
    if (this.#pending !== null) return this.#pending;
    const known = this.#read();
    return known === null ? EMPTY_RATE_WINDOW_STATE : this.#windowsOf(known);
  }

  #save(state: RateWindowState): void {
    this.#pending = state;
  }

  /**
   * End of a write that appended audit rows (inside its transaction): writes the window state — saved
   * in this write, else the stored one — bound to the new audit head sequence.
   */
  flush(auditSequence: number): void {
    const windows = this.#load();
    const bytes = Buffer.from(rateRowBytes(auditSequence, windows));
    const mac = Buffer.from(this.#mac(bytes));
    this.#put.run(SCOPE, bytes, mac);
    this.#known = { bytes, mac, auditSequence, rawWindows: null, windows };
    this.#pending = null;
  }

  /** A write ended (committed after its flush, or rolled back): nothing saved in it is pending any more. */
  discardPending(): void {
    this.#pending = null;
  }

  #count(statement: Database.Statement, ...params: unknown[]): number {
    return (statement.get(...params) as { n: number }).n;
  }

  /**
   * Check against the authenticated audit head: a store with audit rows has the row, and the row was
   * written at exactly that head (a row written back from earlier is ROW_STALE). `windows: 'validated'`
   * also schema-checks the window state now (the operator's integrity check); at open it is checked on
   * first use instead — the row is authenticated, and a large window state then costs no start-up time.
   */
  verifyAll(auditHeadSequence: number, windows: 'bound' | 'validated'): void {
    const stored = this.#read();
    if (stored === null) {
      if (auditHeadSequence > 0) throw new StoreConsistencyError('rate_windows', 'ROW_MISSING', null);
      return;
    }
    if (stored.auditSequence < auditHeadSequence) throw new StoreConsistencyError('rate_windows', 'ROW_STALE', null);
    if (stored.auditSequence > auditHeadSequence) throw new StoreConsistencyError('rate_windows', 'ROW_MISMATCH', null);
    if (windows === 'validated') this.#windowsOf(stored);
  }

  /** The windows in force at `nowMs` (read-only; inside the caller's transaction). */
  view(nowMs: number): RateWindowsView {
    return rateWindowsView(
      this.#load(),
      this.#limits,
      { inFlight: this.#count(this.#countInFlight), reconciliation: this.#count(this.#countState, 'RECONCILIATION') },
      nowMs,
    );
  }

  /** The PREPARE decision for one target at `nowMs`, from the persisted windows and the live contract rows. */
  #decideCreate(contract: Pick<RecoveryContract, 'capability' | 'target_identity_digest'>, nowMs: number) {
    return decideRateLimit({
      nowMs,
      capability: contract.capability as Capability,
      targetDigest: contract.target_identity_digest,
      state: this.#load(),
      limits: this.#limits,
      counts: {
        outstandingPreparedForTarget: this.#count(this.#countTargetOutstanding, contract.target_identity_digest),
        reconciliation: this.#count(this.#countState, 'RECONCILIATION'),
      },
    });
  }

  /** Read-only PREPARE check: throws what `beforeCreate` would throw now, and persists nothing. */
  checkCreate(contract: Pick<RecoveryContract, 'capability' | 'target_identity_digest'>, nowMs: number): void {
    const decision = this.#decideCreate(contract, nowMs);
    if (!decision.allowed) throw new RateLimitError(decision.reason, decision.retryAtMs ?? null);
  }

  /** PREPARE checkpoint (inside `create`'s transaction, before the row is inserted). */
  beforeCreate(contract: RecoveryContract, nowMs: number): void {
    const decision = this.#decideCreate(contract, nowMs);
    if (!decision.allowed) throw new RateLimitError(decision.reason, decision.retryAtMs ?? null);
    this.#save(decision.nextState);
  }

  /** In-flight checkpoint (PREPARED → EXECUTING, VERIFIED → ROLLING_BACK); the contract itself is not in flight yet. */
  beforeAcquire(contract: RecoveryContract, nowMs: number): void {
    const decision = decideInFlight({
      nowMs,
      capability: contract.capability as Capability,
      state: this.#load(),
      limits: this.#limits,
      counts: {
        inFlightGlobal: this.#count(this.#countInFlight),
        inFlightForCapability: this.#count(this.#countInFlightCapability, contract.capability),
      },
    });
    if (!decision.allowed) throw new RateLimitError(decision.reason);
    this.#save(decision.nextState);
  }

  /** Outcome recording (never refuses): cooldowns start on VERIFIED, FAILED, ROLLED_BACK, ROLLBACK_FAILED. */
  afterTransition(from: RecoveryContract, to: RecoveryContract, nowMs: number): void {
    if (from.state === to.state || !OUTCOMES.has(to.state)) return;
    this.#save(
      recordOutcome({
        nowMs,
        capability: to.capability as Capability,
        targetDigest: to.target_identity_digest,
        outcome: to.state as RateOutcome,
        state: this.#load(),
        limits: this.#limits,
      }),
    );
  }
}
