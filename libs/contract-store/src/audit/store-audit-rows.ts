import type { AuditRow } from './audit-chain.js';
import type { StoreState } from '../store/store-state.js';

/** The audit head: the last row's sequence and MAC (sequence 0 and the genesis MAC for an empty chain). */
export interface AuditHead {
  readonly sequence: number;
  readonly mac: Uint8Array;
}

export function auditHead(s: StoreState): AuditHead {
  const row = s.stmt.head.get() as { sequence: number; mac: Buffer } | undefined;
  return row === undefined ? { sequence: 0, mac: s.genesisMac } : { sequence: row.sequence, mac: row.mac };
}

/** The stored MAC at `sequence` (the genesis MAC at 0), or null when there is no such row. */
export function auditMacAt(s: StoreState, sequence: number): Uint8Array | null {
  if (sequence === 0) return s.genesisMac;
  const row = s.stmt.macAt.get(sequence) as { mac: Buffer } | undefined;
  return row === undefined ? null : row.mac;
}

/**
 * The audit rows after `sequence`, in order, straight from the statement's iterator (no generator layer:
 * the whole chain is walked on every open).
 */
export function auditRowsAfter(s: StoreState, sequence: number): IterableIterator<AuditRow> {
  return s.stmt.auditFrom.iterate(sequence) as IterableIterator<AuditRow>;
}
