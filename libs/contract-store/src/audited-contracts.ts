import { AuditChainError } from './contract-store-error.js';

/** A contract's latest state as the authenticated audit chain records it. */
export interface AuditedVersion {
  readonly stateVersion: number;
  readonly state: string;
}

const REFUSAL = Buffer.from('"kind":"refusal"', 'utf8');
const RESTORE_ACCEPTED = Buffer.from('"kind":"restore-accepted"', 'utf8');
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
    if (bytes.indexOf(REFUSAL) !== -1 || bytes.indexOf(RESTORE_ACCEPTED) !== -1) return;
    const v = bytes.indexOf(STATE_VERSION);
    const t = bytes.indexOf(TO_STATE);
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
