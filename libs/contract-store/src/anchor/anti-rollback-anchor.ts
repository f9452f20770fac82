/**
 * The whole-store anti-rollback anchor (docs/DESIGN.md §3): a high-water mark of the audit chain kept
 * outside the database. `sequence` is the last audit sequence known committed; `headMac` (64 hex) is that
 * row's chain MAC (the genesis MAC for sequence 0). Implementations authenticate what they store.
 */
export interface AnchorRecord {
  readonly storeId: string;
  readonly sequence: number;
  readonly headMac: string;
  /**
   * When the operator last accepted a restored store (UTC ms), or absent/null if never. It only moves
   * forward; the consumption gate refuses every authorization issued at or before it (docs/DESIGN.md §3),
   * so a restored consumption file cannot revive an authorization consumed after its backup.
   */
  readonly acceptedRestoreAt?: number | null;
  /** The master-key epoch the mark was written under (absent: 1). It must equal the store's (README "Rotating the master key"). */
  readonly keyEpoch?: number;
}

export interface AntiRollbackAnchor {
  /** The current mark, or null if this anchor was never written. Throws AnchorError when it cannot be trusted. */
  read(): AnchorRecord | null;
  /** Durably replaces the mark (the store only ever writes a mark at or ahead of the current one). */
  write(record: AnchorRecord): void;
}
