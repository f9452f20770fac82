// The entries capability through the sealed executor against the simulator: the pending check before the
// transition, one PATCH with apply, and the effect verified in pf (apply status, the alias's table).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAliasEntriesAdapter } from '@pfsense-mcp/adapters';
import type { NewContractInput } from '@pfsense-mcp/contract-store';
import { startSimulator } from '@pfsense-mcp/pfsense-sim';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { ALIAS_ENTRIES_WRITE_POLICY_ENTRY, ALIAS_WRITE_POLICY_ENTRY, MutationPolicy } from '@pfsense-mcp/policy';
import { WriteApiClient } from '@pfsense-mcp/write-client';
import { ExecutorRefusalError, MutationExecutor } from '../src/index.js';
import { HOUR, T0, makeWorld, patchCount } from './support/world.js';
import type { World } from './support/world.js';

const adapter = createAliasEntriesAdapter({ maxPrefixV4: 8, maxPrefixV6: 32, protectedNetworks: [], maxMembers: 20_000 });
const policy = MutationPolicy.of([ALIAS_WRITE_POLICY_ENTRY, ALIAS_ENTRIES_WRITE_POLICY_ENTRY]);
const ALIASES_PATH = '/api/v2/firewall/aliases';
const RULES_PATH = '/api/v2/firewall/rules';
const TABLES_PATH = '/api/v2/diagnostics/tables';
const BLOCKLIST = { name: 'BLOCKLIST', type: 'network', descr: 'Bad', address: ['192.0.2.0/24'], detail: ['known bad'] };
const RULE = {
  tracker: 1,
  type: 'block',
  interface: ['wan'],
  direction: 'any',
  disabled: false,
  source: 'BLOCKLIST',
  destination: 'any',
  descr: 'Drop',
};

let sim: RunningSimulator;
let world: World;
let counter = 0;

beforeEach(async () => {
  sim = await startSimulator({
    data: { [ALIASES_PATH]: [BLOCKLIST], [RULES_PATH]: [RULE], [TABLES_PATH]: [{ name: 'BLOCKLIST', entries: ['192.0.2.0/24'] }] },
    now: () => new Date(T0),
  });
  world = await makeWorld(sim);
});
afterEach(async () => {
  world.cleanup();
  await sim.close();
});

function executor(delays: readonly number[] = [0]): MutationExecutor {
  return new MutationExecutor({
    store: world.executorStore,
    writeClient: new WriteApiClient(world.writeProxy),
    readClient: world.readClient,
    policy,
    clock: () => world.clock.now,
    filterVerificationDelaysMs: delays,
  });
}

/** A confirmed PREPARED contract for this change, built from a fresh read as the coordinator does. */
async function prepare(change: { add?: { address: string; detail?: string }[]; remove?: string[] }) {
  const pre = await adapter.readTarget(world.readClient, { alias_name: 'BLOCKLIST' });
  const intent = adapter.normalizeIntent(adapter.parseInput({ alias_name: 'BLOCKLIST', ...change }), pre);
  const identity = adapter.identityOfIntent(intent);
  const snapshot = adapter.snapshotOf(pre);
  counter += 1;
  const input: NewContractInput = {
    operation_id: `op-entries-${counter}`,
    capability: adapter.capability,
    endpoint_symbol: adapter.endpointSymbol,
    http_method: 'PATCH',
    target_identity_digest: adapter.identityDigest(identity),
    target_fingerprint: adapter.fingerprint(pre),
    intent_digest: adapter.intentDigest(intent),
    snapshot_digest: adapter.snapshotDigest(snapshot),
    rollback_plan_version: adapter.rollbackPlanVersion,
    lifecycle_locator: adapter.transportLocator(pre),
    provenance: {
      authorization_id: `auth-entries-${counter}`,
      plan_digest: '9'.repeat(64),
      step_id: 'step-1',
      execution_intent_digest: 'e'.repeat(64),
      authorization_expires_at: T0 + 2 * HOUR,
    },
    expires_at: T0 + HOUR,
    target_identity: identity as never,
    intent: intent as never,
    snapshot: snapshot as never,
  };
  const created = world.store.create(input);
  const prepared = world.store.markPrepared(created.contract_id, created.state_version);
  return { contract: world.store.confirm(prepared.contract_id, { accept: true }), intent };
}

async function table(): Promise<readonly string[] | null> {
  const tables = (await world.readClient.read(TABLES_PATH)).data as { name: string; entries: string[] }[];
  return tables.find((t) => t.name === 'BLOCKLIST')?.entries ?? null;
}

/** A verified rollback authorization as the coordinator hands it over (test-only digests). */
function authorizationUse(consumed: string[]) {
  return {
    rollbackAuthorizationId: 'rb-1',
    authorizationDigest: 'a1'.repeat(32),
    authorityKeyId: 'b2'.repeat(32),
    consume: (id: string) => (consumed.push(id), true),
  };
}

describe('the entries write through the executor', () => {
  it('block: one PATCH with apply, the re-read, nothing pending and the pf table holding the entry → VERIFIED', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32', detail: 'scanner' }] });
    const out = await executor().execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'VERIFIED', outcomeClass: 'VERIFIED_SUCCESS', sends: 1 });
    expect(patchCount(sim)).toBe(1);
    expect(await table()).toEqual(['192.0.2.0/24', '203.0.113.7']);
    expect(sim.control.pendingSubsystems()).toEqual([]);

    // Unblocking is a firewall change too: without the operator's rollback authorization it is refused, zero sends.
    const unsigned = await executor()
      .rollback(p.contract.contract_id, { adapter })
      .catch((x: unknown) => x);
    expect((unsigned as ExecutorRefusalError).code).toBe('ROLLBACK_AUTHORIZATION_REQUIRED');
    expect(patchCount(sim)).toBe(1);

    // Under one, consumed once: the pre-state lists go back, applied, and pf follows.
    const consumed: string[] = [];
    const back = await executor().rollback(p.contract.contract_id, { adapter, authorization: authorizationUse(consumed) });
    expect(back).toMatchObject({ state: 'ROLLED_BACK', sends: 1 });
    expect(consumed).toEqual(['rb-1']);
    expect(await table()).toEqual(['192.0.2.0/24']);
    expect(patchCount(sim)).toBe(2);
  });

  it('a foreign pending change refuses before the transition: FOREIGN_PENDING, audited, zero PATCH; it runs once applied', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    sim.control.markPending('filter');
    const e = await executor()
      .execute(p.contract.contract_id, { adapter, intent: p.intent })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExecutorRefusalError);
    expect((e as ExecutorRefusalError).code).toBe('FOREIGN_PENDING');
    expect(patchCount(sim)).toBe(0);
    expect(world.store.load(p.contract.contract_id).state).toBe('PREPARED');
    const refusals = world.store.listAuditEvents({ limit: 100 }).filter((ev) => ev.kind === 'refusal');
    expect(refusals.map((ev) => [ev.event, ev.outcome_class])).toContainEqual(['FOREIGN_PENDING', 'STALE']);
    // Someone applies their own change; then nothing is pending and the same contract runs.
    const t = (await import('@pfsense-mcp/test-support')).simulatorTransport(sim);
    await t.request('POST', '/api/v2/firewall/apply', { body: '{}' });
    t.close();
    expect((await executor().execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
  });

  it('config written but the table stale → RECONCILIATION (TABLE_MISMATCH), one PATCH, never a resend', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    sim.control.setApplyMode({ mode: 'stale-table' });
    const out = await executor([0, 5, 5]).execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'RECONCILIATION', outcomeClass: 'TABLE_MISMATCH', sends: 1 });
    expect(patchCount(sim)).toBe(1);
  });

  it("the reconciliation observation carries the alias's pf table compared with the alias (what pf enforces)", async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    sim.control.setApplyMode({ mode: 'stale-table' });
    const out = await executor([0, 5]).execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out.state).toBe('RECONCILIATION');
    const seen = await executor().observeReconciliationTarget(p.contract.contract_id, { adapter });
    // The alias holds the new entry; pf's table does not.
    expect(seen.observedPfTable).toEqual({ status: 'READ', entryCount: 1, missing: ['203.0.113.7'], extra: [] });
    expect(patchCount(sim)).toBe(1);
  });

  it('apply lost → RECONCILIATION (APPLY_PENDING), one PATCH', async () => {
    const p = await prepare({ remove: ['192.0.2.0/24'] });
    sim.control.setApplyMode({ mode: 'lost' });
    const out = await executor([0, 5]).execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'RECONCILIATION', outcomeClass: 'APPLY_PENDING', sends: 1 });
    expect(patchCount(sim)).toBe(1);
  });

  it('a delayed apply is waited for within the bound → VERIFIED', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    sim.control.setApplyMode({ mode: 'sync', delayMs: 30 });
    const out = await executor([0, 20, 40, 80, 160, 320, 640]).execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out.state).toBe('VERIFIED');
  });

  it('a lost response → RECONCILIATION, one PATCH', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    sim.control.setFault({ route: '/api/v2/firewall/alias', method: 'PATCH', kind: 'drop-response-after-apply', times: 1 });
    const out = await executor().execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'RECONCILIATION', sends: 1 });
    expect(patchCount(sim)).toBe(1);
  });

  it('a rule flipped to pass between review and send → FAILED (fingerprint changed), nothing sent', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    sim.control.editRecord(RULES_PATH, 0, { type: 'pass' });
    const out = await executor().execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'FAILED', outcomeClass: 'TARGET_FINGERPRINT_CHANGED', sends: 0 });
    expect(patchCount(sim)).toBe(0);
  });

  it('an entry added behind the API between review and send → FAILED, nothing sent', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    sim.control.editRecord(ALIASES_PATH, 0, { address: ['192.0.2.0/24', '198.51.100.0/24'], detail: ['known bad', 'new'] });
    const out = await executor().execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'FAILED', sends: 0 });
    expect(patchCount(sim)).toBe(0);
  });

  it('rollback refuses when the alias is no longer exactly as verified', async () => {
    const p = await prepare({ add: [{ address: '203.0.113.7/32' }] });
    expect((await executor().execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
    sim.control.editRecord(RULES_PATH, 0, { disabled: true });
    const consumed: string[] = [];
    const e = await executor()
      .rollback(p.contract.contract_id, { adapter, authorization: authorizationUse(consumed) })
      .catch((x: unknown) => x);
    expect((e as ExecutorRefusalError).code).toBe('TARGET_CHANGED_SINCE_VERIFIED');
    // Refused before the transition: nothing consumed, nothing sent, still VERIFIED.
    expect(consumed).toEqual([]);
    expect(world.store.load(p.contract.contract_id).state).toBe('VERIFIED');
    expect(patchCount(sim)).toBe(1);
  });
});
