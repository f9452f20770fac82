import type { AuditRow } from './audit-chain.js';
import type { StoreState } from './store-state.js';

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

export function* auditRowsAfter(s: StoreState, sequence: number): Generator<AuditRow> {
  for (const row of s.stmt.auditFrom.iterate(sequence) as Iterable<{ sequence: number; contract_id: string; body: Buffer; mac: Buffer }>) {
    yield row;
  }
}
