// Audit completeness (docs/DESIGN.md §3 "Integrity"): every path after the reservation ends in a transition with its
// chained audit row; nothing is left EXECUTING / ROLLING_BACK; rows and errors never carry a value.
import { expect, it } from 'vitest';
import { RecordingMockTransport } from '@pfsense-mcp/test-support';
import { sim, useExecutorWorld, world } from './support/executor-suite.js';
import { ADAPTER, ALIAS_PATH, adminWrite, prepare } from './support/world.js';

useExecutorWorld();

const SENTINEL = 'SENTINEL-DESCR-4b1d-never-in-audit';
const adapter = ADAPTER;

it('every refusal and outcome after the reservation has its chained, value-free audit row', async () => {
  const results: { id: string; from: string; to: string; cls: string }[] = [];
  const record = (out: { contractId: string; state: string; outcomeClass: string }, from: string) =>
    results.push({ id: out.contractId, from, to: out.state, cls: out.outcomeClass });
  const messages: string[] = [];

  // drift → FAILED (0 sends)
  let p = await prepare(world, 'LAN_SERVERS', `${SENTINEL} 1`);
  await adminWrite(sim, 'PATCH', { id: 0, descr: 'edited' });
  record(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'EXECUTING');
  // missing → FAILED
  p = await prepare(world, 'DMZ_HOSTS', `${SENTINEL} 2`);
  await adminWrite(sim, 'DELETE', { id: 3 });
  record(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'EXECUTING');
  // look-alike request → FAILED
  p = await prepare(world, 'WEB_PORTS', `${SENTINEL} 3`);
  const liar = Object.freeze({ ...adapter, buildRequest: () => Object.freeze({ id: 1, descr: SENTINEL, apply: false }) });
  record(await world.executor.execute(p.contract.contract_id, { adapter: liar, intent: p.intent }), 'EXECUTING');
  // an adapter that throws a message carrying the value → FAILED, and the message goes nowhere
  p = await prepare(world, 'WEB_PORTS', `${SENTINEL} 4`);
  const thrower = Object.freeze({
    ...adapter,
    buildRequest: () => {
      throw new Error(SENTINEL);
    },
  });
  record(await world.executor.execute(p.contract.contract_id, { adapter: thrower, intent: p.intent }), 'EXECUTING');
  // ambiguous → RECONCILIATION
  p = await prepare(world, 'Office_Nets', `${SENTINEL} 5`);
  sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: '5xx-after-apply', times: 1 });
  record(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'EXECUTING');
  // verified, then rollback drift → ROLLBACK_FAILED
  p = await prepare(world, 'WEB_PORTS', `${SENTINEL} 6`);
  record(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'EXECUTING');
  await adminWrite(sim, 'PATCH', { id: 1, descr: 'edited again' });
  record(await world.executor.rollback(p.contract.contract_id, { adapter }), 'ROLLING_BACK');
  // a rollback whose response is not the adapter's success → RECONCILIATION (mock 200 non-success)
  sim.control.resetData();
  p = await prepare(world, 'LAN_SERVERS', `${SENTINEL} 7`);
  record(await world.executor.execute(p.contract.contract_id, { adapter, intent: p.intent }), 'EXECUTING');
  const mock = new RecordingMockTransport({
    replies: [{ status: 200, body: '{"code":400,"status":"bad request","response_id":"X","data":[]}' }],
  });
  record(await world.executorWith(mock).rollback(p.contract.contract_id, { adapter }), 'ROLLING_BACK');
  // refusals before the reservation leave no transition row
  try {
    await world.executor.execute(p.contract.contract_id, { adapter, intent: { raw_target_hint: { alias_name: SENTINEL } } });
  } catch (error) {
    messages.push(String((error as Error).message));
  }

  expect(results.map((r) => `${r.from}>${r.to}:${r.cls}`)).toEqual([
    'EXECUTING>FAILED:TARGET_FINGERPRINT_CHANGED',
    'EXECUTING>FAILED:TARGET_NOT_FOUND',
    'EXECUTING>FAILED:REQUEST_REFUSED',
    'EXECUTING>FAILED:PRECONDITION_FAILED',
    'EXECUTING>RECONCILIATION:SERVER_ERROR_5XX',
    'EXECUTING>VERIFIED:VERIFIED_SUCCESS',
    'ROLLING_BACK>ROLLBACK_FAILED:TARGET_CHANGED_SINCE_VERIFIED',
    'EXECUTING>VERIFIED:VERIFIED_SUCCESS',
    'ROLLING_BACK>RECONCILIATION:NOT_SUCCESS_ENVELOPE_200',
  ]);
  for (const r of results) {
    const rows = world.store.listAuditEvents({ contractId: r.id, limit: 100 }).filter((e) => e.from_state === r.from);
    expect(rows.at(-1)).toMatchObject({ kind: 'transition', to_state: r.to, outcome_class: r.cls });
  }
  expect(world.store.list({ states: ['EXECUTING', 'ROLLING_BACK'] })).toEqual([]);
  expect(world.store.verifyAuditChain()).toEqual({ ok: true });
  const everything = JSON.stringify(world.store.listAuditEvents({ limit: 10_000 }));
  expect(everything).not.toContain('SENTINEL');
  expect(messages).toHaveLength(1);
  expect(messages.join('\n')).not.toContain('SENTINEL');
});
