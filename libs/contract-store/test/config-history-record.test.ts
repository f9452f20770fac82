// The config-history corroboration kept on the contract (docs/DESIGN.md §3): stored with the transition that
// ends a send, under that send's own field, authenticated like the rest of the record, its digest in the
// audit row — and it survives a reopen. Anything that is not a value-free record is refused before writing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DigestPurpose, digest } from '@pfsense-mcp/canonical';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { configHistoryRecordDigest } from '../src/index.js';
import type { ConfigHistoryRecord, SqliteRecoveryContractStore } from '../src/index.js';
import { contractInput, errorOf, executing, hex, makeHarness, rollingBack } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
let store: SqliteRecoveryContractStore;
let ex: ExecutorContractStore;
let target = 9000;

beforeAll(async () => {
  h = makeHarness();
  store = await h.open();
  ex = ExecutorContractStore.of(store);
});
afterAll(() => h.cleanup());

const ONE: ConfigHistoryRecord = Object.freeze({
  version: 1,
  class: 'ONE',
  reason: null,
  captured_count: 4,
  captured_newest_time: 1_799_999_000,
  new_count: 1,
  new_times: [1_800_000_000],
  descriptions_digest: hex(0x51),
  change_kind: 'ALIAS_UPDATE',
});

const SEVERAL: ConfigHistoryRecord = Object.freeze({
  ...ONE,
  class: 'SEVERAL',
  new_count: 2,
  new_times: [1_800_000_001, 1_800_000_000],
  change_kind: null,
});

describe('config-history record on the contract', () => {
  it('a forward send ending in RECONCILIATION keeps its record; the audit row carries its digest; a reopen reads it', async () => {
    const c = executing(store, contractInput({ target: (target += 1) }));
    const r = ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'RESPONSE_LOST', ONE);
    expect(r.execution_config_history).toEqual(ONE);
    expect(r.rollback_config_history).toBeUndefined();
    const row = store.listAuditEvents({ contractId: c.contract_id }).at(-1);
    expect(row).toMatchObject({ to_state: 'RECONCILIATION', evidence_digest: configHistoryRecordDigest(ONE) });
    expect(configHistoryRecordDigest(ONE)).toBe(digest(DigestPurpose.CONFIG_HISTORY_EVIDENCE, { ...ONE, new_times: [...ONE.new_times!] }));

    const reopened = await h.open();
    expect(reopened.load(c.contract_id).execution_config_history).toEqual(ONE);
  });

  it('a rollback send keeps its record under the rollback field and leaves the forward one alone', () => {
    const c = rollingBack(store, contractInput({ target: (target += 1) }));
    const r = ex.markRollbackVerified(
      c.contract_id,
      c.state_version,
      { verifiedTargetFingerprint: hex(0x42), verifiedLifecycleLocator: 7 },
      SEVERAL,
    );
    expect(r.state).toBe('ROLLED_BACK');
    expect(r.rollback_config_history).toEqual(SEVERAL);
    expect(store.listAuditEvents({ contractId: c.contract_id }).at(-1)?.evidence_digest).toBe(configHistoryRecordDigest(SEVERAL));
  });

  it('without a record nothing is stored and the audit row has no evidence digest', () => {
    const c = executing(store, contractInput({ target: (target += 1) }));
    const r = ex.markExecutionFailed(c.contract_id, c.state_version, 'PROVEN_NONE');
    expect(r.execution_config_history).toBeUndefined();
    expect(store.listAuditEvents({ contractId: c.contract_id }).at(-1)?.evidence_digest).toBeNull();
  });

  it('refuses anything but a value-free record, before writing (the contract stays in flight)', () => {
    const c = executing(store, contractInput({ target: (target += 1) }));
    const bad: readonly unknown[] = [
      { ...ONE, description: 'admin@10.0.0.1: Modified Firewall Alias via API' },
      { ...ONE, change_kind: 'Modified Firewall Alias via API' },
      { ...ONE, class: 'NONE' },
      { ...ONE, reason: 'READ_FAILED' },
      { ...ONE, new_times: [1, 2] },
      { ...ONE, descriptions_digest: 'not hex' },
      { ...SEVERAL, new_count: 1 },
      // The request that shows a record requires newest first; the record (one invariant, authorization's) does too.
      { ...SEVERAL, new_times: [1_800_000_000, 1_800_000_001] },
      'a digest',
      null,
    ];
    for (const value of bad) {
      const e = errorOf(() => ex.markExecutionAmbiguous(c.contract_id, c.state_version, 'RESPONSE_LOST', value as ConfigHistoryRecord));
      expect(e).toMatchObject({ name: 'TypeError' });
      expect(e.message).toContain('"configHistory"');
      expect(e.message).not.toContain('admin@');
    }
    expect(store.load(c.contract_id).state).toBe('EXECUTING');
  });
});
