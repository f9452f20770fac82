import { describe, expect, it } from 'vitest';
import { CAPABILITIES, Capability, needsSignedRollback } from '../src/index.js';

describe('needsSignedRollback', () => {
  it('is true only for the alias-entries capability: undoing a block is itself a firewall change', () => {
    expect(needsSignedRollback(Capability.ALIAS_ENTRIES_WRITE)).toBe(true);
    expect(needsSignedRollback(Capability.ALIAS_WRITE)).toBe(false);
    expect(CAPABILITIES.filter((c) => needsSignedRollback(c))).toEqual([Capability.ALIAS_ENTRIES_WRITE]);
  });

  it('is false for anything that is not a capability', () => {
    expect(needsSignedRollback('alias_entries')).toBe(false);
    expect(needsSignedRollback('')).toBe(false);
  });
});
