import type Database from 'better-sqlite3';

type Runner = Database.Transaction<(fn: () => unknown) => unknown>;

const runners = new WeakMap<Database.Database, Runner>();

/**
 * Runs `fn` in a transaction of `db` (a savepoint when one is open), BEGIN IMMEDIATE or deferred, exactly
 * as `db.transaction(fn).immediate()` / `db.transaction(fn)()` would. One wrapper per database, made once:
 * better-sqlite3 builds four closures and their properties on every `db.transaction` call (~10 µs), and
 * every store write made two.
 */
export function inTransaction<T>(db: Database.Database, kind: 'immediate' | 'deferred', fn: () => T): T {
  let runner = runners.get(db);
  if (runner === undefined) {
    runner = db.transaction((body: () => unknown) => body());
    runners.set(db, runner);
  }
  return (kind === 'immediate' ? runner.immediate(fn) : runner.deferred(fn)) as T;
}
