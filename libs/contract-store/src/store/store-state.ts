import type Database from 'better-sqlite3';
import { readClock } from '@pfsense-mcp/foundation';
import type { AntiRollbackAnchor } from '../anchor/anti-rollback-anchor.js';
import { StoreClosedError } from './contract-store-error.js';
import type { CrashHooks, CrashPoint } from './crash-hooks.js';
import type { ConfirmationVerifier, ReconciliationVerifier, ReservationReleaseVerifier } from '../integrity/evidence-verifiers.js';
import { currentProcessOwner } from './process-owner.js';
import type { RateGate } from '../rate/rate-gate.js';
import type { ProcessOwner } from '../model/recovery-contract.js';
import type { StoreStatements } from './store-statements.js';
import type { StoreKeys } from './store-keys.js';
import type { VerifiedRecords } from '../model/verified-records.js';

/** What changes during an open store's life: the only mutable part of its state. */
export interface StoreLife {
  closed: boolean;
  /** Set by every audit append of the current write (the rate row and the anchor follow the head then). */
  auditWritten: boolean;
  /** This process's owner record, read once on first need. */
  owner: ProcessOwner | null;
}

/**
 * One open contract store (docs/DESIGN.md §3): the database and its statements, the keys, the injected
 * clock and verifiers, the anchor and the rate gate. Frozen; every store operation is a plain function
 * over it (the public and executor faces bind them, store-face.ts). Never leaves the package.
 */
export interface StoreState {
  readonly db: Database.Database;
  readonly stmt: StoreStatements;
  readonly keys: StoreKeys;
  readonly storeId: string;
  /** Master-key epoch of this file (key-epoch.ts): every anchor mark it writes carries it, every mark it reads must. */
  readonly keyEpoch: number;
  readonly genesisMac: Uint8Array;
  readonly clock: () => number;
  readonly anchor: AntiRollbackAnchor;
  readonly confirmationVerifier: ConfirmationVerifier | undefined;
  readonly reconciliationVerifier: ReconciliationVerifier | undefined;
  readonly releaseVerifier: ReservationReleaseVerifier | undefined;
  readonly retentionMs: number;
  readonly crashHooks: CrashHooks | undefined;
  readonly rate: RateGate;
  /** The contract rows this process wrote or authenticated, reused while a row holds exactly their bytes. */
  readonly records: VerifiedRecords;
  readonly life: StoreLife;
}

export function assertOpen(s: StoreState): void {
  if (s.life.closed) throw new StoreClosedError();
}

/** The injected clock, checked on every reading. */
export function nowOf(s: StoreState): number {
  return readClock(s.clock, 'contract store');
}

export function crashAt(s: StoreState, point: CrashPoint, operation: string): void {
  s.crashHooks?.at(point, operation);
}

export function processOwnerOf(s: StoreState): ProcessOwner {
  if (s.life.owner === null) s.life.owner = currentProcessOwner();
  return s.life.owner;
}
