// The end-to-end suite of the current protocol: the BUILT server (dist/apps/mcp-server/main.js) spawned over
// stdio by the v2 SDK Client pinned to revision 2026-07-28, against the simulator. e2e-2025.test.ts proves the
// same program to 2025-era clients. Fast behaviour tests live in the other files (in-memory transport).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { DEFAULT_MAX_IN_FLIGHT } from '@pfsense-mcp/transports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBuiltReadWorld } from './support/built-read-world.js';
import { toolErrorCode } from './support/tool-error-code.js';
import {
  collect,
  connectBuilt,
  modernRequest,
  runBuilt,
  spawnBuilt,
  spawnBuiltSimulator,
  workspaceRoot,
  writeKeyFile,
  type ConnectedServer,
} from './support/built-server.js';

const world = useBuiltReadWorld();

describe('auditor profile over stdio', () => {
  let server: ConnectedServer;
  let tools: Tool[];
  beforeAll(async () => {
    world.sim.control.resetCounters();
    server = await connectBuilt(world.env);
    tools = (await server.client.listTools()).tools;
  });
  afterAll(async () => {
    await server.close();
  });

  it('makes no network call at startup and lists all 95 tools, none of them a WRITE tool', () => {
    expect(Object.values(world.sim.control.counters()).reduce((a, b) => a + b, 0)).toBe(0);
    expect(tools).toHaveLength(95);
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true || t.annotations?.destructiveHint !== false)).toEqual([]);
  });

  it('calls every tool and each structuredContent validates against the advertised output schema', async () => {
    const ajv = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      const result = await server.client.callTool({ name: tool.name, arguments: {} });
      expect(result.isError ?? false, `${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`).toBe(false);
      const check = ajv.getValidator(tool.outputSchema as never)(result.structuredContent);
      expect(check.valid, `${tool.name}: ${check.errorMessage}`).toBe(true);
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(JSON.parse(text)).toEqual(result.structuredContent);
    }
    const lines = server
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l['event'] === 'tool_call')).toHaveLength(tools.length);
    expect(server.stderr()).not.toContain(world.sim.apiKey);
  });

  it('refuses hostile input and keeps serving', async () => {
    const results = await Promise.all([
      server.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { limit: 10_000 } }),
      server.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { where: 'x'.repeat(500_000) } }),
      server.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { offset: -5 } }),
    ]);
    for (const r of results) expect(JSON.parse((r.content as { text: string }[])[0]?.text ?? '{}').error.code).toBe('INVALID_INPUT');
    const ok = await server.client.callTool({ name: 'pfsense_mcp_info', arguments: {} });
    expect(ok.isError ?? false).toBe(false);
  });

  it('a read whose pooled connection the appliance cut without answering (the keep-alive race) is sent once more', async () => {
    const route = '/api/v2/firewall/aliases';
    // The first call leaves a pooled connection; the simulator drops it when the next request arrives.
    expect((await server.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 1 } })).isError ?? false).toBe(false);
    world.sim.control.resetCounters();
    world.sim.control.setFault({ route, method: 'GET', kind: 'drop-response-after-apply', times: 1 });
    try {
      const result = await server.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 1 } });
      expect(result.isError ?? false, JSON.stringify(result.content).slice(0, 200)).toBe(false);
      expect(world.sim.control.count(route, 'GET')).toBe(2);
    } finally {
      world.sim.control.clearFaults();
    }
  });
});

describe('PFSENSE_ALLOWED_TOOLS', () => {
  it('registers exactly the listed tools', async () => {
    const allowed = ['pfsense_get_firewall_aliases', 'pfsense_get_system_status', 'pfsense_mcp_info'];
    const server = await connectBuilt({ ...world.env, PFSENSE_ALLOWED_TOOLS: allowed.join(',') });
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(allowed);
      const info = await server.client.callTool({ name: 'pfsense_mcp_info', arguments: {} });
      expect(info.structuredContent).toMatchObject({ registered_tool_count: 3, write_tool_count: 0 });
      const absent = await server.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: {} });
      expect(JSON.parse((absent.content as { text: string }[])[0]?.text ?? '{}').error.code).toBe('UNKNOWN_TOOL');
    } finally {
      await server.close();
    }
  });

  it('an empty value registers zero tools; a wildcard is a startup error', async () => {
    const empty = await connectBuilt({ ...world.env, PFSENSE_ALLOWED_TOOLS: '' });
    try {
      expect((await empty.client.listTools()).tools).toEqual([]);
    } finally {
      await empty.close();
    }
    const run = await runBuilt({ ...world.env, PFSENSE_ALLOWED_TOOLS: 'pfsense_get_*' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('PFSENSE_ALLOWED_TOOLS');
  });
});

describe('bounded requests in flight', () => {
  let proxy: Server;
  let current = 0;
  let max = 0;
  beforeAll(async () => {
    // A counting loopback proxy between the server and the simulator: it sees every upstream request.
    const target = new URL(world.sim.url);
    proxy = createServer((req, res) => {
      current += 1;
      max = Math.max(max, current);
      const upstream = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          up.on('end', () => (current -= 1));
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    world.sim.control.clearFaults();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it(`many concurrent tool calls never put more than ${DEFAULT_MAX_IN_FLIGHT} requests on the wire at once`, async () => {
    world.sim.control.setFault({ route: '/api/v2/firewall/rules', method: 'GET', kind: 'latency', ms: 150 });
    const port = (proxy.address() as AddressInfo).port;
    const server = await connectBuilt({ ...world.env, PFSENSE_URL: `http://127.0.0.1:${port}` });
    try {
      const calls = Array.from({ length: 24 }, () => server.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: {} }));
      const results = await Promise.all(calls);
      expect(results.every((r) => r.isError !== true)).toBe(true);
      // 24 calls held 150 ms each overlap: the wire fills to exactly the bound, never beyond (the rest queue).
      // Reaching the bound proves the calls overlapped, so this can fail both ways.
      expect(max).toBe(DEFAULT_MAX_IN_FLIGHT);
      expect(world.sim.control.count('/api/v2/firewall/rules', 'GET')).toBeGreaterThanOrEqual(24);
    } finally {
      await server.close();
    }
  });
});

describe('secrets and stdout', () => {
  it("sentinel secrets planted through the built simulator's --data reach no output and no log line", async () => {
    // The generator writes the --data file into a private temp dir; the built simulator serves it as an appliance
    // would. The committed fixture (used by the fast tests) must be what the generator produces today.
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sentinel-'));
    const fixture = join(dir, 'fixture.json');
    const dataFile = join(dir, 'sentinel-data.json');
    execFileSync(process.execPath, ['apps/mcp-server/scripts/generate-sentinel-data.mjs', '--out', fixture, '--data-out', dataFile], {
      cwd: workspaceRoot,
      stdio: 'ignore',
    });
    const generated = JSON.parse(readFileSync(fixture, 'utf8')) as { mark: string; secret_fields: string[] };
    expect(readFileSync(fixture, 'utf8')).toBe(readFileSync(join(import.meta.dirname, 'fixtures', 'sentinel-data.json'), 'utf8'));
    expect(generated.secret_fields).toEqual(
      expect.arrayContaining([
        'DNSResolverSettings.custom_options',
        'OpenVPNServer.custom_options',
        'OpenVPNClientSpecificOverride.custom_options',
      ]),
    );
    const planted = await spawnBuiltSimulator(['--data', dataFile]);
    const apiKey = readFileSync(planted.apiKeyFile, 'utf8').trim();
    const server = await connectBuilt({
      PFSENSE_URL: planted.url,
      PFSENSE_API_KEY_FILE: planted.apiKeyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_LOG_LEVEL: 'debug',
    });
    try {
      // The simulator really serves the sentinels (otherwise the absence below would prove nothing).
      const raw = await fetch(`${planted.url}/api/v2/services/dns_resolver/settings`, { headers: { 'X-API-Key': apiKey } });
      expect(await raw.text()).toContain(`${generated.mark}-DNSResolverSettings.custom_options`);
      const { tools } = await server.client.listTools();
      expect(tools).toHaveLength(95);
      for (const tool of tools) {
        const args =
          'include_identifying_metadata' in ((tool.inputSchema.properties ?? {}) as object) ? { include_identifying_metadata: true } : {};
        const result = await server.client.callTool({ name: tool.name, arguments: args });
        expect(result.isError ?? false, tool.name).toBe(false);
        expect(JSON.stringify(result), tool.name).not.toContain(generated.mark);
      }
      expect(server.stderr()).not.toContain(generated.mark);
      expect(server.stderr()).not.toContain(apiKey);
    } finally {
      await server.close();
      await planted.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stdout carries only JSON-RPC frames; logs go to stderr as JSON lines; stdin EOF exits 0', async () => {
    // Raw 2026-07-28 lines: discovery, then requests each carrying the per-request envelope; stdin ends right
    // after them, and the calls in flight still answer before the exit.
    const call = (id: number, name: string, args: object) => modernRequest(id, 'tools/call', { name, arguments: args });
    const run = await runBuilt(
      world.env,
      [],
      [
        modernRequest(1, 'server/discover'),
        modernRequest(2, 'tools/list'),
        call(3, 'pfsense_get_firewall_aliases', {}),
        call(4, 'pfsense_get_firewall_aliases', { limit: -1 }),
        call(5, 'no_such_tool', {}),
        'this is not json',
      ],
    );
    expect(run.code).toBe(0);
    const frames = run.stdout.trim().split('\n');
    expect(frames.length).toBeGreaterThanOrEqual(5);
    for (const frame of frames) expect(JSON.parse(frame)).toMatchObject({ jsonrpc: '2.0' });
    const byId = new Map(
      frames.map((f) => JSON.parse(f) as { id?: number; result?: Record<string, unknown> }).map((f) => [f.id, f.result]),
    );
    expect(byId.get(1)).toMatchObject({
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      capabilities: { tools: {} },
      resultType: 'complete',
    });
    expect((byId.get(2)?.['tools'] as unknown[]).length).toBe(95);
    expect(byId.get(3)).toMatchObject({ resultType: 'complete', structuredContent: { offset: 0 } });
    const errorCode = (id: number) => toolErrorCode(byId.get(id) ?? {});
    expect([byId.get(4)?.['isError'], errorCode(4)]).toEqual([true, 'INVALID_INPUT']);
    expect([byId.get(5)?.['isError'], byId.get(5)?.['resultType'], errorCode(5)]).toEqual([true, 'complete', 'UNKNOWN_TOOL']);
    for (const line of run.stderr.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(run.stderr).not.toContain(world.sim.apiKey);
    expect(run.stdout).not.toContain(world.sim.apiKey);
  });

  it('--help, --version and --check-config answer on stdout (no MCP session in those modes), errors on stderr', async () => {
    for (const args of [['--help'], ['--version']]) {
      const run = await runBuilt({}, args);
      expect(run.code).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(0);
      expect(run.stdout).not.toContain('jsonrpc');
    }
    const ok = await runBuilt(world.env, ['--check-config']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/reachability\s+ok/);
    expect(ok.stdout + ok.stderr).not.toContain(world.sim.apiKey);
    const down = await runBuilt({ ...world.env, PFSENSE_URL: 'http://127.0.0.1:9' }, ['--check-config']);
    expect(down.code).toBe(1);
    expect(down.stdout).toContain('UPSTREAM_UNREACHABLE');
    const bad = await runBuilt({ ...world.env, PFSENSE_PROFILE: 'root' }, ['--check-config']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('PFSENSE_PROFILE');
    const usage = await runBuilt({}, ['--no-such-flag']);
    expect(usage.code).toBe(2);
    expect([usage.stdout, usage.stderr.length > 0]).toEqual(['', true]);
  });
});

describe('startup and shutdown', () => {
  it('refuses a group/world-readable key file and a symlinked one, without printing the key', async () => {
    const wide = writeKeyFile(world.sim.apiKey, 0o644);
    const link = join(dirname(world.keyFile), 'link-to-key');
    symlinkSync(world.keyFile, link);
    try {
      for (const [path, reason] of [
        [wide, 'chmod 600'],
        [link, 'symbolic link'],
      ] as const) {
        const run = await runBuilt({ ...world.env, PFSENSE_API_KEY_FILE: path }, [], [modernRequest(1, 'server/discover')]);
        expect(run.code, path).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(reason);
        expect(run.stderr).not.toContain(world.sim.apiKey);
      }
    } finally {
      rmSync(dirname(wide), { recursive: true, force: true });
      rmSync(link, { force: true });
    }
  });

  it('fails closed on a bad configuration with a sanitized message and a non-zero exit', async () => {
    const run = await runBuilt({ PFSENSE_URL: 'https://user:hunter2@fw.example.net', PFSENSE_API_KEY_FILE: world.keyFile });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PFSENSE_URL');
    expect(run.stderr).not.toContain('hunter2');
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} shuts down cleanly with exit 0`, async () => {
      const child = spawnBuilt(world.env);
      const done = collect(child);
      child.stdin.write(`${modernRequest(1, 'server/discover')}\n`);
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.kill(signal);
      const run = await done;
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('"server_stopped"');
    });
  }

  it('a broken stdout pipe (EPIPE) shuts down cleanly instead of crashing', async () => {
    const child = spawnBuilt(world.env);
    const done = collect(child);
    child.stdin.write(`${modernRequest(1, 'server/discover')}\n`);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    child.stdin.write(`${modernRequest(2, 'tools/list')}\n`);
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/Error: write EPIPE|Unhandled|at .*main\.js/);
  });

  it('--demo serves against a simulator child with no configuration, stops it and removes its temp dir on exit', async () => {
    // A private TMPDIR: another demo running at the same time (a parallel suite) cannot change what this one sees.
    const privateTmp = mkdtempSync(join(tmpdir(), 'pfsense-mcp-e2e-tmp-'));
    const demoDirs = () =>
      readdirSync(privateTmp)
        .filter((d) => d.startsWith('pfsense-mcp-demo-'))
        .sort();
    const before = demoDirs();
    const server = await connectBuilt({ TMPDIR: privateTmp }, ['--demo']);
    try {
      const result = await server.client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 1 } });
      expect(result.isError ?? false).toBe(false);
      expect((result.structuredContent as { count: number }).count).toBe(1);
      expect(demoDirs()).toHaveLength(1);
    } finally {
      await server.close();
    }
    // The server stops the simulator and removes the dir before it exits; its stderr ends after the exit.
    await server.stderrEnded;
    expect(server.stderr()).toContain('"demo_simulator_stopped"');
    expect(server.stderr()).toMatch(/^pfsense-mcp: demo appliance at http:\/\/127\.0\.0\.1:\d+; waiting for an MCP client on stdin$/m);
    expect(before).toEqual([]);
    expect(demoDirs()).toEqual(before);
    rmSync(privateTmp, { recursive: true, force: true });
  });
});
