/**
 * The whole-store anti-rollback anchor (docs/DESIGN.md §3): a high-water mark of the audit chain kept
 * outside the database. `sequence` is the last audit sequence known committed; `headMac` (64 hex) is that
 * row's chain MAC (the genesis MAC for sequence 0). Implementations authenticate what they store.
 */
export interface AnchorRecord {
  readonly storeId: string;
  readonly sequence: number;
  readonly headMac: string;
}

export interface AntiRollbackAnchor {
  /** The current mark, or null if this anchor was never written. Throws AnchorError when it cannot be trusted. */
  read(): AnchorRecord | null;
  /** Durably replaces the mark (the store only ever writes a mark at or ahead of the current one). */
  write(record: AnchorRecord): void;
}
