import { Capability } from './capability.js';

/**
 * The capabilities whose rollback is itself a firewall change (docs/DESIGN.md §5): undoing a block unblocks, so
 * rolling back an alias-entries contract needs the operator's signed rollback authorization, consumed once. The
 * description's rollback restores a text and stays unsigned.
 */
const SIGNED_ROLLBACK: ReadonlySet<string> = new Set([Capability.ALIAS_ENTRIES_WRITE]);

/** Whether a rollback of a contract of `capability` needs a signed rollback authorization. */
export function needsSignedRollback(capability: string): boolean {
  return SIGNED_ROLLBACK.has(capability);
}
