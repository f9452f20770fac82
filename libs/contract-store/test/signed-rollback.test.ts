// A signed rollback (docs/DESIGN.md §5): a contract whose capability needs one begins its rollback only under the
// operator's verified authorization, consumed once inside VERIFIED → ROLLING_BACK after every check that can
// refuse, its digest and key in the audit row; a contract of any other capability takes none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutorContractStore } from '../src/executor-entry.js';
import type { RollbackAuthorizationUse } from '../src/executor-entry.js';
import type { SqliteRecoveryContractStore } from '../src/index.js';
import { contractInput, errorOf, hex, makeHarness, verified } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
let store: SqliteRecoveryContractStore;
let ex: ExecutorContractStore;
let target = 9500;

beforeAll(async () => {
  h = makeHarness();
  store = await h.open();
  ex = ExecutorContractStore.of(store);
});
afterAll(() => h.cleanup());

function entriesVerified() {
  return verified(
    store,
    contractInput({ target: target++, capability: 'ALIAS_ENTRIES_WRITE', endpoint_symbol: 'FIREWALL_ALIAS_ENTRIES_PATCH' }),
  );
}

function use(consume: (id: string) => boolean): RollbackAuthorizationUse {
  return { rollbackAuthorizationId: 'rb-auth-1', authorizationDigest: hex(0xa1), authorityKeyId: hex(0xb2), consume };
}

describe('beginRollback of a contract whose rollback needs a signature', () => {
  it('is refused without an authorization: nothing changes, the contract stays VERIFIED', () => {
    const v = entriesVerified();
    expect(errorOf(() => ex.beginRollback(v.contract_id, v.state_version)).code).toBe('ROLLBACK_AUTHORIZATION_REQUIRED');
    expect(store.load(v.contract_id)).toMatchObject({ state: 'VERIFIED', state_version: v.state_version });
  });

  it('is refused when the consumption says the authorization was used: nothing changes', () => {
    const v = entriesVerified();
    const ids: string[] = [];
    const code = errorOf(() =>
      ex.beginRollback(
        v.contract_id,
        v.state_version,
        use((id) => (ids.push(id), false)),
      ),
    ).code;
    expect(code).toBe('AUTHORIZATION_CONSUMED');
    expect(ids).toEqual(['rb-auth-1']);
    expect(store.load(v.contract_id).state).toBe('VERIFIED');
  });

  it('begins under a consumed authorization, and the audit row names its digest and key', () => {
    const v = entriesVerified();
    const ids: string[] = [];
    const rb = ex.beginRollback(
      v.contract_id,
      v.state_version,
      use((id) => (ids.push(id), true)),
    );
    expect(rb.state).toBe('ROLLING_BACK');
    expect(ids).toEqual(['rb-auth-1']);
    const row = store.listAuditEvents({ contractId: v.contract_id }).at(-1);
    expect(row).toMatchObject({ to_state: 'ROLLING_BACK', evidence_digest: hex(0xa1), authority_key_id: hex(0xb2) });
  });

  it('a stale state version is refused before anything is consumed', () => {
    const v = entriesVerified();
    let called = 0;
    const code = errorOf(() =>
      ex.beginRollback(
        v.contract_id,
        v.state_version - 1,
        use(() => (called++, true)),
      ),
    ).code;
    expect(code).toBe('STALE_STATE_VERSION');
    expect(called).toBe(0);
  });
});

describe('beginRollback of a contract whose rollback is unsigned (the description)', () => {
  it('takes no authorization (refused, nothing consumed) and begins without one', () => {
    const v = verified(store, contractInput({ target: target++ }));
    let called = 0;
    expect(
      errorOf(() =>
        ex.beginRollback(
          v.contract_id,
          v.state_version,
          use(() => (called++, true)),
        ),
      ).code,
    ).toBe('ROLLBACK_AUTHORIZATION_REQUIRED');
    expect(called).toBe(0);
    expect(ex.beginRollback(v.contract_id, v.state_version).state).toBe('ROLLING_BACK');
  });
});
