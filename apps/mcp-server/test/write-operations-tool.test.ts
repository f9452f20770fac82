// pfsense_get_write_operations in process (real McpServer and SDK Client, the write runtime built from a
// write directory as the program builds it, the simulator over loopback), and the leftover counts that
// pfsense_mcp_info and the start-up log report.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { errorOf } from './support/in-process-server.js';
import { useInProcessWriteWorld } from './support/in-process-write-world.js';
import { signIntoInbox } from './support/sign-into-inbox.js';
import type { WriteHarness } from './support/write-harness.js';
import { callWrite, WRITE_TOOL } from './support/write-result.js';

const OPS_TOOL = 'pfsense_get_write_operations';

const world = useInProcessWriteWorld();
const { writeDir, harness } = world;

interface OpsResult {
  data: {
    operation_id: string;
    status: string;
    contract_state: string | null;
    contract_id: string | null;
    attempts: number;
    created_at: string;
    updated_at: string;
    pending_request: string | null;
    next_step: string;
  }[];
  count: number;
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
}

async function ops(client: Client, args: Record<string, unknown> = {}): Promise<OpsResult & { raw: string }> {
  const r = (await client.callTool({ name: OPS_TOOL, arguments: args })) as {
    content: { text: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  };
  const text = r.content[0]?.text ?? '';
  if (r.isError === true) throw new Error(`ops tool error: ${text}`);
  expect(JSON.stringify(r.structuredContent)).toBe(text);
  return { ...(r.structuredContent as OpsResult), raw: text };
}

const names = async (x: WriteHarness) => (await x.client.listTools()).tools.map((t) => t.name);

describe("pfsense_get_write_operations: registration under the write tool's three gates", () => {
  it('listed with read-only annotations next to the write tool', async () => {
    const w = await writeDir();
    const h = await harness(w);
    const tool = (await h.client.listTools()).tools.find((t) => t.name === OPS_TOOL);
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(tool?.inputSchema.properties).toHaveProperty('operation_id');
    expect(tool?.inputSchema.properties).toHaveProperty('limit');
    expect(tool?.inputSchema.properties).toHaveProperty('offset');
  });

  it('absent without the grant, the allow-list entry or the runtime', async () => {
    const w = await writeDir();
    expect(await names(await harness(w, { profile: 'auditor' }))).not.toContain(OPS_TOOL);
    expect(await names(await harness(w, {}, { allowListed: () => false }))).not.toContain(OPS_TOOL);
    expect(await names(await harness(null))).not.toContain(OPS_TOOL);
  });

  it('PFSENSE_ALLOWED_TOOLS removes it (or keeps it alone), never adds it', async () => {
    const w = await writeDir();
    expect(await names(await harness(w, { allowedTools: new Set([OPS_TOOL]) }))).toEqual([OPS_TOOL]);
    expect(await names(await harness(w, { allowedTools: new Set([WRITE_TOOL]) }))).toEqual([WRITE_TOOL]);
    expect(await names(await harness(w, { profile: 'auditor', allowedTools: new Set([OPS_TOOL]) }))).toEqual([]);
  });

  it('PFSENSE_TOOLSETS: it is in `firewall`, with the write tool', async () => {
    const w = await writeDir();
    expect(await names(await harness(w, { toolsets: new Set(['firewall']) }))).toEqual(expect.arrayContaining([OPS_TOOL, WRITE_TOOL]));
    expect(await names(await harness(w, { toolsets: new Set(['nat']) }))).not.toContain(OPS_TOOL);
  });
});

describe('pfsense_get_write_operations: the view', () => {
  it('newest first, status, state, times and the next human step; never a description, alias name or file content; filter and paging', async () => {
    const w = await writeDir();
    const h = await harness(w);
    const DESCR_A = 'Servers (rack 7) SENTINEL-DESCR-A';
    const DESCR_B = 'Web ports SENTINEL-DESCR-B';
    expect(await ops(h.client)).toMatchObject({ data: [], count: 0, total: 0, limit: 100, offset: 0, next_offset: null });

    // requested: no contract yet; the outbox's authorization request makes it an operation (issue 36 item 3).
    const a1 = await callWrite(h.client, { alias_name: 'LAN_SERVERS', description: DESCR_A });
    expect(a1.status).toBe('requested');
    expect((await ops(h.client)).data).toEqual([
      {
        operation_id: a1.operation_id,
        status: 'requested',
        contract_state: null,
        contract_id: null,
        attempts: 0,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        pending_request: a1.pending_request,
        next_step: expect.stringContaining('plan-authorization'),
      },
    ]);

    // awaiting_confirmation: the contract exists and its confirmation request waits in the outbox.
    signIntoInbox(w, a1.pending_request as string);
    const a2 = await callWrite(h.client, { alias_name: 'LAN_SERVERS', description: DESCR_A });
    expect(a2.status).toBe('awaiting_confirmation');
    const one = await ops(h.client);
    expect(one.data).toEqual([
      {
        operation_id: a2.operation_id,
        status: 'awaiting_confirmation',
        contract_state: 'PREPARED',
        contract_id: a2.contract_id,
        attempts: 1,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        pending_request: a2.pending_request,
        next_step: expect.stringContaining('confirm'),
      },
    ]);
    expect(existsSync(one.data[0]?.pending_request as string)).toBe(true);

    // A second operation (another alias), then the first goes on to VERIFIED.
    const b1 = await callWrite(h.client, { alias_name: 'WEB_PORTS', description: DESCR_B });
    signIntoInbox(w, b1.pending_request as string);
    const b2 = await callWrite(h.client, { alias_name: 'WEB_PORTS', description: DESCR_B });
    expect(b2.status).toBe('awaiting_confirmation');
    signIntoInbox(w, a2.pending_request as string);
    expect((await callWrite(h.client, { alias_name: 'LAN_SERVERS', description: DESCR_A })).status).toBe('verified');

    const both = await ops(h.client);
    expect(both.total).toBe(2);
    expect(both.data.map((o) => [o.operation_id, o.status, o.contract_state])).toEqual([
      [b2.operation_id, 'awaiting_confirmation', 'PREPARED'],
      [a2.operation_id, 'verified', 'VERIFIED'],
    ]);
    expect(both.data[1]?.pending_request).toBeNull();
    expect(both.data[1]?.next_step).toMatch(/verified/);
    const keyHex = Buffer.from(w.operator.confirmation.publicKey).toString('hex');
    for (const secret of [
      'SENTINEL-DESCR',
      'LAN_SERVERS',
      'WEB_PORTS',
      '"proof"',
      '"signature"',
      'Servers',
      keyHex,
      w.operator.confirmation.keyId,
    ]) {
      expect(both.raw).not.toContain(secret);
    }

    expect((await ops(h.client, { operation_id: a2.operation_id })).data.map((o) => o.status)).toEqual(['verified']);
    expect((await ops(h.client, { operation_id: `op-${'0'.repeat(64)}` })).total).toBe(0);
    const first = await ops(h.client, { limit: 1 });
    expect(first).toMatchObject({ count: 1, total: 2, limit: 1, offset: 0, next_offset: 1 });
    expect(first.data[0]?.operation_id).toBe(b2.operation_id);
    const second = await ops(h.client, { limit: 1, offset: 1 });
    expect(second).toMatchObject({ count: 1, total: 2, offset: 1, next_offset: null });
    expect(second.data[0]?.operation_id).toBe(a2.operation_id);
  });

  it('refuses bad arguments with INVALID_INPUT', async () => {
    const h = await harness(await writeDir());
    for (const args of [
      { operation_id: 'op-XYZ' },
      { limit: 0 },
      { limit: 1001 },
      { offset: -1 },
      { extra: true },
      { operation_id: 'LAN_SERVERS' },
    ]) {
      const r = await h.client.callTool({ name: OPS_TOOL, arguments: args });
      expect(errorOf(r).code).toBe('INVALID_INPUT');
    }
  });
});

describe('leftovers: counted, warned about, never an obstacle', () => {
  it('pfsense_mcp_info reports the inbox/outbox counts; past the threshold it warns, and so does the start-up log', async () => {
    const w = await writeDir();
    const h = await harness(w);
    const info = async (x: WriteHarness) =>
      (await x.client.callTool({ name: 'pfsense_mcp_info', arguments: {} })).structuredContent as Record<string, unknown>;
    expect(await info(h)).toMatchObject({ write_artifact_files: { inbox: 0, outbox: 0 }, write_artifacts_warning: false });
    expect(h.logs.some((l) => l.includes('write_artifacts_piled_up'))).toBe(false);
    for (let i = 0; i < 500; i += 1)
      writeFileSync(join(w.layout.outboxDir, `confirmation-request.ctr-${i.toString(16).padStart(32, '0')}.json`), 'leftover', {
        mode: 0o600,
      });
    expect(await info(h)).toMatchObject({ write_artifact_files: { inbox: 0, outbox: 500 }, write_artifacts_warning: true });
    // The write still works past the threshold.
    expect((await callWrite(h.client, { alias_name: 'DMZ_HOSTS', description: 'still works' })).status).toBe('requested');
    const again = await harness(w);
    const warning = again.logs.find((l) => l.includes('"event":"write_artifacts_piled_up"'));
    expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 'warn', inbox_files: 0, outbox_files: 501 });
    expect(warning).not.toMatch(/confirmation-request|ctr-/);
    // Without a write runtime there is nothing to count.
    expect(await info(await harness(null, { profile: 'auditor' }))).toMatchObject({
      write_artifact_files: null,
      write_artifacts_warning: false,
    });
  });
});
