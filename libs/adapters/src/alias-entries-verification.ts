import { expectedEntriesOf } from './alias-entries-change.js';
import { parseAliasEntriesIntent } from './alias-entries-intent.js';
import { parseAliasEntriesState, parseAliasEntriesTarget } from './alias-entries-target.js';

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function verifiedOrFalse(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

/**
 * The configuration half of the forward post-condition (docs/DESIGN.md §5): the re-read is the same alias (id,
 * name, type, description unchanged) holding exactly the expected lists. The apply status and the pf table are
 * the executor's own reads, not an adapter's.
 */
export function isAliasEntriesVerified(pre: unknown, post: unknown, intent: unknown): boolean {
  return verifiedOrFalse(() => {
    const before = parseAliasEntriesTarget(pre, 'pre');
    const after = parseAliasEntriesTarget(post, 'post');
    const wanted = parseAliasEntriesIntent(intent);
    const expected = expectedEntriesOf(before, wanted);
    return (
      before.name === wanted.raw_target_hint.alias_name &&
      after.id === before.id &&
      after.name === before.name &&
      after.type === before.type &&
      after.descr === before.descr &&
      sameList(after.address, expected.address) &&
      sameList(after.detail, expected.detail)
    );
  });
}

/** Rollback post-condition: the fresh read equals the snapshot in all five semantic fields. */
export function isAliasEntriesRollbackVerified(snapshot: unknown, postRollback: unknown): boolean {
  return verifiedOrFalse(() => {
    const expected = parseAliasEntriesState(snapshot);
    const after = parseAliasEntriesTarget(postRollback, 'postRollback');
    return (
      after.name === expected.name &&
      after.type === expected.type &&
      after.descr === expected.descr &&
      sameList(after.address, expected.address) &&
      sameList(after.detail, expected.detail)
    );
  });
}
