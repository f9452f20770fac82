import { parseAliasDescriptionIntent } from './alias-description-intent.js';
import { parseAliasSnapshot, parseAliasTarget } from './alias-target.js';
import type { AliasSnapshot } from './alias-target.js';

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** name, type, address and detail equal (the fields this capability must never change). */
function protectedFieldsEqual(a: AliasSnapshot, b: AliasSnapshot): boolean {
  return a.name === b.name && a.type === b.type && sameList(a.address, b.address) && sameList(a.detail, b.detail);
}

/** Runs `check` on validated inputs; any validation failure is "not verified", never an exception. */
function verifiedOrFalse(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

/**
 * Forward post-condition (docs/DESIGN.md §5): pre and post are single authoritative
 * reads (readTarget refuses zero or several matches) of the intent's alias; same id; post.descr equals the
 * new description; name, type, ordered address and ordered detail equal the pre-state.
 */
export function isAliasDescriptionVerified(pre: unknown, post: unknown, intent: unknown): boolean {
  return verifiedOrFalse(() => {
    const before = parseAliasTarget(pre, 'pre');
    const after = parseAliasTarget(post, 'post');
    const wanted = parseAliasDescriptionIntent(intent);
    return (
      before.name === wanted.raw_target_hint.alias_name &&
      after.id === before.id &&
      after.descr === wanted.new_description &&
      protectedFieldsEqual(before, after)
    );
  });
}

/** Rollback post-condition: the fresh read equals the snapshot in all five semantic fields. */
export function isAliasRollbackVerified(snapshot: unknown, postRollback: unknown): boolean {
  return verifiedOrFalse(() => {
    const expected = parseAliasSnapshot(snapshot);
    const after = parseAliasTarget(postRollback, 'postRollback');
    return after.descr === expected.descr && protectedFieldsEqual(expected, after);
  });
}
