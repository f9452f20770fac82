// The closed registry: one frozen entry per scenario id, in the order of docs/DESIGN.md §7, with declarations that agree
// with each other and with the fault proxy's own delivery semantics.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULT_DELIVERY } from '@pfsense-mcp/transports';
import { describe, expect, it } from 'vitest';
import { PRODUCT_VERSION, REPLACEMENTS, SCENARIOS, SCENARIO_IDS, DESCRIPTION_A, scenarioOf } from '../src/index.js';
import { BLOCKS } from '../src/lab-fixture.js';
import { checkFaultDelivery } from '../src/runtime-factory.js';
import { planOf } from '../src/scenario-plans.js';
import { ROOT } from './support/paths.js';

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('scenario registry', () => {
  it('has exactly the fifteen scenarios, in order, each once: the eight of the description, then the seven of the alias entries', () => {
    expect(SCENARIO_IDS).toEqual([
      'ordinary',
      'd1-stale-before-forward',
      'd3-conflict-after-verified',
      'e-forward-response-lost',
      'e-rollback-response-lost',
      'g-restart-executing',
      'g-restart-after-verified',
      'g-restart-rolling-back',
      'entries-ordinary',
      'entries-stale-before-forward',
      'entries-foreign-pending',
      'entries-forward-response-lost',
      'entries-table-stale',
      'entries-restart-executing',
      'entries-rollback-after-verified',
    ]);
    expect(SCENARIOS.map((s) => s.id)).toEqual([...SCENARIO_IDS]);
    expect(SCENARIOS.map((s) => s.capability)).toEqual([...Array(8).fill('description'), ...Array(7).fill('entries')]);
  });

  it('is deeply frozen: no entry, fault, count or state list can be changed at run time', () => {
    expect(isDeepFrozen(SCENARIOS)).toBe(true);
    expect(isDeepFrozen(REPLACEMENTS)).toBe(true);
    const entry = scenarioOf('ordinary') as unknown as { sends: { forward: number } };
    expect(() => {
      entry.sends.forward = 5;
    }).toThrow(TypeError);
    expect(() => scenarioOf('nope' as never)).toThrow(TypeError);
  });

  it('declares counts that agree: simulator writes = forward + rollback + orchestration sends; every final target is A', () => {
    for (const s of SCENARIOS) {
      expect(s.applianceWrites, s.id).toBe(s.sends.forward + s.sends.rollback + s.sends.orchestration);
      expect(s.finalTarget).toBe('A');
      expect(s.states[0]).toBe('PREPARED');
      expect(s.reconciledOnRestart === null, s.id).toBe(planOf(s.id).kind === 'in-process');
      expect(s.ownerOutcome === null, s.id).toBe(!s.states.includes('RECONCILIATION'));
    }
  });

  it("checks each declared upstream delivery against the proxy's FAULT_DELIVERY, and refuses a wrong one", () => {
    for (const s of SCENARIOS) expect(() => checkFaultDelivery(s), s.id).not.toThrow();
    const e = scenarioOf('e-forward-response-lost');
    expect(e.fault.kind === 'proxy-fault' && FAULT_DELIVERY[e.fault.proxyKind].reachesUpstream).toBe(true);
    const lying = { ...e, fault: { ...e.fault, upstreamDelivery: 'not-reached' } } as never;
    expect(() => checkFaultDelivery(lying)).toThrow(/FAULT_DELIVERY_MISMATCH/);
    const g = scenarioOf('g-restart-executing');
    expect(g.fault.kind === 'sigkill' && g.fault.holdKind !== null && FAULT_DELIVERY[g.fault.holdKind].reachesUpstream).toBe(false);
    const reaching = { ...g, fault: { ...g.fault, holdKind: 'drop-response-after-apply' } } as never;
    expect(() => checkFaultDelivery(reaching)).toThrow(/FAULT_DELIVERY_MISMATCH/);
  });

  it('keys B and C by scenario id, all distinct from A and from each other', () => {
    const all = [DESCRIPTION_A, ...Object.values(REPLACEMENTS).flatMap((r) => [r.b, r.c])];
    expect(new Set(all).size).toBe(all.length);
    expect(Object.keys(REPLACEMENTS)).toEqual([...SCENARIO_IDS]);
  });

  it("keys the entries scenarios' addresses by scenario id: documentation addresses, all distinct, none for a description scenario", () => {
    expect(Object.keys(BLOCKS)).toEqual([...SCENARIO_IDS]);
    for (const s of SCENARIOS) expect(BLOCKS[s.id] === null, s.id).toBe(s.capability === 'description');
    const addresses = Object.values(BLOCKS).flatMap((b) => (b === null ? [] : [b.block, b.other]));
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const a of addresses) expect(a).toMatch(/^(203\.0\.113|198\.51\.100)\.\d{1,3}$/);
    expect(isDeepFrozen(BLOCKS)).toBe(true);
  });

  it('names the product version of the root package.json', () => {
    expect(PRODUCT_VERSION).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});
