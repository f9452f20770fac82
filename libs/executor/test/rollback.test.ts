import { describe, expect, it } from 'vitest';
import type { AliasTarget } from '@pfsense-mcp/adapters';
import { MutationPolicy } from '@pfsense-mcp/policy';
import { RecordingTransport, simulatorTransport } from '@pfsense-mcp/test-support';
import { FaultProxyTransport } from '@pfsense-mcp/transports';
import { refusal } from './support/expect-refusal.js';
import { closeAfterEach, replaceWorld, sim, useExecutorWorld, world } from './support/executor-suite.js';
import {
  ADAPTER,
  ALIAS_PATH,
  ALIASES,
  MemoryAnchor,
  READ_ONLY_KEY,
  adminWrite,
  auditTrail,
  currentAlias,
  patchCount,
  prepare,
} from './support/world.js';
import type { Prepared, World } from './support/world.js';

useExecutorWorld();

const adapter = ADAPTER;
const NEW = 'Web ports — reviewed 2027';

/** A contract of WEB_PORTS driven to VERIFIED by a real forward send; counters reset afterwards. */
async function verifiedContract(w: World = world): Promise<Prepared> {
  const p = await prepare(w, 'WEB_PORTS', NEW);
  expect((await w.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
  sim.control.resetCounters();
  w.writeProxy.resetCounters();
  return p;
}

describe('rollback against the simulator', () => {
  it('writes the old description back with one PATCH of the closed body: ROLLED_BACK', async () => {
    const p = await verifiedContract();
    const recording = new RecordingTransport(simulatorTransport(sim));
    const out = await world.executorWith(recording).rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({
      operation: 'rollback',
      state: 'ROLLED_BACK',
      effect: 'VERIFIED_SUCCESS',
      outcomeClass: 'VERIFIED_SUCCESS',
      sends: 1,
    });
    expect(Object.isFrozen(out)).toBe(true);
    expect(recording.calls).toEqual([
      { method: 'PATCH', path: ALIAS_PATH, body: '{"apply":false,"descr":"HTTP and HTTPS","id":1,"name":"WEB_PORTS"}' },
    ]);
    expect(patchCount(sim)).toBe(1);
    expect(
      Object.keys(sim.control.counters())
        .filter((k) => !k.startsWith('GET '))
        .sort(),
    ).toEqual([`PATCH ${ALIAS_PATH}`]);
    const after = await currentAlias(world.readClient, 'WEB_PORTS');
    expect(after).toEqual({ id: 1, ...ALIASES[1] });
    const c = world.store.load(p.contract.contract_id);
    expect(c.rollback_verified_target_fingerprint).toBe(adapter.fingerprint(after));
    expect(c.rollback_verified_target_fingerprint).toBe(c.target_fingerprint);
    expect(world.store.holdsReservation(c.contract_id)).toBe(false);
    expect(auditTrail(world.store, c.contract_id).slice(-2)).toEqual([
      'transition:VERIFIED>ROLLING_BACK:-',
      'transition:ROLLING_BACK>ROLLED_BACK:VERIFIED_SUCCESS',
    ]);
    // Never a second rollback.
    expect(await refusal(world.executor.rollback(c.contract_id, { adapter }))).toMatchObject({
      code: 'WRONG_STATE',
      reason: 'ROLLED_BACK',
    });
    expect(patchCount(sim)).toBe(1);
  });

  it('target changed after VERIFIED → ROLLBACK_FAILED with zero sends (never a forced overwrite)', async () => {
    const p = await verifiedContract();
    await adminWrite(sim, 'PATCH', { id: 1, descr: 'edited by someone else' });
    sim.control.resetCounters();
    const out = await world.executor.rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'ROLLBACK_FAILED', effect: 'PROVEN_NONE', outcomeClass: 'TARGET_CHANGED_SINCE_VERIFIED', sends: 0 });
    expect(patchCount(sim)).toBe(0);
    expect(world.writeProxy.callCount).toBe(0);
    expect((await currentAlias(world.readClient, 'WEB_PORTS'))?.descr).toBe('edited by someone else');
    // ROLLBACK_FAILED keeps the reservation until a signed release.
    expect(world.store.holdsReservation(out.contractId)).toBe(true);
    expect(auditTrail(world.store, out.contractId).at(-1)).toBe('transition:ROLLING_BACK>ROLLBACK_FAILED:TARGET_CHANGED_SINCE_VERIFIED');
    expect(world.store.verifyAuditChain()).toEqual({ ok: true });
  });

  it('locator changed after VERIFIED (renumbered) → ROLLBACK_FAILED with zero sends', async () => {
    const p = await verifiedContract();
    await adminWrite(sim, 'DELETE', { id: 0 });
    sim.control.resetCounters();
    const out = await world.executor.rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'ROLLBACK_FAILED', outcomeClass: 'TARGET_LOCATOR_CHANGED', sends: 0 });
    expect(patchCount(sim)).toBe(0);
  });

  it('target deleted after VERIFIED → ROLLBACK_FAILED with zero sends', async () => {
    const p = await verifiedContract();
    await adminWrite(sim, 'DELETE', { id: 1 });
    sim.control.resetCounters();
    const out = await world.executor.rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'ROLLBACK_FAILED', outcomeClass: 'TARGET_NOT_FOUND', sends: 0 });
    expect(patchCount(sim)).toBe(0);
  });

  it('ambiguous rollback (5xx after apply) → RECONCILIATION, exactly one send, never a second', async () => {
    const p = await verifiedContract();
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: '5xx-after-apply' });
    const out = await world.executor.rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'RECONCILIATION', effect: 'AMBIGUOUS', outcomeClass: 'SERVER_ERROR_5XX', sends: 1 });
    expect(world.store.load(out.contractId).reconciliation).toMatchObject({ origin: 'ROLLING_BACK' });
    expect(world.store.holdsReservation(out.contractId)).toBe(true);
    expect(patchCount(sim)).toBe(1);
    expect(await refusal(world.executor.rollback(out.contractId, { adapter }))).toMatchObject({
      code: 'WRONG_STATE',
      reason: 'RECONCILIATION',
    });
    expect(patchCount(sim)).toBe(1);
  });

  it('ambiguous rollback (response lost) → RECONCILIATION', async () => {
    const p = await verifiedContract();
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply' });
    const out = await world.executor.rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'RECONCILIATION', outcomeClass: 'CONNECTION_LOST_AFTER_WRITE', sends: 1 });
    expect(patchCount(sim)).toBe(1);
  });

  it('PROVEN_NONE (connection refused by the proxy) → ROLLBACK_FAILED', async () => {
    const p = await verifiedContract();
    world.writeProxy.setFault({ method: 'PATCH', path: ALIAS_PATH, kind: 'reset-before-apply' });
    const out = await world.executor.rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'ROLLBACK_FAILED', effect: 'PROVEN_NONE', outcomeClass: 'NOT_WRITTEN', sends: 1 });
    expect(patchCount(sim)).toBe(0);
  });

  it('VERIFIED_FAILURE (403 envelope) → ROLLBACK_FAILED', async () => {
    const p = await verifiedContract();
    const http = simulatorTransport(sim, { apiKey: READ_ONLY_KEY });
    closeAfterEach(() => http.close());
    const out = await world.executorWith(new FaultProxyTransport(http)).rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'ROLLBACK_FAILED', effect: 'VERIFIED_FAILURE', outcomeClass: 'REJECTED_4XX', sends: 1 });
    expect(patchCount(sim)).toBe(1);
    expect((await currentAlias(world.readClient, 'WEB_PORTS'))?.descr).toBe(NEW);
  });
});

describe('rollback refusals before the reservation', () => {
  it('policy, wrong state, bindings and a misbehaving adapter: zero sends, contract unchanged', async () => {
    const p = await verifiedContract();
    const v = world.store.load(p.contract.contract_id).state_version;
    const empty = world.executorWith(world.writeProxy, { policy: MutationPolicy.empty() });
    expect(await refusal(empty.rollback(p.contract.contract_id, { adapter }))).toMatchObject({ code: 'POLICY_REFUSED' });
    const otherPlan = Object.freeze({ ...adapter, rollbackPlanVersion: 'another-plan.v2' });
    expect(await refusal(world.executor.rollback(p.contract.contract_id, { adapter: otherPlan }))).toMatchObject({
      code: 'BINDING_MISMATCH',
      field: 'rollback_plan_version',
    });
    expect(await refusal(world.executor.rollback(p.contract.contract_id, { adapter: { ...adapter } as never }))).toMatchObject({
      code: 'ADAPTER_INVALID',
    });
    const prepared = await prepare(world, 'LAN_SERVERS', 'not yet run');
    expect(await refusal(world.executor.rollback(prepared.contract.contract_id, { adapter }))).toMatchObject({
      code: 'WRONG_STATE',
      reason: 'PREPARED',
    });
    expect(world.store.load(p.contract.contract_id).state_version).toBe(v);
    expect(patchCount(sim)).toBe(0);
    expect(world.writeProxy.callCount).toBe(0);
  });

  it('anchor refusal before ROLLING_BACK is acquired', async () => {
    const anchor = new MemoryAnchor();
    await replaceWorld({ anchor });
    const p = await verifiedContract(world);
    anchor.rolledBack = true;
    expect(await refusal(world.executor.rollback(p.contract.contract_id, { adapter }))).toMatchObject({ code: 'ANCHOR_REFUSED' });
    anchor.rolledBack = false;
    expect(world.store.load(p.contract.contract_id).state).toBe('VERIFIED');
    expect(patchCount(sim)).toBe(0);
  });

  it("the target's reservation held by other work → refused, zero sends, still VERIFIED", async () => {
    const p = await verifiedContract();
    // A later contract of the same alias runs into RECONCILIATION and keeps the reservation.
    const later = await prepare(world, 'WEB_PORTS', 'a later change');
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: '5xx-after-apply', times: 1 });
    expect((await world.executor.execute(later.contract.contract_id, { adapter, intent: later.intent })).state).toBe('RECONCILIATION');
    sim.control.resetCounters();
    const e = await refusal(world.executor.rollback(p.contract.contract_id, { adapter }));
    expect(e).toMatchObject({ code: 'TARGET_RESERVED', sends: 0 });
    expect(world.store.load(p.contract.contract_id).state).toBe('VERIFIED');
    expect(patchCount(sim)).toBe(0);
  });
});

describe('observeReconciliationTarget', () => {
  it('forward origin: a fresh read with locator and fingerprint, no send, no transition', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'applied but unproven');
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'reset-after-apply', times: 1 });
    const out = await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out.state).toBe('RECONCILIATION');
    const before = world.store.load(out.contractId);
    const trail = auditTrail(world.store, out.contractId);
    const patches = patchCount(sim);
    const gets = sim.control.count('/api/v2/firewall/aliases', 'GET');

    const obs = await world.executor.observeReconciliationTarget(out.contractId, { adapter });
    const now = await currentAlias(world.readClient, 'LAN_SERVERS');
    expect(obs).toEqual({
      contractId: out.contractId,
      operationId: before.operation_id,
      origin: 'EXECUTING',
      stateVersion: before.state_version,
      observedFingerprint: adapter.fingerprint(now),
      observedLifecycleLocator: 0,
      // The snapshot of that same read: what the owner is shown as the observed state.
      observedSnapshot: adapter.snapshotOf(now as unknown as AliasTarget),
      locatorMatches: true,
      matchesPreForwardFingerprint: false,
      matchesVerifiedFingerprint: null,
      // The corroboration the lost send recorded, from the contract record.
      configHistory: before.execution_config_history,
      // The description applies no filter: no pf table is read.
      observedPfTable: null,
    });
    expect(obs.configHistory).toMatchObject({ class: 'ONE', new_count: 1 });
    expect(Object.isFrozen(obs)).toBe(true);
    expect(sim.control.count('/api/v2/firewall/aliases', 'GET')).toBeGreaterThan(gets); // it really read
    expect(patchCount(sim)).toBe(patches);
    expect(world.store.load(out.contractId)).toEqual(before);
    expect(auditTrail(world.store, out.contractId)).toEqual(trail);
  });

  it('rollback origin: the fresh read against the sealed post-forward fingerprint', async () => {
    const p = await verifiedContract();
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'timeout' });
    const http = simulatorTransport(sim, { responseTimeoutMs: 300 });
    closeAfterEach(() => http.close());
    const out = await world.executorWith(http).rollback(p.contract.contract_id, { adapter });
    expect(out).toMatchObject({ state: 'RECONCILIATION', outcomeClass: 'TIMEOUT_AFTER_WRITE' });
    sim.control.clearFaults();
    const obs = await world.executor.observeReconciliationTarget(out.contractId, { adapter });
    expect(obs).toMatchObject({
      origin: 'ROLLING_BACK',
      observedLifecycleLocator: 1,
      locatorMatches: true,
      matchesVerifiedFingerprint: true,
      matchesPreForwardFingerprint: false,
    });
    // The rollback send's own corroboration, not the forward's.
    const kept = world.store.load(out.contractId);
    expect(obs.configHistory).not.toBeNull();
    expect(obs.configHistory).toEqual(kept.rollback_config_history);
    expect(patchCount(sim)).toBe(1);
  });

  it('refuses contracts that are not in RECONCILIATION, and a target that cannot be resolved', async () => {
    const p = await verifiedContract();
    expect(await refusal(world.executor.observeReconciliationTarget(p.contract.contract_id, { adapter }))).toMatchObject({
      code: 'WRONG_STATE',
      reason: 'VERIFIED',
    });
    const q = await prepare(world, 'DMZ_HOSTS', 'gone later');
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'other-2xx', times: 1 });
    expect((await world.executor.execute(q.contract.contract_id, { adapter, intent: q.intent })).state).toBe('RECONCILIATION');
    await adminWrite(sim, 'DELETE', { id: 3 });
    const before = world.store.load(q.contract.contract_id);
    expect(await refusal(world.executor.observeReconciliationTarget(q.contract.contract_id, { adapter }))).toMatchObject({
      code: 'TARGET_UNRESOLVED',
      reason: 'TARGET_NOT_FOUND',
    });
    expect(world.store.load(q.contract.contract_id)).toEqual(before);
  });
});
