// The operation basis of a capability like the alias entries names where the target's history stands (its latest
// contract of that capability): read from the target's own contracts (the store's index on the target), so a call
// costs the same with a long history of other targets as with none (docs/DESIGN.md §6).
import { describe, expect, it } from 'vitest';
import type { ListFilter, RecoveryContract, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { WriteCapability } from '../src/capability-registry.js';
import { operationBasisOfTarget } from '../src/operation-basis.js';

const ON_TARGET = 'a'.repeat(64);
const ELSEWHERE = 'e'.repeat(64);

const contract = (contract_id: string, capability: string, target_identity_digest: string, created_at: number) =>
  ({ contract_id, capability, target_identity_digest, created_at }) as unknown as RecoveryContract;

/** A store answering `list` like the real one (filter by target and id order, keyset pages), recording each filter. */
function storeOf(contracts: readonly RecoveryContract[]) {
  const filters: ListFilter[] = [];
  const store = {
    list(filter: ListFilter = {}): readonly RecoveryContract[] {
      filters.push(filter);
      return contracts
        .filter((c) => filter.targetIdentityDigest === undefined || c.target_identity_digest === filter.targetIdentityDigest)
        .filter((c) => filter.afterContractId === undefined || c.contract_id > filter.afterContractId)
        .sort((a, b) => (a.contract_id < b.contract_id ? -1 : 1))
        .slice(0, filter.limit ?? 100);
    },
  };
  return { store: store as unknown as SqliteRecoveryContractStore, filters };
}

const entriesLike = {
  capability: 'ALIAS_ENTRIES_WRITE',
  operationBasisOf: () => ({ entries_before: 'd'.repeat(64) }),
  identityOfTarget: (target: unknown) => target,
  identityDigest: () => ON_TARGET,
} as unknown as WriteCapability;

describe('operationBasisOfTarget', () => {
  it("names the target's latest contract of the capability, read by the target's digest only", () => {
    const { store, filters } = storeOf([
      contract('c-1', 'ALIAS_ENTRIES_WRITE', ON_TARGET, 100),
      contract('c-3', 'ALIAS_ENTRIES_WRITE', ON_TARGET, 300),
      // Newer, but another capability on the same target, or the same capability elsewhere: not this history.
      contract('c-2', 'ALIAS_WRITE', ON_TARGET, 900),
      contract('c-4', 'ALIAS_ENTRIES_WRITE', ELSEWHERE, 950),
    ]);
    expect(operationBasisOfTarget(entriesLike, store, { name: 'DMZ_HOSTS' })).toEqual({
      entries_before: 'd'.repeat(64),
      after_contract: 'c-3',
    });
    expect(filters.length).toBeGreaterThan(0);
    for (const f of filters) expect(f.targetIdentityDigest).toBe(ON_TARGET);
  });

  it('a target with no contract of the capability has none; a tie in creation time goes to the larger id', () => {
    expect(operationBasisOfTarget(entriesLike, storeOf([contract('c-9', 'ALIAS_WRITE', ON_TARGET, 1)]).store, {})).toMatchObject({
      after_contract: null,
    });
    const tie = storeOf([contract('c-5', 'ALIAS_ENTRIES_WRITE', ON_TARGET, 7), contract('c-6', 'ALIAS_ENTRIES_WRITE', ON_TARGET, 7)]);
    expect(operationBasisOfTarget(entriesLike, tie.store, {})).toMatchObject({ after_contract: 'c-6' });
  });

  it('pages through a long history on the target (more than one page of 1,000)', () => {
    const many = Array.from({ length: 2_345 }, (_, i) => contract(`c-${String(i).padStart(5, '0')}`, 'ALIAS_ENTRIES_WRITE', ON_TARGET, i));
    const { store, filters } = storeOf(many);
    expect(operationBasisOfTarget(entriesLike, store, {})).toMatchObject({ after_contract: 'c-02344' });
    expect(filters).toHaveLength(3);
  });
});
