// The alias entries capability through the capability-generic driver (docs/DESIGN.md §5–§6): its request is
// written, signed, confirmed and executed like the description's; its pre-state rules are input errors or
// audited refusals; its operation id binds the entries before the change.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AliasDescriptionAdapter, createAliasEntriesAdapter } from '@pfsense-mcp/adapters';
import { ArtifactKind } from '@pfsense-mcp/authorization';
import { ALIAS_ENTRIES_WRITE_POLICY_ENTRY, ALIAS_WRITE_POLICY_ENTRY, MutationPolicy } from '@pfsense-mcp/policy';
import { CapabilityRegistry, CoordinatorInputError, CoordinatorRefusalError, OperationStatus } from '../src/index.js';
import { sim, useCoordinatorWorld, world } from './support/coordinator-suite.js';
import {
  ALIAS_PATH,
  patchCount,
  putInbox,
  readOutbox,
  signAuthorization,
  signConfirmation,
  signReconciliation,
  signRollback,
} from './support/world.js';

const ENTRIES = 'ALIAS_ENTRIES_WRITE';
const RULES_PATH = '/api/v2/firewall/rules';
const TABLES_PATH = '/api/v2/diagnostics/tables';
const adapter = createAliasEntriesAdapter({ maxPrefixV4: 8, maxPrefixV6: 32, protectedNetworks: ['10.10.20.0/24'], maxMembers: 20_000 });

useCoordinatorWorld({
  world: {
    capabilities: CapabilityRegistry.of([AliasDescriptionAdapter, adapter]),
    policy: MutationPolicy.of([ALIAS_WRITE_POLICY_ENTRY, ALIAS_ENTRIES_WRITE_POLICY_ENTRY]),
    filterVerificationDelaysMs: [0, 10],
  },
});

// The test aliases: DMZ_HOSTS (host, id 2). The seed's first rule (an enabled WAN block) is pointed at it.
function useDmzHostsInABlockRule(): void {
  sim.control.editRecord(RULES_PATH, 0, { source: 'DMZ_HOSTS', type: 'block', disabled: false });
}
afterEach(() => sim.control.resetData());

async function inputError(p: Promise<unknown>): Promise<CoordinatorInputError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CoordinatorInputError);
  return e as CoordinatorInputError;
}

describe('the entries capability through the driver', () => {
  it('block: requested → authorized → confirmed → verified, one PATCH, the pf table holding the entry', async () => {
    useDmzHostsInABlockRule();
    const input = { alias_name: 'DMZ_HOSTS', add: [{ address: '203.0.113.7', detail: 'scanner' }] };
    const r1 = await world.driver.requestChange(ENTRIES, input);
    expect(r1.status).toBe(OperationStatus.REQUESTED);
    expect(r1.pendingRequest?.file).toMatch(/^authorization-request\./);
    putInbox(world, 'authorization.json', signAuthorization(world, r1.pendingRequest?.file as string));
    const r2 = await world.driver.requestChange(ENTRIES, input);
    expect(r2.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    putInbox(world, 'confirmation.json', signConfirmation(world, r2.pendingRequest?.file as string));
    const r3 = await world.driver.requestChange(ENTRIES, input);
    expect(r3).toMatchObject({ status: OperationStatus.VERIFIED, operationId: r1.operationId });
    expect(patchCount(sim)).toBe(1);
    const answer = (await (await fetch(`${sim.url}${TABLES_PATH}`, { headers: { 'x-api-key': sim.apiKey } })).json()) as { data: unknown };
    const tables = answer.data as { name: string; entries: string[] }[];
    expect(tables.find((t) => t.name === 'DMZ_HOSTS')?.entries).toEqual(['10.3.0.10', '203.0.113.7']);

    // An unsigned rollback of an entries change is refused (it needs the operator's signed authorization).
    const id = r3.contractId as string;
    expect(world.driver.rollbackAwaitsAuthorization(id)).toBe(true);
    await expect(world.driver.rollback(id)).rejects.toBeInstanceOf(CoordinatorRefusalError);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'INBOX' });
    expect(world.store.load(id).state).toBe('VERIFIED');
    expect(patchCount(sim)).toBe(1);

    // The same block asked again: the entries before it differ, so it is another operation — and an input
    // error, the entry being present now. Never a stale `verified`.
    const again = await inputError(world.driver.requestChange(ENTRIES, input));
    expect(again).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'add[0].address', reason: 'ALREADY_PRESENT' });
    const unblockInput = { alias_name: 'DMZ_HOSTS', remove: ['203.0.113.7'] };
    const unblock = await world.driver.requestChange(ENTRIES, unblockInput);
    expect(unblock.status).toBe(OperationStatus.REQUESTED);
    expect(unblock.operationId).not.toBe(r1.operationId);
    putInbox(world, 'unblock-authorization.json', signAuthorization(world, unblock.pendingRequest?.file as string));
    const unblockPrepared = await world.driver.requestChange(ENTRIES, unblockInput);
    putInbox(world, 'unblock-confirmation.json', signConfirmation(world, unblockPrepared.pendingRequest?.file as string));
    expect(await world.driver.requestChange(ENTRIES, unblockInput)).toMatchObject({ status: OperationStatus.VERIFIED });
    expect(patchCount(sim)).toBe(2);

    // Block again: the entries before it are those before the first block, yet it is a third operation (the
    // unblock between them names it too) — requested, never the first block's `verified`.
    const third = await world.driver.requestChange(ENTRIES, input);
    expect(third.status).toBe(OperationStatus.REQUESTED);
    expect(third.operationId).not.toBe(r1.operationId);
    expect(third.operationId).not.toBe(unblock.operationId);
  });

  it('signed rollback: the request names the contract as verified; under the signed answer one PATCH puts the table back', async () => {
    useDmzHostsInABlockRule();
    const input = { alias_name: 'DMZ_HOSTS', add: [{ address: '198.51.100.9', detail: 'probe' }] };
    const r1 = await world.driver.requestChange(ENTRIES, input);
    putInbox(world, 'authorization.json', signAuthorization(world, r1.pendingRequest?.file as string));
    const r2 = await world.driver.requestChange(ENTRIES, input);
    putInbox(world, 'confirmation.json', signConfirmation(world, r2.pendingRequest?.file as string));
    const id = (await world.driver.requestChange(ENTRIES, input)).contractId as string;
    const verified = world.store.load(id);
    expect(verified.state).toBe('VERIFIED');

    const emitted = await world.driver.emitRecoveryRequest(id, 'rollback');
    expect(emitted.pendingRequest).toEqual({ kind: 'rollback', file: `rollback-request.${id}.v${verified.state_version}.json` });
    expect((await world.driver.emitRecoveryRequest(id, 'rollback')).alreadyPending).toBe(true);
    // An answer signed with a key of another role is refused, nothing consumed or sent.
    const byPlanKey = signRollback(world, emitted.pendingRequest.file, world.keys.authorization);
    const wrong = putInbox(world, `rollback-authorization.${id}.${verified.state_version}.json`, byPlanKey);
    await expect(world.driver.rollback(id)).rejects.toBeInstanceOf(CoordinatorRefusalError);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'ROLLBACK' });
    expect(patchCount(sim)).toBe(1);
    rmSync(wrong);

    putInbox(world, `rollback-authorization.${id}.${verified.state_version}.json`, signRollback(world, emitted.pendingRequest.file));
    expect(world.driver.rollbackAwaitsAuthorization(id)).toBe(false);
    const back = await world.driver.rollback(id);
    expect(back.state).toBe('ROLLED_BACK');
    expect(patchCount(sim)).toBe(2);
    const answer = (await (await fetch(`${sim.url}${TABLES_PATH}`, { headers: { 'x-api-key': sim.apiKey } })).json()) as { data: unknown };
    expect((answer.data as { name: string; entries: string[] }[]).find((t) => t.name === 'DMZ_HOSTS')?.entries).toEqual(['10.3.0.10']);
    // Used once: the contract has moved on, so the same answer concerns nothing now.
    await expect(world.driver.rollback(id)).rejects.toBeInstanceOf(CoordinatorRefusalError);
    expect(patchCount(sim)).toBe(2);
  });

  it('refuses, audited and with nothing written, a protected network, a /4 and a port alias; an absent entry is an input error', async () => {
    useDmzHostsInABlockRule();
    sim.control.editRecord(RULES_PATH, 1, { source: 'WEB_PORTS', type: 'block', disabled: false });
    const refused = { status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null };
    expect(await world.driver.requestChange(ENTRIES, { alias_name: 'DMZ_HOSTS', add: [{ address: '10.10.20.5' }] })).toEqual(refused);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'STALE', gate: 'CHANGE_RULES' });
    expect(await world.driver.requestChange(ENTRIES, { alias_name: 'WEB_PORTS', add: [{ address: '203.0.113.7' }] })).toEqual(refused);
    expect(world.audit.events().at(-1)).toMatchObject({ gate: 'CHANGE_RULES' });
    // LAN_SERVERS is named only by a disabled rule of the seed: pf has no table for it.
    expect(await world.driver.requestChange(ENTRIES, { alias_name: 'LAN_SERVERS', add: [{ address: '203.0.113.7' }] })).toEqual(refused);
    // A /4 is refused by the input rules alone in a host alias (a CIDR belongs in a network alias) — and by the
    // prefix bound in a network alias (the adapter's tests).
    expect(await world.driver.requestChange(ENTRIES, { alias_name: 'DMZ_HOSTS', add: [{ address: '0.0.0.0/4' }] })).toEqual(refused);
    const absent = await inputError(world.driver.requestChange(ENTRIES, { alias_name: 'DMZ_HOSTS', remove: ['203.0.113.9'] }));
    expect(absent).toMatchObject({ argument: 'remove[0]', reason: 'NOT_PRESENT' });
    const syntax = await inputError(world.driver.requestChange(ENTRIES, { alias_name: 'DMZ_HOSTS', add: [{ address: 'evil.example' }] }));
    expect(syntax).toMatchObject({ argument: 'add[0].address', reason: 'NOT_LITERAL' });
    expect(patchCount(sim)).toBe(0);
    expect(world.store.list()).toEqual([]);
  });

  it('lost response: reconciliation_required with its request written; the same arguments reach that operation, signed APPLIED → verified', async () => {
    useDmzHostsInABlockRule();
    const input = { alias_name: 'DMZ_HOSTS', add: [{ address: '203.0.113.7' }] };
    const r1 = await world.driver.requestChange(ENTRIES, input);
    putInbox(world, 'authorization.json', signAuthorization(world, r1.pendingRequest?.file as string));
    const r2 = await world.driver.requestChange(ENTRIES, input);
    putInbox(world, 'confirmation.json', signConfirmation(world, r2.pendingRequest?.file as string));
    sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply', times: 1 });
    const lost = await world.driver.requestChange(ENTRIES, input);
    const contractId = r2.contractId as string;
    expect(lost).toMatchObject({ status: OperationStatus.RECONCILIATION_REQUIRED, operationId: r1.operationId, contractId });
    // The very answer that reports it names the reconciliation request, the observed lists in it.
    const file = lost.pendingRequest?.file as string;
    expect(file).toMatch(/^reconciliation-request\./);
    const request = readOutbox(world, file);
    expect(request.kind).toBe(ArtifactKind.RECONCILIATION_REQUEST);
    const observed = request.kind === ArtifactKind.RECONCILIATION_REQUEST ? request.payload.observed_state : null;
    expect(observed).toMatchObject({ address: ['10.3.0.10', '203.0.113.7'], usage: [{ action: 'block' }] });

    // Asked again with the same arguments: the same operation and request (the entry is present now, and the
    // operation was named by the entries before it), nothing sent.
    const again = await world.driver.requestChange(ENTRIES, input);
    expect(again).toEqual({ ...lost, pendingRequest: { kind: 'reconciliation', file } });
    expect(patchCount(sim)).toBe(1);
    putInbox(world, 'reconciliation.json', signReconciliation(world, file, 'APPLIED'));
    expect(await world.driver.requestChange(ENTRIES, input)).toMatchObject({
      status: OperationStatus.VERIFIED,
      operationId: r1.operationId,
      contractId,
    });
    expect(patchCount(sim)).toBe(1);
  });
});
