import type Database from 'better-sqlite3';

/**
 * The master-key epoch of a store file (docs/DESIGN.md §3; README "Rotating the master key"): 1 for a store
 * that was never re-keyed, +1 per completed `rotate master-key`. Kept in the SQLite header's `user_version`
 * (no schema change, committed atomically with the rows it describes) and bound into the metadata MAC from
 * epoch 2 on, so it is authenticated by the key of that epoch. Anchors record the same number.
 */
export const FIRST_KEY_EPOCH = 1;
export const MAX_KEY_EPOCH = 0x7fff_ffff;

export function isKeyEpoch(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= FIRST_KEY_EPOCH && value <= MAX_KEY_EPOCH;
}

/** The epoch recorded in the database header (0, SQLite's default, is epoch 1). Plain, not yet authenticated. */
export function readKeyEpoch(db: Database.Database): number {
  const raw = Number(db.pragma('user_version', { simple: true }));
  return raw === 0 ? FIRST_KEY_EPOCH : raw;
}

/** Records `epoch` in the header (inside the caller's transaction, so it commits with the re-MACed rows). */
export function writeKeyEpoch(db: Database.Database, epoch: number): void {
  if (!isKeyEpoch(epoch)) throw new TypeError('writeKeyEpoch: "epoch" must be an integer from 1 to 2^31-1');
  db.pragma(`user_version = ${epoch === FIRST_KEY_EPOCH ? 0 : epoch}`);
}

/** The MAC parts that carry the epoch: none at epoch 1 (stores written before rotation existed), the number after. */
export function epochParts(epoch: number): readonly string[] {
  return epoch === FIRST_KEY_EPOCH ? [] : [`key-epoch:${epoch}`];
}
