import { AuditChainError } from '../store/contract-store-error.js';

/** A contract's latest state as the authenticated audit chain records it. */
export interface AuditedVersion {
  readonly stateVersion: number;
  readonly state: string;
}

const KIND = Buffer.from('"kind":"', 'utf8');
const REFUSAL = Buffer.from('refusal"', 'utf8');
const RESTORE_ACCEPTED = Buffer.from('restore-accepted"', 'utf8');
const STATE_VERSION = Buffer.from('"state_version":', 'utf8');
const TO_STATE = Buffer.from('"to_state":"', 'utf8');
const QUOTE = 0x22;

/**
 * Folds chain-verified audit rows into the latest audited state version and state of every contract
 * (docs/DESIGN.md §3: every write of a contract row appends one audit row carrying the row's new state_version).
 * Refusal and restore-accepted rows change no contract and are skipped. The rows must already be authenticated: they are this
 * store's own canonical JSON, so the three fields are read by position instead of parsing each body (a
 * key pattern such as `"state_version":` cannot occur inside a canonical string value, where every quote
 * is escaped). A body without them is reported as a broken chain at that sequence.
 */
export class AuditedContracts {
  readonly #latest = new Map<string, AuditedVersion>();

  add(sequence: number, contractId: string, body: Uint8Array): void {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    // Canonical JSON sorts keys, so "kind" < "state_version" < "to_state" follow one another: each search
    // starts where the previous key was found (one pass over the body instead of four).
    const k = bytes.indexOf(KIND);
    if (k === -1) throw new AuditChainError(sequence);
    const kindStart = k + KIND.length;
    if (startsWithAt(bytes, REFUSAL, kindStart) || startsWithAt(bytes, RESTORE_ACCEPTED, kindStart)) return;
    const v = bytes.indexOf(STATE_VERSION, kindStart);
    const t = v === -1 ? -1 : bytes.indexOf(TO_STATE, v + STATE_VERSION.length);
    if (v === -1 || t === -1) throw new AuditChainError(sequence);
    let stateVersion = 0;
    let i = v + STATE_VERSION.length;
    for (; i < bytes.length; i += 1) {
      const d = (bytes[i] as number) - 0x30;
      if (d < 0 || d > 9) break;
      stateVersion = stateVersion * 10 + d;
    }
    const stateStart = t + TO_STATE.length;
    const stateEnd = bytes.indexOf(QUOTE, stateStart);
    if (i === v + STATE_VERSION.length || !Number.isSafeInteger(stateVersion) || stateEnd === -1) throw new AuditChainError(sequence);
    this.#latest.set(contractId, { stateVersion, state: bytes.toString('latin1', stateStart, stateEnd) });
  }

  /** Removes and returns the contract's latest audited version (undefined: the audit never named it). */
  take(contractId: string): AuditedVersion | undefined {
    const v = this.#latest.get(contractId);
    if (v !== undefined) this.#latest.delete(contractId);
    return v;
  }

  /** A contract the audit names that was never taken (its row is missing), in audit order; null when none. */
  firstUntaken(): string | null {
    for (const id of this.#latest.keys()) return id;
    return null;
  }
}

function startsWithAt(bytes: Buffer, needle: Buffer, at: number): boolean {
  return at + needle.length <= bytes.length && bytes.compare(needle, 0, needle.length, at, at + needle.length) === 0;
}
