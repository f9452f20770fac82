// The end-to-end suite of the 2025 era: the BUILT server spawned over stdio by clients that open with
// `initialize` — the v1 SDK's Client (what deployed 2025 hosts run), the v2 Client in its default mode and
// raw 2025 lines — plus the v2 Client in `auto` mode, which must find the current revision by itself.
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBuiltReadWorld } from './support/built-read-world.js';
import { newClient } from './support/clients.js';
import { toolErrorCode } from './support/tool-error-code.js';
import { collect, connectBuilt, INITIALIZE, runBuilt, serverEnv, serverMain, spawnBuilt } from './support/built-server.js';

const world = useBuiltReadWorld();

async function connectV1(extraEnv: Record<string, string>, args: string[] = []): Promise<{ client: V1Client; stderr: () => string }> {
  const transport = new V1StdioClientTransport({
    command: process.execPath,
    args: [serverMain, ...args],
    env: serverEnv(extraEnv),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new V1Client({ name: 'mcp-server-e2e-v1', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('a 2025-era client (the v1 SDK Client, initialize handshake)', () => {
  let server: Awaited<ReturnType<typeof connectV1>>;
  beforeAll(async () => {
    world.sim.control.resetCounters();
    server = await connectV1(world.env);
  });
  afterAll(async () => {
    await server.client.close();
  });

  it('negotiates a 2025 revision and lists all 95 tools with read-only annotations and output schemas, no WRITE tool', async () => {
    expect(server.client.getServerVersion()).toMatchObject({ name: 'pfsense-mcp' });
    const { tools } = await server.client.listTools();
    expect(tools).toHaveLength(95);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    expect(Object.values(world.sim.control.counters()).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('calls every tool: structuredContent (checked by the v1 client against the output schema) and the same JSON as text', async () => {
    const { tools } = await server.client.listTools();
    for (const tool of tools) {
      const result = await server.client.callTool({ name: tool.name, arguments: {} });
      expect(result.isError ?? false, tool.name).toBe(false);
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(JSON.parse(text), tool.name).toEqual(result.structuredContent);
    }
    expect(server.stderr()).not.toContain(world.sim.apiKey);
  });

  it('gives the stable error codes in the stable shape: INVALID_INPUT, UNKNOWN_TOOL, upstream failures', async () => {
    const invalid = await server.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { limit: 10_000 } });
    expect([invalid.isError, toolErrorCode(invalid)]).toEqual([true, 'INVALID_INPUT']);
    const unknown = await server.client.callTool({ name: 'pfsense_set_everything', arguments: {} });
    expect([unknown.isError, toolErrorCode(unknown)]).toEqual([true, 'UNKNOWN_TOOL']);
    world.sim.control.setFault({ route: '/api/v2/firewall/aliases', method: 'GET', kind: '5xx-after-apply', status: 500, times: 1 });
    try {
      const upstream = await server.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: {} });
      expect([upstream.isError, toolErrorCode(upstream)]).toEqual([true, 'UPSTREAM_ERROR']);
    } finally {
      world.sim.control.clearFaults();
    }
    const info = await server.client.callTool({ name: 'pfsense_mcp_info', arguments: {} });
    expect(info.structuredContent).toMatchObject({ profile: 'auditor', registered_tool_count: 95, write_tool_count: 0 });
  });
});

describe('the gates hold for a 2025-era client too', () => {
  it('PFSENSE_ALLOWED_TOOLS narrows the list; an empty value registers zero tools', async () => {
    const narrow = await connectV1({ ...world.env, PFSENSE_ALLOWED_TOOLS: 'pfsense_get_system_status,pfsense_mcp_info' });
    try {
      expect((await narrow.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['pfsense_get_system_status', 'pfsense_mcp_info']);
      expect(toolErrorCode(await narrow.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: {} }))).toBe('UNKNOWN_TOOL');
    } finally {
      await narrow.client.close();
    }
    const empty = await connectV1({ ...world.env, PFSENSE_ALLOWED_TOOLS: '' });
    try {
      expect((await empty.client.listTools()).tools).toEqual([]);
    } finally {
      await empty.client.close();
    }
  });
});

describe('the v2 Client: default mode stays on 2025, auto mode finds 2026-07-28', () => {
  it('default mode: the initialize handshake, a legacy connection, the same tool list', async () => {
    const legacy = await connectBuilt(world.env, [], 'legacy');
    try {
      expect((await legacy.client.listTools()).tools).toHaveLength(95);
    } finally {
      await legacy.close();
    }
  });

  it('auto mode: probes with server/discover and lands on the current revision', async () => {
    const client = newClient('auto', 'mcp-server-e2e-auto');
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [serverMain], env: serverEnv(world.env), stderr: 'ignore' }),
    );
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools).toHaveLength(95);
    } finally {
      await client.close();
    }
  });
});

describe('raw 2025 lines: stdout, logs and shutdown', () => {
  it('stdout carries only JSON-RPC frames; logs go to stderr as JSON lines; stdin EOF exits 0 after the calls answer', async () => {
    const call = (id: number, name: string, args: object) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const run = await runBuilt(
      world.env,
      [],
      [
        INITIALIZE,
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        call(3, 'pfsense_get_firewall_aliases', {}),
        call(4, 'pfsense_get_firewall_aliases', { limit: -1 }),
        'this is not json',
      ],
    );
    expect(run.code).toBe(0);
    const frames = run.stdout
      .trim()
      .split('\n')
      .map((f) => JSON.parse(f) as { jsonrpc: string; id?: number; result?: Record<string, unknown> });
    for (const frame of frames) expect(frame.jsonrpc).toBe('2.0');
    const byId = new Map(frames.map((f) => [f.id, f.result]));
    expect(byId.get(1)).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'pfsense-mcp' }, capabilities: { tools: {} } });
    expect((byId.get(2)?.['tools'] as unknown[]).length).toBe(95);
    // 2025 results carry none of the 2026-07-28 wire fields.
    expect(byId.get(3)).toMatchObject({ structuredContent: { offset: 0 } });
    expect(byId.get(3)?.['resultType']).toBeUndefined();
    expect(toolErrorCode(byId.get(4) ?? {})).toBe('INVALID_INPUT');
    for (const line of run.stderr.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(run.stdout + run.stderr).not.toContain(world.sim.apiKey);
  });

  it('SIGTERM after initialize, and a broken stdout pipe, shut down cleanly with exit 0', async () => {
    const signalled = spawnBuilt(world.env);
    const signalledRun = collect(signalled);
    signalled.stdin.write(`${INITIALIZE}\n`);
    await new Promise<void>((resolve) => signalled.stdout.once('data', () => resolve()));
    signalled.kill('SIGTERM');
    const a = await signalledRun;
    expect([a.code, a.stderr.includes('"server_stopped"')]).toEqual([0, true]);

    const piped = spawnBuilt(world.env);
    const pipedRun = collect(piped);
    piped.stdin.write(`${INITIALIZE}\n`);
    await new Promise<void>((resolve) => piped.stdout.once('data', () => resolve()));
    piped.stdout.destroy();
    piped.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    const b = await pipedRun;
    expect(b.code).toBe(0);
    expect(b.stderr).not.toMatch(/Error: write EPIPE|Unhandled|at .*main\.js/);
  });

  it('--demo serves a 2025-era client too', async () => {
    const demo = await connectV1({}, ['--demo']);
    try {
      const result = await demo.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 1 } });
      expect((result.structuredContent as { count: number }).count).toBe(1);
    } finally {
      await demo.client.close();
    }
  });
});
