// Bench harness only (not reachable from either public entry): builds large stores quickly.
import type { SqliteRecoveryContractStore } from '../src/index.js';
import { stateOf } from '../src/store/store-face.js';
import { assertOpen } from '../src/store/store-state.js';

/** Runs `fn` in one outer transaction on the store's database, so the writes inside become savepoints and commit together. */
export function inOneTransaction<T>(store: SqliteRecoveryContractStore, fn: () => T): T {
  const s = stateOf(store);
  assertOpen(s);
  return s.db.transaction(fn).immediate();
}
