import { describe, expect, it } from 'vitest';
import { startSimulator } from '@pfsense-mcp/pfsense-sim';
import { ALIAS_WRITE_POLICY, Capability, MutationPolicy } from '@pfsense-mcp/policy';
import { RecordingMockTransport, RecordingTransport, simulatorTransport } from '@pfsense-mcp/test-support';
import type { Transport } from '@pfsense-mcp/transports';
import { WriteApiClient } from '@pfsense-mcp/write-client';
import { MutationExecutor } from '../src/index.js';
import type { ExecutionOutcome } from '../src/index.js';
import { refusal } from './support/expect-refusal.js';
import { replaceWorld, sim, useExecutorWorld, world } from './support/executor-suite.js';
import {
  ADAPTER,
  ALIAS_PATH,
  ALIASES,
  ALIASES_PATH,
  HOUR,
  MemoryAnchor,
  T0,
  adminWrite,
  auditTrail,
  currentAlias,
  patchCount,
  prepare,
} from './support/world.js';

useExecutorWorld();

const adapter = ADAPTER;

/** Nothing happened: no non-GET reached the simulator, the contract is unchanged, no reservation. */
function expectUntouched(contractId: string, stateVersion: number): void {
  expect(patchCount(sim)).toBe(0);
  expect(world.writeProxy.callCount).toBe(0);
  const c = world.store.load(contractId);
  expect(c.state_version).toBe(stateVersion);
  expect(world.store.holdsReservation(contractId)).toBe(false);
  expect(Object.keys(sim.control.counters()).filter((k) => !k.startsWith('GET '))).toEqual([]);
}

/** A refusal after the reservation: FAILED, zero sends, and the chained audit row that says why. */
function expectFailedWithoutSend(out: ExecutionOutcome, outcomeClass: string): void {
  expect(out).toMatchObject({ operation: 'execute', state: 'FAILED', effect: 'PROVEN_NONE', outcomeClass, sends: 0 });
  expect(Object.isFrozen(out)).toBe(true);
  expect(patchCount(sim)).toBe(0);
  expect(world.writeProxy.callCount).toBe(0);
  expect(auditTrail(world.store, out.contractId).slice(-2)).toEqual([
    'transition:PREPARED>EXECUTING:-',
    `transition:EXECUTING>FAILED:${outcomeClass}`,
  ]);
  expect(world.store.verifyAuditChain()).toEqual({ ok: true });
  expect(world.store.holdsReservation(out.contractId)).toBe(false);
}

describe('execute: forward against the simulator', () => {
  it('sends exactly one PATCH /api/v2/firewall/alias with the canonical closed body, then VERIFIED', async () => {
    const recording = new RecordingTransport(simulatorTransport(sim));
    const executor = world.executorWith(recording);
    const p = await prepare(world, 'WEB_PORTS', 'Web ports (HTTP/HTTPS) — reviewed');
    const out = await executor.execute(p.contract.contract_id, { adapter, intent: p.intent });

    expect(out).toEqual({
      operation: 'execute',
      contractId: p.contract.contract_id,
      state: 'VERIFIED',
      stateVersion: p.contract.state_version + 2,
      effect: 'VERIFIED_SUCCESS',
      outcomeClass: 'VERIFIED_SUCCESS',
      sends: 1,
      configHistory: expect.objectContaining({ class: 'ONE', newCount: 1, changeNote: 'Modified Firewall Alias via API' }),
      // The contract exactly as the final transition committed it (callers answer from it, no reload).
      contract: world.store.load(p.contract.contract_id),
    });
    expect(Object.isFrozen(out)).toBe(true);
    expect(recording.calls).toEqual([
      { method: 'PATCH', path: ALIAS_PATH, body: '{"apply":false,"descr":"Web ports (HTTP/HTTPS) — reviewed","id":1,"name":"WEB_PORTS"}' },
    ]);
    // Only that one mutation reached the appliance; every other request was a GET of the aliases or of the
    // config history (captured before, corroborated after).
    const counters = sim.control.counters();
    expect(Object.keys(counters).sort()).toEqual([
      'GET /api/v2/diagnostics/config_history/revisions',
      `GET ${ALIASES_PATH}`,
      `PATCH ${ALIAS_PATH}`,
    ]);
    expect(counters[`PATCH ${ALIAS_PATH}`]).toBe(1);
    expect(sim.control.pendingSubsystems()).toEqual(['aliases']); // apply: false — no filter reload

    const after = await currentAlias(world.readClient, 'WEB_PORTS');
    expect(after).toEqual({ id: 1, ...ALIASES[1], descr: 'Web ports (HTTP/HTTPS) — reviewed' });
    const c = world.store.load(p.contract.contract_id);
    expect(c.verified_target_fingerprint).toBe(adapter.fingerprint(after));
    expect(c.verified_lifecycle_locator).toBe(1);
    expect(c.target_fingerprint).toBe(p.contract.target_fingerprint); // the pre-state is never overwritten
    expect(world.store.holdsReservation(c.contract_id)).toBe(false);
    expect(auditTrail(world.store, c.contract_id)).toEqual([
      'create:->PREPARING:-',
      'transition:PREPARING>PREPARED:-',
      'confirmation:PREPARED>PREPARED:CONFIRMED',
      'transition:PREPARED>EXECUTING:-',
      'transition:EXECUTING>VERIFIED:VERIFIED_SUCCESS',
    ]);
  });

  it('runs reconcileInterrupted() at construction and reports what it moved', () => {
    expect(world.executor.reconciledAtStart).toEqual([]);
    expect(Object.isFrozen(world.executor)).toBe(true);
  });

  it('refuses to be built from anything but the real collaborators', () => {
    const base = {
      store: world.executorStore,
      writeClient: undefined,
      readClient: world.readClient,
      policy: MutationPolicy.empty(),
      clock: () => T0,
    };
    expect(() => new MutationExecutor(base as never)).toThrow(/"writeClient" must be a WriteApiClient/);
    expect(() => new MutationExecutor({ ...base, store: { ...world.store } } as never)).toThrow(
      /"store" must be a SqliteRecoveryContractStore/,
    );
  });

  it('takes the opened store and its executor entry itself (composition roots never import the entry)', async () => {
    const fromStore = new MutationExecutor({
      store: world.store,
      writeClient: new WriteApiClient(world.writeProxy),
      readClient: world.readClient,
      policy: ALIAS_WRITE_POLICY,
      clock: () => T0,
    });
    const p = await prepare(world, 'LAN_SERVERS', 'taken from the public store');
    const outcome = await fromStore.execute(p.contract.contract_id, { adapter: ADAPTER, intent: p.intent });
    expect(outcome.state).toBe('VERIFIED');
  });
});

describe('execute: refusals before the reservation send nothing and change nothing', () => {
  it('policy refusal', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'new');
    const executor = world.executorWith(world.writeProxy, { policy: MutationPolicy.empty() });
    const e = await refusal(executor.execute(p.contract.contract_id, { adapter, intent: p.intent }));
    expect(e).toMatchObject({ code: 'POLICY_REFUSED', reason: 'NOT_ALLOW_LISTED', sends: 0 });
    expectUntouched(p.contract.contract_id, p.contract.state_version);
  });

  const otherCapability = Object.values(Capability).find((c) => c !== Capability.ALIAS_WRITE) as string;
  const bindingCases: readonly [string, Record<string, unknown>, string][] = [
    ['capability', { capability: otherCapability }, 'capability'],
    ['endpoint', { endpoint_symbol: 'FIREWALL_ALIAS_PUT' }, 'endpoint_symbol'],
    ['method', { http_method: 'PUT' }, 'http_method'],
    ['precondition fingerprint', { target_fingerprint: '0'.repeat(64) }, 'target_fingerprint'],
    ['intent digest', { intent_digest: '1'.repeat(64) }, 'intent_digest'],
    ['target identity digest', { target_identity_digest: '2'.repeat(64) }, 'target_identity_digest'],
    ['snapshot digest', { snapshot_digest: '3'.repeat(64) }, 'snapshot_digest'],
    ['rollback plan version', { rollback_plan_version: 'other-rollback-v9' }, 'rollback_plan_version'],
    ['stored target identity', { target_identity: { alias_name: 'DMZ_HOSTS' } }, 'target_identity'],
  ];
  for (const [name, overrides, field] of bindingCases) {
    it(`binding mismatch: ${name}`, async () => {
      const p = await prepare(world, 'LAN_SERVERS', 'new description', { overrides });
      const e = await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }));
      expect(e).toMatchObject({ code: 'BINDING_MISMATCH', field });
      expectUntouched(p.contract.contract_id, p.contract.state_version);
    });
  }

  it('binding mismatch: the caller names another target or another description', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'new description');
    const otherTarget = { ...p.intent, raw_target_hint: { alias_name: 'DMZ_HOSTS' } };
    expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: otherTarget }))).toMatchObject({
      code: 'BINDING_MISMATCH',
      field: 'target_identity_digest',
    });
    const otherText = { ...p.intent, new_description: 'something else' };
    expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: otherText }))).toMatchObject({
      code: 'BINDING_MISMATCH',
      field: 'intent_digest',
    });
    expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: { new_description: 'x' } }))).toMatchObject({
      code: 'INTENT_INVALID',
    });
    expectUntouched(p.contract.contract_id, p.contract.state_version);
  });

  it('wrong state: PREPARING, and a contract that already ran', async () => {
    const built = await prepare(world, 'LAN_SERVERS', 'x', { confirm: false });
    const preparing = world.store.create({
      ...built.input,
      operation_id: 'op-preparing',
      provenance: { ...built.input.provenance, authorization_id: 'auth-preparing' },
    });
    expect(await refusal(world.executor.execute(preparing.contract_id, { adapter, intent: built.intent }))).toMatchObject({
      code: 'WRONG_STATE',
      reason: 'PREPARING',
    });
    expectUntouched(preparing.contract_id, preparing.state_version);

    const p = await prepare(world, 'DMZ_HOSTS', 'ran once');
    expect((await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).state).toBe('VERIFIED');
    sim.control.resetCounters();
    expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }))).toMatchObject({
      code: 'WRONG_STATE',
      reason: 'VERIFIED',
    });
    expect(patchCount(sim)).toBe(0);
  });

  it('unconfirmed', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'x', { confirm: false });
    expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }))).toMatchObject({
      code: 'NOT_CONFIRMED',
    });
    expectUntouched(p.contract.contract_id, p.contract.state_version);
  });

  it('expired contract, expired confirmation', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'x');
    world.clock.now = T0 + HOUR;
    expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }))).toMatchObject({
      code: 'CONTRACT_EXPIRED',
    });
    expectUntouched(p.contract.contract_id, p.contract.state_version);

    world.clock.now = T0;
    const q = await prepare(world, 'DMZ_HOSTS', 'y', { confirm: false });
    const confirmed = world.store.confirm(q.contract.contract_id, { accept: true, expiresAt: T0 + 1000 });
    world.clock.now = T0 + 1000;
    expect(await refusal(world.executor.execute(q.contract.contract_id, { adapter, intent: q.intent }))).toMatchObject({
      code: 'CONFIRMATION_EXPIRED',
    });
    expectUntouched(q.contract.contract_id, confirmed.state_version);
  });

  it('anchor refusal (a restored older database) before EXECUTING is acquired', async () => {
    const anchor = new MemoryAnchor();
    await replaceWorld({ anchor });
    const p = await prepare(world, 'LAN_SERVERS', 'x');
    anchor.rolledBack = true;
    const e = await refusal(world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }));
    expect(e).toMatchObject({ code: 'ANCHOR_REFUSED', reason: 'BEHIND' });
    anchor.rolledBack = false;
    expectUntouched(p.contract.contract_id, p.contract.state_version);
    expect(world.store.load(p.contract.contract_id).state).toBe('PREPARED');
  });

  it('target reserved by other work (another contract of the same alias in RECONCILIATION)', async () => {
    const first = await prepare(world, 'LAN_SERVERS', 'first');
    const second = await prepare(world, 'LAN_SERVERS', 'second');
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: '5xx-after-apply', times: 1 });
    expect((await world.executor.execute(first.contract.contract_id, { adapter, intent: first.intent })).state).toBe('RECONCILIATION');
    sim.control.resetCounters();
    world.writeProxy.resetCounters();
    const e = await refusal(world.executor.execute(second.contract.contract_id, { adapter, intent: second.intent }));
    expect(e).toMatchObject({ code: 'TARGET_RESERVED', sends: 0 });
    expectUntouched(second.contract.contract_id, second.contract.state_version);
  });
});

describe('execute: target checks after the reservation end in FAILED with zero sends', () => {
  it('fingerprint drift (someone edited the alias after preparation)', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'ours');
    await adminWrite(sim, 'PATCH', { id: 0, descr: 'theirs' });
    sim.control.resetCounters();
    expectFailedWithoutSend(
      await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }),
      'TARGET_FINGERPRINT_CHANGED',
    );
  });

  it('locator change: alias renumbered by the delete of an earlier alias', async () => {
    const p = await prepare(world, 'WEB_PORTS', 'ours');
    await adminWrite(sim, 'DELETE', { id: 0 });
    sim.control.resetCounters();
    expectFailedWithoutSend(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'TARGET_LOCATOR_CHANGED');
  });

  it('locator change: alias deleted and recreated with identical content', async () => {
    const p = await prepare(world, 'WEB_PORTS', 'ours');
    await adminWrite(sim, 'DELETE', { id: 1 });
    await adminWrite(sim, 'POST', { ...ALIASES[1] });
    const again = await currentAlias(world.readClient, 'WEB_PORTS');
    expect(adapter.fingerprint(again)).toBe(p.contract.target_fingerprint); // same content, new id
    sim.control.resetCounters();
    expectFailedWithoutSend(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'TARGET_LOCATOR_CHANGED');
  });

  it('missing name', async () => {
    const p = await prepare(world, 'DMZ_HOSTS', 'ours');
    await adminWrite(sim, 'DELETE', { id: 3 });
    sim.control.resetCounters();
    expectFailedWithoutSend(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'TARGET_NOT_FOUND');
  });

  it('duplicate name', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'ours');
    const twin = await startSimulator({ data: { [ALIASES_PATH]: [...ALIASES, { ...ALIASES[0] }] } });
    const read = simulatorTransport(twin);
    try {
      const executor = world.executorWith(world.writeProxy, { read });
      expectFailedWithoutSend(await executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'TARGET_DUPLICATE');
      expect(twin.control.count(ALIAS_PATH, 'PATCH')).toBe(0);
    } finally {
      read.close();
      await twin.close();
    }
  });
});

describe('execute: pfrest checks the identity too (the name travels with the id)', () => {
  it('an earlier alias deleted between the re-read and the send: pfrest refuses the shifted id, zero effect on every alias, FAILED, audited', async () => {
    const p = await prepare(world, 'WEB_PORTS', 'ours');
    // The race: after the executor's authoritative re-read (WEB_PORTS at id 1) and before its one PATCH
    // reaches the appliance, someone deletes LAN_SERVERS (id 0), so id 1 now names Office_Nets.
    const inner = simulatorTransport(sim);
    const raced: Transport = {
      request: async (method, path, options) => {
        if (method === 'PATCH') await adminWrite(sim, 'DELETE', { id: 0 });
        return inner.request(method, path, options);
      },
    };
    const recording = new RecordingTransport(raced);
    try {
      const out = await world.executorWith(recording).execute(p.contract.contract_id, { adapter, intent: p.intent });
      expect(out).toMatchObject({
        operation: 'execute',
        state: 'FAILED',
        effect: 'VERIFIED_FAILURE',
        outcomeClass: 'REJECTED_4XX',
        sends: 1,
      });
    } finally {
      inner.close();
    }
    // The one PATCH named the alias it meant; pfrest compared that name with the object now at id 1.
    expect(recording.calls).toEqual([
      { method: 'PATCH', path: ALIAS_PATH, body: '{"apply":false,"descr":"ours","id":1,"name":"WEB_PORTS"}' },
    ]);
    // Zero effect: every remaining alias is exactly as before (only the deleted one is gone).
    const after = await world.readClient.readAllPages(ALIASES_PATH);
    expect((after as readonly Record<string, unknown>[]).map(({ id: _id, ...rest }) => rest)).toEqual(
      ALIASES.slice(1).map((a) => ({ ...a })),
    );
    const c = world.store.load(p.contract.contract_id);
    expect(c.state).toBe('FAILED');
    expect(world.store.holdsReservation(p.contract.contract_id)).toBe(false);
    expect(auditTrail(world.store, p.contract.contract_id).slice(-2)).toEqual([
      'transition:PREPARED>EXECUTING:-',
      'transition:EXECUTING>FAILED:REJECTED_4XX',
    ]);
    expect(world.store.verifyAuditChain()).toEqual({ ok: true });
  });
});

describe('execute: a misbehaving adapter is refused before any send', () => {
  const base = ADAPTER as unknown as Record<string, unknown>;
  const variant = (patch: Record<string, unknown>) => Object.freeze({ ...base, ...patch }) as unknown as typeof ADAPTER;

  it('a plain look-alike object instead of its request model', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'ours');
    const liar = variant({
      buildRequest: (_i: unknown, t: { locator: number }) =>
        Object.freeze({ id: t.locator, name: 'LAN_SERVERS', descr: 'ours', apply: false }),
    });
    expectFailedWithoutSend(await world.executor.execute(p.contract.contract_id, { adapter: liar, intent: p.intent }), 'REQUEST_REFUSED');
  });

  it('an adapter that vouches for anything: unfrozen object, two requests, a class instance', async () => {
    const yes = { isRequestModel: () => true };
    const shapes: readonly ((t: { locator: number }) => unknown)[] = [
      (t) => ({ id: t.locator, descr: 'ours', apply: false }),
      (t) =>
        Object.freeze([Object.freeze({ id: t.locator, descr: 'a', apply: false }), Object.freeze({ id: 0, descr: 'b', apply: false })]),
      (t) =>
        Object.freeze(
          new (class Req {
            id = t.locator;
            descr = 'ours';
            apply = false;
          })(),
        ),
    ];
    for (const shape of shapes) {
      const p = await prepare(world, 'LAN_SERVERS', `ours ${shapes.indexOf(shape)}`);
      const liar = variant({ ...yes, buildRequest: (_i: unknown, t: { locator: number }) => shape(t) });
      expectFailedWithoutSend(await world.executor.execute(p.contract.contract_id, { adapter: liar, intent: p.intent }), 'REQUEST_REFUSED');
    }
  });

  it("an adapter that vouches for a wider request: the executor's own closed key set refuses it before the send", async () => {
    const yes = { isRequestModel: () => true };
    const shapes: readonly ((t: { locator: number }) => unknown)[] = [
      (t) => Object.freeze({ id: t.locator, name: 'LAN_SERVERS', descr: 'ours', apply: false, apply_now: true }),
      (t) => Object.freeze({ id: t.locator, descr: 'ours', apply: false }),
      (t) => Object.freeze({ id: t.locator, name: 'LAN servers', descr: 'ours', apply: false }),
      (t) => Object.freeze({ id: t.locator, descr: 'ours', apply: true }),
      (t) => Object.freeze({ id: t.locator, descr: 'ours' }),
      (t) => Object.freeze({ id: String(t.locator), descr: 'ours', apply: false }),
    ];
    for (const shape of shapes) {
      const p = await prepare(world, 'LAN_SERVERS', `wider ${shapes.indexOf(shape)}`);
      const liar = variant({ ...yes, buildRequest: (_i: unknown, t: { locator: number }) => shape(t) });
      expectFailedWithoutSend(await world.executor.execute(p.contract.contract_id, { adapter: liar, intent: p.intent }), 'REQUEST_REFUSED');
    }
  });

  it('two targets from readTarget', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'ours');
    const twoTargets = variant({
      readTarget: async (reader: { readAllPages(path: string): Promise<readonly unknown[]> }) =>
        (await reader.readAllPages(ALIASES_PATH)).slice(0, 2),
    });
    expectFailedWithoutSend(
      await world.executor.execute(p.contract.contract_id, { adapter: twoTargets, intent: p.intent }),
      'TARGET_UNRESOLVED',
    );
  });

  it('another method: refused by policy, or by the contract binding when policy allows it', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'ours');
    const deleter = variant({ httpMethod: 'DELETE' });
    expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter: deleter, intent: p.intent }))).toMatchObject({
      code: 'POLICY_REFUSED',
    });
    const lax = MutationPolicy.of([
      { capability: Capability.ALIAS_WRITE, endpointSymbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH' },
      { capability: Capability.ALIAS_WRITE, endpointSymbol: 'FIREWALL_ALIAS_PATCH', method: 'DELETE' },
    ]);
    const executor = world.executorWith(world.writeProxy, { policy: lax });
    expect(await refusal(executor.execute(p.contract.contract_id, { adapter: deleter, intent: p.intent }))).toMatchObject({
      code: 'BINDING_MISMATCH',
      field: 'http_method',
    });
    expectUntouched(p.contract.contract_id, p.contract.state_version);
  });

  it('a method getter, an unfrozen adapter or a missing function is not an adapter', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'ours');
    let calls = 0;
    const shifty = Object.freeze(
      Object.defineProperty({ ...base }, 'httpMethod', { get: () => (calls++ === 0 ? 'PATCH' : 'DELETE'), enumerable: true }),
    ) as unknown as typeof ADAPTER;
    const { buildRequest: _drop, ...partial } = base;
    for (const bad of [shifty, { ...base }, Object.freeze(partial), null]) {
      expect(await refusal(world.executor.execute(p.contract.contract_id, { adapter: bad as never, intent: p.intent }))).toMatchObject({
        code: 'ADAPTER_INVALID',
      });
    }
    expect(calls).toBe(0);
    expectUntouched(p.contract.contract_id, p.contract.state_version);
  });
});

describe('execute: the write client refusing is PROVEN_NONE', () => {
  it('an unverified endpoint table refuses before the transport: FAILED, nothing on the wire', async () => {
    const p = await prepare(world, 'LAN_SERVERS', 'ours');
    const mock = new RecordingMockTransport();
    const executor = new MutationExecutor({
      store: world.executorStore,
      writeClient: new (await import('@pfsense-mcp/write-client')).WriteApiClient(mock, {
        endpoints: { FIREWALL_ALIAS_PATCH: { method: 'PATCH', path: ALIAS_PATH, verified: false } },
      }),
      readClient: world.readClient,
      policy: ALIAS_WRITE_POLICY,
      clock: () => world.clock.now,
    });
    const out = await executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'FAILED', effect: 'PROVEN_NONE', outcomeClass: 'REFUSED_BEFORE_SEND', sends: 1 });
    expect(mock.callCount).toBe(0);
    expect(patchCount(sim)).toBe(0);
  });
});
