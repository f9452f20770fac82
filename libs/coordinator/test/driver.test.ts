// The capability-generic operation driver (docs/DESIGN.md §6): a closed registry refuses an unknown capability
// before any read; a call presenting an authorization reads the binding and the target once (counted by the
// simulator); and a failure after the store committed a state in this call is answered from that state.
import { describe, expect, it } from 'vitest';
import { AliasDescriptionAdapter } from '@pfsense-mcp/adapters';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { CapabilityRegistry, OperationStatus } from '../src/index.js';
import type { WriteCapability } from '../src/index.js';
import { sim, useCoordinatorWorld, world } from './support/coordinator-suite.js';
import {
  ALIASES_PATH,
  ALIAS_PATH,
  ALIAS_WRITE,
  STATUS_PATH,
  patchCount,
  putInbox,
  signAuthorization,
  signConfirmation,
} from './support/world.js';

useCoordinatorWorld();

const CONFIG_HISTORY_PATH = '/api/v2/diagnostics/config_history/revisions';
const REFUSED = { status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null };
const input = { alias_name: 'LAN_SERVERS', description: 'Servers (driver)' };

describe('the capability registry', () => {
  it('is closed and frozen: one adapter per capability, nothing added later', () => {
    expect(CapabilityRegistry.of([AliasDescriptionAdapter]).names()).toEqual([ALIAS_WRITE]);
    expect(() => CapabilityRegistry.of([])).toThrow(TypeError);
    expect(() => CapabilityRegistry.of([AliasDescriptionAdapter, AliasDescriptionAdapter])).toThrow(TypeError);
    expect(() => CapabilityRegistry.of([{ ...AliasDescriptionAdapter } as WriteCapability])).toThrow(TypeError);
    expect(Object.isFrozen(CapabilityRegistry.of([AliasDescriptionAdapter]))).toBe(true);
  });

  it('refuses an unknown capability before any read, with the one refusal shape', async () => {
    sim.control.resetCounters();
    for (const name of ['ALIAS_DELETE', 'FIREWALL_RULE_WRITE', '', '__proto__', 'toString']) {
      expect(await world.driver.requestChange(name, input)).toEqual(REFUSED);
      expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'CAPABILITY' });
    }
    expect(world.reads.calls).toEqual([]);
    expect(sim.control.counters()).toEqual({});
    expect(world.store.list()).toEqual([]);
  });
});

describe('one read pass', () => {
  it('a call presenting an authorization reads the binding and the target once each (simulator counters)', async () => {
    const r1 = await world.driver.requestChange(ALIAS_WRITE, input);
    expect(r1.status).toBe(OperationStatus.REQUESTED);
    putInbox(world, 'authorization.json', signAuthorization(world, r1.pendingRequest?.file as string));
    sim.control.resetCounters();
    const r2 = await world.driver.requestChange(ALIAS_WRITE, input);
    expect(r2.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    // The driver's binding and target reads serve every gate of the call: gate 5 does not read again.
    expect(sim.control.counters()).toEqual({ [`GET ${STATUS_PATH}`]: 1, [`GET ${ALIASES_PATH}`]: 1 });

    // The confirmation call: the driver reads the binding only; then the executor's own reads (config
    // history first, then its authoritative alias read before the send).
    putInbox(world, 'confirmation.json', signConfirmation(world, r2.pendingRequest?.file as string));
    sim.control.resetCounters();
    world.reads.calls.length = 0;
    const r3 = await world.driver.requestChange(ALIAS_WRITE, input);
    expect(r3.status).toBe(OperationStatus.VERIFIED);
    expect(sim.control.count(STATUS_PATH, 'GET')).toBe(1);
    expect(world.reads.calls.map((c) => `${c.method} ${c.path}`).slice(0, 2)).toEqual([`GET ${STATUS_PATH}`, `GET ${CONFIG_HISTORY_PATH}`]);
    expect(patchCount(sim)).toBe(1);
  });
});

describe('the answer comes from what the store committed', () => {
  it('an applied change whose post-read and observation fail is reconciliation_required with its ids — never refused', async () => {
    const r1 = await world.driver.requestChange(ALIAS_WRITE, input);
    putInbox(world, 'authorization.json', signAuthorization(world, r1.pendingRequest?.file as string));
    const r2 = await world.driver.requestChange(ALIAS_WRITE, input);
    putInbox(world, 'confirmation.json', signConfirmation(world, r2.pendingRequest?.file as string));
    const contractId = r2.contractId as string;

    // The appliance applies the PATCH, then answers 503 to every alias read: the executor's post-read fails
    // (RECONCILIATION) and so does the observation the reconciliation request needs.
    const forward = world.reads.request.bind(world.reads);
    world.reads.request = (...args) => {
      if (args[0] === 'GET' && args[1] === ALIASES_PATH && patchCount(sim) > 0) {
        sim.control.setFault({ route: ALIASES_PATH, method: 'GET', kind: '5xx-after-apply', status: 503 });
      }
      return forward(...args);
    };
    const r3 = await world.driver.requestChange(ALIAS_WRITE, input);
    expect(patchCount(sim)).toBe(1);
    expect(world.store.load(contractId).state).toBe(RecoveryState.RECONCILIATION);
    expect(r3).toEqual({ status: OperationStatus.RECONCILIATION_REQUIRED, operationId: r1.operationId, contractId, pendingRequest: null });

    // Asked again while the appliance still fails: the committed state, not `refused`.
    const r4 = await world.driver.requestChange(ALIAS_WRITE, input);
    expect(r4).toEqual({ status: OperationStatus.RECONCILIATION_REQUIRED, operationId: r1.operationId, contractId, pendingRequest: null });
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'STALE', gate: 'RECONCILIATION', contractId });

    // Once the appliance answers, the same call names the reconciliation request to sign; nothing was resent.
    world.reads.request = forward;
    sim.control.clearFaults();
    const r5 = await world.driver.requestChange(ALIAS_WRITE, input);
    expect(r5).toMatchObject({ status: OperationStatus.RECONCILIATION_REQUIRED, contractId });
    expect(r5.pendingRequest?.kind).toBe('reconciliation');
    expect(r5.pendingRequest?.file).toMatch(/^reconciliation-request\./);
    expect(patchCount(sim)).toBe(1);
    expect(sim.control.count(ALIAS_PATH, 'PATCH')).toBe(1);
  });
});
