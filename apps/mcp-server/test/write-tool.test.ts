// The write tool in process: the real server factory behind the SDK's stdio entry and the v2 SDK Client (the
// lifecycle in both protocol eras) over an in-memory link, the write runtime built
// from a write directory exactly as the program builds it, the simulator over loopback. Operator signatures come
// from the authorization library here; test/write-e2e.test.ts uses the real signer and the built server.
import { chmodSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { artifactDigestOf, parseArtifact } from '@pfsense-mcp/authorization';
import { ERAS } from './support/clients.js';
import { errorOf } from './support/in-process-server.js';
import { useInProcessWriteWorld } from './support/in-process-write-world.js';
import { simRequest } from './support/sim-request.js';
import { signIntoInbox } from './support/sign-into-inbox.js';
import { advanceConsumptionStore, advanceContractStore, type TestWriteDirectory } from './support/test-write-directory.js';
import type { WriteHarness } from './support/write-harness.js';
import { callWrite, WRITE_TOOL } from './support/write-result.js';
import { ALIAS_PATH, ALIASES_PATH, WRITE_KEY } from './support/write-simulator.js';
import { HELP_TEXT } from '../src/runtime/startup/help-text.js';

const world = useInProcessWriteWorld();
const { writeDir, harness } = world;

async function descrOf(name: string): Promise<unknown> {
  const r = await simRequest(world.sim.url, world.sim.apiKey, 'GET', ALIASES_PATH);
  return (r.json as { data: { name: string; descr: string }[] }).data.find((a) => a.name === name)?.descr;
}

async function setDescr(id: number, descr: string): Promise<void> {
  const r = await simRequest(world.sim.url, world.sim.apiKey, 'PATCH', ALIAS_PATH, { id, descr, apply: false });
  if (r.status !== 200) throw new Error(`admin PATCH ${r.status}`);
}

async function info(h: WriteHarness): Promise<Record<string, unknown>> {
  const r = await h.client.callTool({ name: 'pfsense_mcp_info', arguments: {} });
  return r.structuredContent as Record<string, unknown>;
}

const patches = () => world.sim.control.count(ALIAS_PATH, 'PATCH');

describe('registration: the three gates', () => {
  it('write_protected with a complete write directory: the tool is listed with its annotations and schemas; info says implemented, granted, runtime-enabled', async () => {
    const h = await harness(await writeDir());
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === WRITE_TOOL);
    expect(tool).toBeDefined();
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    expect(tool?.title).toBeTruthy();
    expect(tool?.description).toMatch(/ASYNCHRONOUS/);
    expect(tool?.description).toMatch(/ANOTHER machine/);
    expect(tool?.inputSchema.required).toEqual(['alias_name', 'description']);
    expect(tool?.outputSchema?.properties).toHaveProperty('pending_request');
    const facts = await info(h);
    expect(facts).toMatchObject({
      profile: 'write_protected',
      write_tool_count: 1,
      write_implemented: true,
      write_granted: true,
      write_runtime_enabled: true,
    });
    expect(facts['read_tool_count']).toBe(tools.length - 1);
    expect(h.logs.some((l) => l.includes('"event":"write_tool_absent"'))).toBe(false);
  });

  it('auditor with PFSENSE_WRITE_DIR set: 0 write tools, granted false, one line naming the granted gate; the stores are not even opened', async () => {
    const w = await writeDir();
    const before = readdirSync(w.layout.storeDir).sort();
    const h = await harness(w, { profile: 'auditor' });
    const { tools } = await h.client.listTools();
    expect(tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
    expect(await info(h)).toMatchObject({
      write_tool_count: 0,
      write_implemented: true,
      write_granted: false,
      write_runtime_enabled: false,
    });
    const absent = h.logs.filter((l) => l.includes('"event":"write_tool_absent"'));
    expect(absent).toHaveLength(1);
    expect(JSON.parse(absent[0] ?? '{}')).toMatchObject({ level: 'warn', gate: 'granted', code: 'NOT_GRANTED' });
    expect(readdirSync(w.layout.storeDir).sort()).toEqual(before);
  });

  it('default auditor without PFSENSE_WRITE_DIR: READ + 0 WRITE and no write line at all', async () => {
    const h = await harness(null, { profile: 'auditor' });
    const { tools } = await h.client.listTools();
    expect(tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
    expect(tools.length).toBeGreaterThan(90);
    expect(await info(h)).toMatchObject({ write_tool_count: 0, write_runtime_enabled: false });
    expect(h.logs.some((l) => l.includes('write_'))).toBe(false);
  });

  it('PFSENSE_ALLOWED_TOOLS can remove the write tool, never add it', async () => {
    const w = await writeDir();
    const removed = await harness(w, { allowedTools: new Set(['pfsense_mcp_info']) });
    expect((await removed.client.listTools()).tools.map((t) => t.name)).toEqual(['pfsense_mcp_info']);
    const notAdded = await harness(w, { profile: 'auditor', allowedTools: new Set([WRITE_TOOL, 'pfsense_mcp_info']) });
    expect((await notAdded.client.listTools()).tools.map((t) => t.name)).toEqual(['pfsense_mcp_info']);
    const only = await harness(w, { allowedTools: new Set([WRITE_TOOL]) });
    expect((await only.client.listTools()).tools.map((t) => t.name)).toEqual([WRITE_TOOL]);
  });

  it('PFSENSE_TOOLSETS: the write tool is in firewall — listed with it, absent without it, never added to a profile that lacks it', async () => {
    const w = await writeDir();
    const firewall = await harness(w, { toolsets: new Set(['firewall']) });
    const names = (await firewall.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain(WRITE_TOOL);
    expect(names).toContain('pfsense_get_firewall_aliases');
    expect(names).not.toContain('pfsense_get_firewall_nat_port_forwards');
    expect(firewall.attachment.runtime).not.toBeNull();
    const nat = await harness(w, { toolsets: new Set(['nat']) });
    expect((await nat.client.listTools()).tools.map((t) => t.name)).not.toContain(WRITE_TOOL);
    // removed on purpose: nothing is opened and nothing failed
    expect(nat.attachment).toEqual({ runtime: null, absent: null });
    const both = await harness(w, { toolsets: new Set(['firewall']), allowedTools: new Set(['pfsense_mcp_info']) });
    expect((await both.client.listTools()).tools.map((t) => t.name)).toEqual(['pfsense_mcp_info']);
    const auditor = await harness(w, { profile: 'auditor', toolsets: new Set(['firewall']) });
    expect((await auditor.client.listTools()).tools.map((t) => t.name)).not.toContain(WRITE_TOOL);
  });

  it('the alias PATCH missing from WriteEndpoints: absent, the line names allow_listed', async () => {
    const h = await harness(await writeDir(), {}, { allowListed: () => false });
    expect((await h.client.listTools()).tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
    const line = h.logs.find((l) => l.includes('"event":"write_tool_absent"'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ gate: 'allow_listed', code: 'NOT_ALLOW_LISTED' });
  });

  const runtimeFailures: [string, (w: TestWriteDirectory) => unknown, string][] = [
    ['no confirmation key pinned', (w) => w.pin(['plan-authorization']), 'NO_CONFIRMATION_KEY'],
    ['no plan-authorization key pinned', (w) => w.pin(['confirmation', 'reconciliation']), 'NO_PLAN_AUTHORIZATION_KEY'],
    ['the write directory readable by others', (w) => chmodSync(w.layout.dir, 0o755), 'WRITE_DIR_UNSAFE_MODE'],
    ['the outbox readable by others', (w) => chmodSync(w.layout.outboxDir, 0o750), 'WRITE_DIR_UNSAFE_MODE'],
    ['authorities.json malformed', (w) => writeFileSync(w.layout.authoritiesFile, '{"version":1}'), 'AUTHORITIES_MALFORMED'],
    [
      'the contract anchor removed',
      async (w) => {
        await advanceContractStore(w);
        rmSync(w.layout.contractsAnchorFile);
      },
      'STORE_ANCHOR_MISSING',
    ],
    [
      'the consumption anchor removed',
      async (w) => {
        await advanceConsumptionStore(w);
        rmSync(w.layout.consumptionAnchorFile);
      },
      'STORE_ANCHOR_MISSING',
    ],
    [
      'the contract store restored from an older copy (behind its anchor)',
      async (w) => {
        const older = readFileSync(w.layout.contractsDatabase);
        await advanceContractStore(w);
        writeFileSync(w.layout.contractsDatabase, older);
      },
      'STORE_BEHIND',
    ],
    [
      'the consumption store restored from an older copy',
      async (w) => {
        const older = readFileSync(w.layout.consumptionDatabase);
        await advanceConsumptionStore(w);
        writeFileSync(w.layout.consumptionDatabase, older);
      },
      'STORE_BEHIND',
    ],
  ];
  for (const [what, spoil, code] of runtimeFailures) {
    it(`runtime gate: ${what} → absent, READ still serves, one line with ${code}`, async () => {
      const w = await writeDir();
      await spoil(w);
      const h = await harness(w);
      const { tools } = await h.client.listTools();
      expect(tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
      const read = await h.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: {} });
      expect(read.isError).not.toBe(true);
      expect(await info(h)).toMatchObject({ write_granted: true, write_runtime_enabled: false, write_tool_count: 0 });
      const lines = h.logs.filter((l) => l.includes('"event":"write_tool_absent"'));
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
      expect(line).toMatchObject({ gate: 'runtime_enabled', code });
      expect(typeof line['rule']).toBe('string');
    });
  }

  it('PFSENSE_WRITE_DIR unset under write_protected: WRITE_DIR_UNSET', async () => {
    const h = await harness(null);
    const line = h.logs.find((l) => l.includes('"event":"write_tool_absent"'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ gate: 'runtime_enabled', code: 'WRITE_DIR_UNSET' });
  });
});

describe.each(ERAS)('the lifecycle through MCP (%s era)', (era) => {
  let w: TestWriteDirectory;
  let h: WriteHarness;
  beforeEach(async () => {
    w = await writeDir();
    h = await harness(w, {}, { era });
  });

  it('requested → signed authorization → awaiting_confirmation → signed confirmation → verified, one PATCH (with the write key), resumed on the same arguments', async () => {
    // One simulator for the whole file: each era writes its own value, so neither run is the other's no-op.
    const args = { alias_name: 'LAN_SERVERS', description: `Servers (reviewed, ${era})` };
    const patchesAtStart = patches();
    const first = await callWrite(h.client, args);
    expect(first.status).toBe('requested');
    expect(first.contract_id).toBeNull();
    expect(first.operation_id).toMatch(/^op-/);
    expect(first.pending_request).toMatch(new RegExp(`^${w.layout.outboxDir}/authorization-request\\.`));
    expect(existsSync(first.pending_request ?? '')).toBe(true);
    expect(first.next_step).toContain('pfsense-mcp-signer');
    expect(first.next_step).toContain(`pfsense-mcp admin inbox add --dir ${w.layout.dir}`);
    expect(first.next_step).toContain('same arguments');
    // Never the request digest or its approval prefix: the human reads those on the signer.
    const request = parseArtifact(readFileSync(first.pending_request ?? ''));
    const requestDigest = artifactDigestOf(request);
    expect(first.raw).not.toContain(requestDigest.slice(0, 12));
    expect(first.raw).not.toContain((request.payload as { plan_digest: string }).plan_digest);

    const again = await callWrite(h.client, args);
    expect(again).toMatchObject({ status: 'requested', operation_id: first.operation_id, pending_request: first.pending_request });

    signIntoInbox(w, first.pending_request ?? '');
    const prepared = await callWrite(h.client, args);
    expect(prepared.status).toBe('awaiting_confirmation');
    expect(prepared.operation_id).toBe(first.operation_id);
    expect(prepared.contract_id).toBeTruthy();
    expect(prepared.pending_request).toMatch(new RegExp(`^${w.layout.outboxDir}/confirmation-request\\.`));
    expect(patches()).toBe(patchesAtStart);

    const patchesBefore = patches();
    signIntoInbox(w, prepared.pending_request ?? '');
    const done = await callWrite(h.client, args);
    expect(done).toMatchObject({
      status: 'verified',
      operation_id: first.operation_id,
      contract_id: prepared.contract_id,
      pending_request: null,
    });
    expect(done.next_step).toMatch(/verified/);
    expect(await descrOf('LAN_SERVERS')).toBe(`Servers (reviewed, ${era})`);
    expect(patches()).toBe(patchesBefore + 1);

    const after = await callWrite(h.client, args);
    expect(after.status).toBe('verified');
    expect(patches()).toBe(patchesBefore + 1);
  });

  it('a pre-signed authorization already in the inbox is picked up on the first call of a new server', async () => {
    const args = { alias_name: 'WEB_PORTS', description: `Web ports (${era})` };
    const first = await callWrite(h.client, args);
    await h.close();
    signIntoInbox(w, first.pending_request ?? '');
    const next = await harness(w);
    const r = await callWrite(next.client, args);
    expect(r.status).toBe('awaiting_confirmation');
    expect(r.operation_id).toBe(first.operation_id);
  });

  it('an authorization signed for an older state of the alias is never used: the next call asks again', async () => {
    const args = { alias_name: 'DMZ_HOSTS', description: 'DMZ (signed too late)' };
    const first = await callWrite(h.client, args);
    signIntoInbox(w, first.pending_request ?? '');
    await setDescr(2, 'changed before the server used it');
    const r = await callWrite(h.client, args);
    expect(r.status).toBe('requested');
    expect(r.pending_request).not.toBe(first.pending_request);
  });

  it('refused on a stale target: the alias changed after the contract was prepared; one shape, nothing sent', async () => {
    const args = { alias_name: 'DMZ_HOSTS', description: 'DMZ (web)' };
    const first = await callWrite(h.client, args);
    signIntoInbox(w, first.pending_request ?? '');
    const prepared = await callWrite(h.client, args);
    expect(prepared.status).toBe('awaiting_confirmation');
    signIntoInbox(w, prepared.pending_request ?? '');
    await setDescr(2, 'changed by someone else');
    const before = patches();
    const r = await callWrite(h.client, args);
    expect(r).toEqual({
      status: 'refused',
      operation_id: null,
      contract_id: null,
      pending_request: null,
      next_step: 'Refused. The operator can inspect the write directory with `pfsense-mcp admin`.',
      raw: r.raw,
    });
    expect(patches()).toBe(before);
  });

  it('a second change of the alias moments after the first was verified: refused for now, next_step naming the cooldown and its end; nothing used up', async () => {
    const first = { alias_name: 'WEB_PORTS', description: `Web ports (first, ${era})` };
    const r1 = await callWrite(h.client, first);
    signIntoInbox(w, r1.pending_request ?? '');
    const r2 = await callWrite(h.client, first);
    signIntoInbox(w, r2.pending_request ?? '');
    const verifiedBefore = Date.now();
    expect(await callWrite(h.client, first)).toMatchObject({ status: 'verified' });
    const verifiedAfter = Date.now();
    const patchesAfter = patches();

    const second = { alias_name: 'WEB_PORTS', description: `Web ports (second, ${era})` };
    const requested = await callWrite(h.client, second);
    signIntoInbox(w, requested.pending_request ?? '');
    const refused = await callWrite(h.client, second);
    expect(refused).toMatchObject({ status: 'refused', operation_id: null, contract_id: null, pending_request: null });
    expect(Object.keys(refused).sort()).toEqual(['contract_id', 'next_step', 'operation_id', 'pending_request', 'raw', 'status']);
    const until = /in its cooldown until (\S+)\. Nothing was used up: call this tool again with the same arguments after that time\./.exec(
      refused.next_step,
    );
    expect(until).not.toBeNull();
    // The default 60 s cooldown from the verified change (whole seconds on either side of the call).
    const end = Date.parse(until?.[1] ?? '');
    expect(end).toBeGreaterThanOrEqual(verifiedBefore + 60_000);
    expect(end).toBeLessThanOrEqual(verifiedAfter + 60_000);
    expect(patches()).toBe(patchesAfter);
  });

  it('invalid input is an INVALID_INPUT error naming the argument, never echoing the value', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ alias_name: 'NO_SUCH_ALIAS', description: 'x' }, 'alias_name'],
      [{ alias_name: 'LAN_SERVERS', description: 'bell\u0007here' }, 'description'],
      [{ alias_name: 'LAN_SERVERS', description: 'x'.repeat(1025) }, 'description'],
      [{ alias_name: 'LAN_SERVERS', description: 'e\u0301' }, 'description'],
      [{ alias_name: 'LAN SERVERS', description: 'x' }, 'alias_name'],
      [{ alias_name: 'LAN_SERVERS', description: 'x', extra: 1 }, 'extra'],
    ];
    for (const [args, argument] of cases) {
      const r = await h.client.callTool({ name: WRITE_TOOL, arguments: args });
      const error = errorOf(r);
      expect(error.code).toBe('INVALID_INPUT');
      expect(JSON.stringify(error)).toContain(argument);
      expect(JSON.stringify(r)).not.toContain('bell');
    }
    expect(
      errorOf(await h.client.callTool({ name: WRITE_TOOL, arguments: { alias_name: 'NO_SUCH_ALIAS', description: 'x' } })).detail,
    ).toBe('alias_name names no alias on the appliance (UNKNOWN_ALIAS)');
  });

  it('bidi and zero-width text is a value like any other: requested, and no result or log line carries it', async () => {
    const hostile = 'safe\u202Eevil\u200Bhidden';
    const r = await callWrite(h.client, { alias_name: 'LAN_SERVERS', description: hostile });
    expect(r.status).toBe('requested');
    expect(r.raw).not.toContain('evil');
    expect(h.logs.join('\n')).not.toContain('evil');
  });
});

describe('keys per call', () => {
  it('without PFSENSE_WRITE_API_KEY_FILE the READ key sends the PATCH too (it then needs that privilege)', async () => {
    const w = await writeDir();
    // The READ key lacks the PATCH privilege: the executor's one PATCH is refused (403) → FAILED, never resent.
    const h = await harness(w, { write: { dir: w.layout.dir, anchorDir: null, apiKeyFile: null } });
    const args = { alias_name: 'WEB_PORTS', description: 'Ports, read key only' };
    const first = await callWrite(h.client, args);
    signIntoInbox(w, first.pending_request ?? '');
    const prepared = await callWrite(h.client, args);
    signIntoInbox(w, prepared.pending_request ?? '');
    const before = patches();
    const r = await callWrite(h.client, args);
    expect(patches()).toBe(before + 1);
    expect(r.status).toBe('refused');
    expect(await descrOf('WEB_PORTS')).not.toBe('Ports, read key only');
  });

  it('the write key alone cannot serve the reads: with it as the READ key the alias read fails and the call is refused', async () => {
    const w = await writeDir();
    const h = await harness(w, {}, { readKey: WRITE_KEY });
    const r = await callWrite(h.client, { alias_name: 'LAN_SERVERS', description: 'never' });
    expect(r.status).toBe('refused');
  });
});

describe.each(ERAS)('reconciliation through MCP (%s era)', (era) => {
  it('the PATCH response lost after apply → reconciliation_required with its pending request → signed APPLIED → verified, never resent', async () => {
    const w = await writeDir();
    const h = await harness(w, {}, { era });
    const args = { alias_name: 'LAN_SERVERS', description: `Servers (lost response, ${era})` };
    const first = await callWrite(h.client, args);
    signIntoInbox(w, first.pending_request ?? '');
    const prepared = await callWrite(h.client, args);
    signIntoInbox(w, prepared.pending_request ?? '');
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply', times: 1 });
    const before = patches();
    const lost = await callWrite(h.client, args);
    expect(lost.status).toBe('reconciliation_required');
    expect(lost.next_step).toMatch(/^NOT done/);
    expect(lost.next_step).toContain('--outcome APPLIED|NOT_APPLIED');
    const pending = lost.pending_request ?? '';
    expect(pending).toMatch(new RegExp(`^${w.layout.outboxDir}/reconciliation-request\\.`));
    expect(patches()).toBe(before + 1);
    expect(await callWrite(h.client, args)).toMatchObject({ status: 'reconciliation_required', pending_request: pending });
    signIntoInbox(w, pending, 'APPLIED');
    const settled = await callWrite(h.client, args);
    expect(settled.status).toBe('verified');
    expect(patches()).toBe(before + 1);
  });
});

describe('--help', () => {
  it('names the write variables', () => {
    for (const v of [
      'PFSENSE_WRITE_DIR',
      'PFSENSE_WRITE_ANCHOR_DIR',
      'PFSENSE_WRITE_API_KEY_FILE',
      'pfsense_set_firewall_alias_description',
    ])
      expect(HELP_TEXT).toContain(v);
  });
});
