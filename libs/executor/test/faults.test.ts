import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RecordingMockTransport, simulatorTransport } from '@pfsense-mcp/test-support';
import { FAULT_DELIVERY, FaultProxyTransport } from '@pfsense-mcp/transports';
import type { FaultKind } from '@pfsense-mcp/transports';
import type { ExecutionOutcome, MutationExecutor } from '../src/index.js';
import { closeAfterEach, sim, useExecutorWorld, world } from './support/executor-suite.js';
import { ADAPTER, ALIAS_PATH, READ_ONLY_KEY, auditTrail, currentAlias, patchCount, prepare } from './support/world.js';
import type { Prepared } from './support/world.js';

useExecutorWorld();

const adapter = ADAPTER;
const NEW = 'Servers (primary rack)';

/** A fresh executor whose write path is `proxy` over its own HTTP transport (timeouts and caps as given). */
function executorOver(opts: { responseTimeoutMs?: number; maxResponseBytes?: number; apiKey?: string; baseUrl?: string } = {}) {
  const http = simulatorTransport(sim, opts);
  closeAfterEach(() => http.close());
  const proxy = new FaultProxyTransport(http);
  return { proxy, executor: world.executorWith(proxy) };
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached');
}

/** A second call with the same arguments must refuse without any new request (never a second send). */
async function expectNoSecondSend(executor: MutationExecutor, p: Prepared, before: number): Promise<void> {
  await expect(executor.execute(p.contract.contract_id, { adapter, intent: p.intent })).rejects.toMatchObject({ code: 'WRONG_STATE' });
  expect(patchCount(sim)).toBe(before);
}

function expectReconciliation(out: ExecutionOutcome, outcomeClass: string): void {
  expect(out).toMatchObject({ operation: 'execute', state: 'RECONCILIATION', effect: 'AMBIGUOUS', outcomeClass, sends: 1 });
  const c = world.store.load(out.contractId);
  expect(c.reconciliation).toMatchObject({ origin: 'EXECUTING', outcome_class: outcomeClass });
  expect(world.store.holdsReservation(out.contractId)).toBe(true); // RECONCILIATION keeps the target reserved
  expect(auditTrail(world.store, out.contractId).at(-1)).toBe(`transition:EXECUTING>RECONCILIATION:${outcomeClass}`);
}

describe('faults injected by the simulator (real loopback HTTP): exactly one send, never a second', () => {
  const cases: readonly [kind: string, extra: Record<string, number>, outcomeClass: string, applied: boolean][] = [
    ['reset-before-apply', {}, 'CONNECTION_LOST_AFTER_WRITE', false],
    ['reset-after-apply', {}, 'CONNECTION_LOST_AFTER_WRITE', true],
    ['5xx-after-apply', {}, 'SERVER_ERROR_5XX', true],
    ['5xx-after-apply', { status: 503 }, 'SERVER_ERROR_5XX', true],
    ['drop-response-after-apply', {}, 'CONNECTION_LOST_AFTER_WRITE', true],
    ['redirect-3xx', {}, 'REDIRECT_3XX', false],
    ['redirect-3xx', { status: 307 }, 'REDIRECT_3XX', false],
    ['other-2xx', {}, 'UNEXPECTED_2XX', true],
    ['other-2xx', { status: 204 }, 'UNEXPECTED_2XX', true],
    ['malformed-json', {}, 'NOT_SUCCESS_ENVELOPE_200', true],
    ['oversized-body', { bytes: 512 * 1024 }, 'RESPONSE_TOO_LARGE', true],
  ];
  for (const [kind, extra, outcomeClass, applied] of cases) {
    it(`${kind} ${JSON.stringify(extra)} → RECONCILIATION (${outcomeClass})`, async () => {
      const p = await prepare(world, 'LAN_SERVERS', NEW);
      sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: kind as never, ...extra });
      const out = await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
      expectReconciliation(out, outcomeClass);
      expect(patchCount(sim)).toBe(1);
      expect(world.writeProxy.sendCount).toBe(1);
      expect((await currentAlias(world.readClient, 'LAN_SERVERS'))?.descr).toBe(applied ? NEW : 'Servers');
      await expectNoSecondSend(world.executor, p, 1);
    });
  }

  it('timeout with the request held (not applied) → RECONCILIATION', async () => {
    const { executor, proxy } = executorOver({ responseTimeoutMs: 300 });
    const p = await prepare(world, 'LAN_SERVERS', NEW);
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'timeout' });
    expectReconciliation(await executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'TIMEOUT_AFTER_WRITE');
    expect(patchCount(sim)).toBe(1);
    expect(proxy.sendCount).toBe(1);
    await expectNoSecondSend(executor, p, 1);
  });

  it('timeout after apply (the appliance answers after the client gave up) → RECONCILIATION', async () => {
    const { executor, proxy } = executorOver({ responseTimeoutMs: 300 });
    const p = await prepare(world, 'LAN_SERVERS', NEW);
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'latency', ms: 900 });
    expectReconciliation(await executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'TIMEOUT_AFTER_WRITE');
    await waitFor(async () => (await currentAlias(world.readClient, 'LAN_SERVERS'))?.descr === NEW);
    expect(patchCount(sim)).toBe(1);
    expect(proxy.sendCount).toBe(1);
    await expectNoSecondSend(executor, p, 1);
  });

  it('connection refused (nothing listening) → FAILED, PROVEN_NONE', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port: free } = s.address() as { port: number };
        s.close(() => resolve(free));
      });
    });
    const { executor, proxy } = executorOver({ baseUrl: `http://127.0.0.1:${port}` });
    const p = await prepare(world, 'LAN_SERVERS', NEW);
    const out = await executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'FAILED', effect: 'PROVEN_NONE', outcomeClass: 'NOT_WRITTEN', sends: 1 });
    expect(proxy.sendCount).toBe(1);
    expect(patchCount(sim)).toBe(0);
    expect(world.store.holdsReservation(out.contractId)).toBe(false);
    await expectNoSecondSend(executor, p, 0);
  });

  it('4xx with a pfrest error envelope (a key without the PATCH privilege gets 403) → FAILED, VERIFIED_FAILURE', async () => {
    const { executor } = executorOver({ apiKey: READ_ONLY_KEY });
    const p = await prepare(world, 'LAN_SERVERS', NEW);
    const out = await executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'FAILED', effect: 'VERIFIED_FAILURE', outcomeClass: 'REJECTED_4XX', sends: 1 });
    expect(patchCount(sim)).toBe(1);
    expect((await currentAlias(world.readClient, 'LAN_SERVERS'))?.descr).toBe('Servers');
    await expectNoSecondSend(executor, p, 1);
  });
});

describe('faults injected by the fault proxy: exactly one call, never a second', () => {
  const expected: Readonly<Record<FaultKind, readonly [state: string, effect: string, outcomeClass: string]>> = {
    latency: ['VERIFIED', 'VERIFIED_SUCCESS', 'VERIFIED_SUCCESS'],
    timeout: ['RECONCILIATION', 'AMBIGUOUS', 'TIMEOUT_AFTER_WRITE'],
    'reset-before-apply': ['FAILED', 'PROVEN_NONE', 'NOT_WRITTEN'],
    'reset-after-apply': ['RECONCILIATION', 'AMBIGUOUS', 'CONNECTION_LOST_AFTER_WRITE'],
    '5xx-after-apply': ['RECONCILIATION', 'AMBIGUOUS', 'SERVER_ERROR_5XX'],
    'drop-response-after-apply': ['RECONCILIATION', 'AMBIGUOUS', 'CONNECTION_LOST_AFTER_WRITE'],
    'redirect-3xx': ['RECONCILIATION', 'AMBIGUOUS', 'REDIRECT_3XX'],
    'other-2xx': ['RECONCILIATION', 'AMBIGUOUS', 'UNEXPECTED_2XX'],
    'malformed-json': ['RECONCILIATION', 'AMBIGUOUS', 'NOT_SUCCESS_ENVELOPE_200'],
    'oversized-body': ['RECONCILIATION', 'AMBIGUOUS', 'RESPONSE_TOO_LARGE'],
  };
  for (const [kind, [state, effect, outcomeClass]] of Object.entries(expected) as [FaultKind, readonly [string, string, string]][]) {
    it(`${kind} → ${state} (${outcomeClass})`, async () => {
      const p = await prepare(world, 'LAN_SERVERS', NEW);
      world.writeProxy.setFault({ method: 'PATCH', path: ALIAS_PATH, kind, ...(kind === 'latency' ? { ms: 10 } : {}) });
      const out = await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
      expect(out).toMatchObject({ state, effect, outcomeClass, sends: 1 });
      expect(world.writeProxy.callCount).toBe(1);
      const reached = FAULT_DELIVERY[kind].reachesUpstream ? 1 : 0;
      expect(world.writeProxy.sendCount).toBe(reached);
      expect(patchCount(sim)).toBe(reached);
      await expectNoSecondSend(world.executor, p, reached);
      expect(world.writeProxy.callCount).toBe(1);
    });
  }
});

describe('responses only the mock transport can shape', () => {
  const envelope = (code: number, status: string, data: unknown = []) =>
    JSON.stringify({ code, status, response_id: code === 200 ? 'SUCCESS' : 'SOME_ERROR', message: '', data });
  const cases: readonly [name: string, reply: { status: number; body: string }, state: string, outcomeClass: string][] = [
    ['200 with a non-success envelope', { status: 200, body: envelope(400, 'bad request') }, 'RECONCILIATION', 'NOT_SUCCESS_ENVELOPE_200'],
    [
      '200 with a success envelope for another alias',
      { status: 200, body: envelope(200, 'ok', { id: 3, name: 'DMZ_HOSTS', type: 'host', descr: NEW, address: [], detail: [] }) },
      'RECONCILIATION',
      'UNACCEPTED_200',
    ],
    ['400 with a pfrest error envelope', { status: 400, body: envelope(400, 'bad request') }, 'FAILED', 'REJECTED_4XX'],
    ['404 with a pfrest error envelope', { status: 404, body: envelope(404, 'not found') }, 'FAILED', 'REJECTED_4XX'],
    ['404 from a proxy (HTML, no envelope)', { status: 404, body: '<html>Not Found</html>' }, 'RECONCILIATION', 'UNRECOGNIZED_4XX'],
    ['409 whose envelope claims another code', { status: 409, body: envelope(400, 'bad request') }, 'RECONCILIATION', 'UNRECOGNIZED_4XX'],
  ];
  for (const [name, reply, state, outcomeClass] of cases) {
    it(`${name} → ${state} (${outcomeClass})`, async () => {
      const mock = new RecordingMockTransport({ replies: [reply] });
      const executor = world.executorWith(mock);
      const p = await prepare(world, 'LAN_SERVERS', NEW);
      const out = await executor.execute(p.contract.contract_id, { adapter, intent: p.intent });
      expect(out).toMatchObject({ state, outcomeClass, sends: 1 });
      expect(mock.calls.map((c) => `${c.method} ${c.path} ${c.body}`)).toEqual([
        `PATCH ${ALIAS_PATH} {"apply":false,"descr":"${NEW}","id":0,"name":"LAN_SERVERS"}`,
      ]);
    });
  }

  // parseResponse says yes to anything; the executor's own envelope check must still refuse the success.
  function permissiveAdapter(): { adapter: typeof ADAPTER; asked: () => number } {
    let asked = 0;
    const permissive = Object.freeze({
      ...(ADAPTER as unknown as Record<string, unknown>),
      parseResponse: () => {
        asked += 1;
        return Object.freeze({ accepted: true });
      },
    }) as unknown as typeof ADAPTER;
    return { adapter: permissive, asked: () => asked };
  }
  const notSuccess200: readonly [name: string, body: string][] = [
    ['an HTML page', '<html><body>200 OK</body></html>'],
    ['an empty body', ''],
    ['a pfrest error envelope', envelope(400, 'bad request')],
    ['response_id other than SUCCESS', JSON.stringify({ code: 200, status: 'ok', response_id: 'SOMETHING_ELSE', message: '', data: [] })],
    ['status other than ok', JSON.stringify({ code: 200, status: 'accepted', response_id: 'SUCCESS', message: '', data: [] })],
  ];
  for (const [name, body] of notSuccess200) {
    it(`a permissive adapter is never asked about a 200 with ${name}: RECONCILIATION`, async () => {
      const { adapter: permissive, asked } = permissiveAdapter();
      const mock = new RecordingMockTransport({ replies: [{ status: 200, body }] });
      const p = await prepare(world, 'LAN_SERVERS', NEW);
      const out = await world.executorWith(mock).execute(p.contract.contract_id, { adapter: permissive, intent: p.intent });
      expect(out).toMatchObject({ state: 'RECONCILIATION', effect: 'AMBIGUOUS', outcomeClass: 'NOT_SUCCESS_ENVELOPE_200', sends: 1 });
      expect(mock.callCount).toBe(1);
      expect(asked()).toBe(0);
    });
  }

  it('with the success envelope the permissive adapter is asked, and the re-read still decides', async () => {
    const { adapter: permissive, asked } = permissiveAdapter();
    const mock = new RecordingMockTransport({ replies: [{ status: 200, body: envelope(200, 'ok') }] });
    const p = await prepare(world, 'LAN_SERVERS', NEW);
    const out = await world.executorWith(mock).execute(p.contract.contract_id, { adapter: permissive, intent: p.intent });
    expect(asked()).toBe(1);
    expect(out).toMatchObject({ state: 'RECONCILIATION', outcomeClass: 'NOT_VERIFIED', sends: 1 });
  });

  it('an unknown error from the transport → RECONCILIATION', async () => {
    const mock = new RecordingMockTransport({ replies: [{ error: new Error('boom') }] });
    const p = await prepare(world, 'LAN_SERVERS', NEW);
    const out = await world.executorWith(mock).execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'RECONCILIATION', outcomeClass: 'UNKNOWN_SEND_ERROR', sends: 1 });
    expect(mock.callCount).toBe(1);
  });

  it('a proven 200 whose re-read does not show the change → RECONCILIATION, not VERIFIED', async () => {
    const body = envelope(200, 'ok', {
      id: 0,
      name: 'LAN_SERVERS',
      type: 'host',
      descr: NEW,
      address: ['10.0.0.1', '10.0.0.2'],
      detail: ['nas', 'printer'],
    });
    const mock = new RecordingMockTransport({ replies: [{ status: 200, body }] });
    const p = await prepare(world, 'LAN_SERVERS', NEW);
    const out = await world.executorWith(mock).execute(p.contract.contract_id, { adapter, intent: p.intent });
    expect(out).toMatchObject({ state: 'RECONCILIATION', effect: 'AMBIGUOUS', outcomeClass: 'NOT_VERIFIED', sends: 1 });
  });
});
