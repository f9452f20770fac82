// pfsense_change_firewall_alias_entries in process: the real server factory and the SDK Client over an in-memory
// link, the write runtime built from a write directory as the program builds it, the simulator over loopback.
// Operator signatures come from the authorization library (the built signer's review: apps/signer-cli tests).
import { readdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PendingRequestKind, awaitedInboxName } from '@pfsense-mcp/coordinator';
import type { PendingRequest } from '@pfsense-mcp/coordinator';
import { afterEach, describe, expect, it } from 'vitest';
import { useInProcessWriteWorld } from './support/in-process-write-world.js';
import { signIntoInbox } from './support/sign-into-inbox.js';
import { simRequest } from './support/sim-request.js';
import { until } from './support/until.js';
import { ALIAS_PATH, ENTRIES_READ_KEY } from './support/write-simulator.js';
import { WRITE_TOOL } from './support/write-result.js';
import type { TestWriteDirectory } from './support/test-write-directory.js';
import type { WriteHarness } from './support/write-harness.js';

const ENTRIES_TOOL = 'pfsense_change_firewall_alias_entries';
const RULES_PATH = '/api/v2/firewall/rules';
const world = useInProcessWriteWorld();
const patches = () => world.sim.control.count(ALIAS_PATH, 'PATCH');
afterEach(() => {
  world.sim.control.resetData();
  world.sim.control.resetCounters();
});

async function call(h: WriteHarness, args: Record<string, unknown>) {
  const r = (await h.client.callTool({ name: ENTRIES_TOOL, arguments: args })) as {
    structuredContent?: Record<string, unknown>;
    content: { text: string }[];
    isError?: boolean;
  };
  return r;
}

/** Signs a pending request and installs the answer under the name a waiting call looks for (as `admin inbox add` does). */
function installAnswer(w: TestWriteDirectory, pending: PendingRequest): void {
  const signed = signIntoInbox(w, join(w.layout.outboxDir, pending.file));
  renameSync(signed, join(w.layout.inboxDir, awaitedInboxName(pending) as string));
}

async function entriesHarness(capabilities: readonly string[]): Promise<WriteHarness & { w: TestWriteDirectory }> {
  const w = await world.writeDir();
  const h = await world.harness(w, { write: { capabilities } } as never, { readKey: ENTRIES_READ_KEY });
  return Object.assign(h, { w });
}

describe('the alias entries tool', () => {
  it('is absent unless PFSENSE_WRITE_CAPABILITIES names alias_entries; the description tool is absent when only entries are named', async () => {
    const byDefault = await entriesHarness(['alias_description']);
    const names = (await byDefault.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain(WRITE_TOOL);
    expect(names).not.toContain(ENTRIES_TOOL);
    const onlyEntries = await entriesHarness(['alias_entries']);
    const listed = (await onlyEntries.client.listTools()).tools;
    expect(listed.map((t) => t.name)).toContain(ENTRIES_TOOL);
    expect(listed.map((t) => t.name)).not.toContain(WRITE_TOOL);
    const tool = listed.find((t) => t.name === ENTRIES_TOOL);
    expect(tool?.inputSchema.required).toEqual(['alias_name']);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['alias_name', 'add', 'remove', 'wait_seconds']);
    // One wait_seconds for every write tool (wait-for-answer.ts): the same schema as the description tool's.
    const description = (await byDefault.client.listTools()).tools.find((t) => t.name === WRITE_TOOL);
    expect(tool?.inputSchema.properties?.wait_seconds).toEqual(description?.inputSchema.properties?.wait_seconds);

    // pfsense_mcp_info reports each capability's gates, as --check-config prints them.
    const info = async (h: WriteHarness) =>
      ((await h.client.callTool({ name: 'pfsense_mcp_info', arguments: {} })).structuredContent as Record<string, unknown>)[
        'write_capabilities'
      ];
    const gates = { implemented: true, granted: true, allow_listed: true };
    expect(await info(onlyEntries)).toEqual([
      { name: 'alias_description', capability: 'ALIAS_WRITE', tool: WRITE_TOOL, enabled: false, ...gates, runtime_enabled: false },
      { name: 'alias_entries', capability: 'ALIAS_ENTRIES_WRITE', tool: ENTRIES_TOOL, enabled: true, ...gates, runtime_enabled: true },
    ]);
    expect(await info(byDefault)).toMatchObject([
      { name: 'alias_description', enabled: true, runtime_enabled: true },
      { name: 'alias_entries', enabled: false, runtime_enabled: false },
    ]);
  });

  it('wait_seconds: one call picks up the authorization, waits for the confirmation and goes on to verified (the wait is not part of the operation)', async () => {
    world.sim.control.editRecord(RULES_PATH, 0, { source: 'DMZ_HOSTS', type: 'block', disabled: false });
    const h = await entriesHarness(['alias_entries']);
    const args = { alias_name: 'DMZ_HOSTS', add: [{ address: '203.0.113.9', detail: 'scanner' }] };
    const r1 = await call(h, args);
    expect(r1.structuredContent).toMatchObject({ status: 'requested' });
    const authorization = r1.structuredContent?.pending_request as string;
    const progress: string[] = [];
    const waiting = h.client.callTool(
      { name: ENTRIES_TOOL, arguments: { ...args, wait_seconds: 40 } },
      { timeout: 120_000, onprogress: (p) => progress.push(String(p.message ?? '')) },
    ) as Promise<{ structuredContent?: Record<string, unknown>; isError?: boolean }>;
    await until(() => progress.some((m) => m.includes('authorization')));
    installAnswer(h.w, { kind: PendingRequestKind.AUTHORIZATION, file: basename(authorization) });
    await until(() => progress.some((m) => m.includes('confirmation')));
    const confirmation = readdirSync(dirname(authorization)).find((n) => n.startsWith('confirmation-request')) as string;
    installAnswer(h.w, { kind: PendingRequestKind.CONFIRMATION, file: confirmation });
    const result = await waiting;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'verified', operation_id: r1.structuredContent?.operation_id });
    expect(patches()).toBe(1);
  });

  it('block → verified with the pf table holding the entry, one PATCH; an input error names the argument', async () => {
    world.sim.control.editRecord(RULES_PATH, 0, { source: 'DMZ_HOSTS', type: 'block', disabled: false });
    const w = await world.writeDir();
    const h = await world.harness(w, { write: { capabilities: ['alias_description', 'alias_entries'] } } as never, {
      readKey: ENTRIES_READ_KEY,
    });
    const args = { alias_name: 'DMZ_HOSTS', add: [{ address: '203.0.113.7', detail: 'scanner' }] };
    const r1 = await call(h, args);
    expect(r1.structuredContent).toMatchObject({ status: 'requested' });
    signIntoInbox(w, r1.structuredContent?.pending_request as string);
    const r2 = await call(h, args);
    expect(r2.structuredContent).toMatchObject({ status: 'awaiting_confirmation' });
    signIntoInbox(w, r2.structuredContent?.pending_request as string);
    const r3 = await call(h, args);
    expect(r3.structuredContent).toMatchObject({ status: 'verified', operation_id: r1.structuredContent?.operation_id });
    expect(String(r3.structuredContent?.next_step)).toMatch(/pf table holds exactly the new entries/);
    expect(patches()).toBe(1);
    const tables = await simRequest(world.sim.url, world.sim.apiKey, 'GET', '/api/v2/diagnostics/tables');
    const table = (tables.json as { data: { name: string; entries: string[] }[] }).data.find((t) => t.name === 'DMZ_HOSTS');
    expect(table?.entries).toEqual(['10.3.0.10', '203.0.113.7']);

    const again = await call(h, args);
    expect(again.isError).toBe(true);
    expect(again.content[0]?.text).toMatch(/add\[0\]\.address is invalid \(ALREADY_PRESENT\)/);
    const bad = await call(h, { alias_name: 'DMZ_HOSTS', add: [{ address: 'evil.example' }] });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/add\[0\]\.address is invalid \(NOT_LITERAL\)/);
  });

  it('a foreign pending change: refused with zero PATCH; the same call runs once nothing is pending', async () => {
    world.sim.control.editRecord(RULES_PATH, 0, { source: 'DMZ_HOSTS', type: 'block', disabled: false });
    const w = await world.writeDir();
    const h = await world.harness(w, { write: { capabilities: ['alias_entries'] } } as never, { readKey: ENTRIES_READ_KEY });
    const args = { alias_name: 'DMZ_HOSTS', remove: ['10.3.0.10'] };
    const r1 = await call(h, args);
    signIntoInbox(w, r1.structuredContent?.pending_request as string);
    const r2 = await call(h, args);
    signIntoInbox(w, r2.structuredContent?.pending_request as string);
    world.sim.control.markPending('filter');
    const r3 = await call(h, args);
    expect(r3.structuredContent).toMatchObject({ status: 'refused', operation_id: null });
    expect(patches()).toBe(0);
    // Nothing was consumed: once the other change is applied, the same call runs the confirmed contract.
    await simRequest(world.sim.url, world.sim.apiKey, 'POST', '/api/v2/firewall/apply', {});
    const r4 = await call(h, args);
    expect(r4.structuredContent).toMatchObject({ status: 'verified', operation_id: r1.structuredContent?.operation_id });
    expect(patches()).toBe(1);
  });

  it('a lost response: reconciliation_required naming its request; asked again with the same arguments, the same operation and request', async () => {
    world.sim.control.editRecord(RULES_PATH, 0, { source: 'DMZ_HOSTS', type: 'block', disabled: false });
    const h = await entriesHarness(['alias_entries']);
    const args = { alias_name: 'DMZ_HOSTS', add: [{ address: '203.0.113.12' }] };
    const r1 = await call(h, args);
    signIntoInbox(h.w, r1.structuredContent?.pending_request as string);
    const r2 = await call(h, args);
    signIntoInbox(h.w, r2.structuredContent?.pending_request as string);
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply', times: 1 });
    const lost = await call(h, args);
    expect(lost.structuredContent).toMatchObject({ status: 'reconciliation_required', operation_id: r1.structuredContent?.operation_id });
    expect(String(lost.structuredContent?.pending_request)).toMatch(/reconciliation-request\.[^/]+\.json$/);
    const again = await call(h, args);
    expect(again.isError).not.toBe(true);
    expect(again.structuredContent).toMatchObject({
      status: 'reconciliation_required',
      operation_id: r1.structuredContent?.operation_id,
      pending_request: lost.structuredContent?.pending_request,
    });
    expect(patches()).toBe(1);
  });
});
