// The BUILT server over stdio, fed raw JSON lines a real SDK client would never send: requests before initialize,
// garbage and invalid UTF-8, duplicate ids, a flood during startup, an oversized frame, and a client that stops
// reading (README "Protocol edges").
import { describe, expect, it } from 'vitest';
import { useBuiltReadWorld } from './support/built-read-world.js';
import { INITIALIZE, modernRequest } from './support/built-server.js';
import { logLines, spawnRaw, type RawServer, type Reply } from './support/raw-stdio-client.js';
import { until } from './support/until.js';

const world = useBuiltReadWorld();

const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const request = (id: unknown, method: string, params?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const infoCall = (id: unknown) => request(id, 'tools/call', { name: 'pfsense_mcp_info', arguments: {} });
const refusalOf = (reply: Reply | undefined) => ({ code: reply?.error?.code, name: reply?.error?.data?.code });
const refused = (server: RawServer, name: string) =>
  logLines(server.stderr()).filter((l) => l['event'] === 'message_refused' && l['code'] === name);
// stderr is a pipe of its own: a reply on stdout can be read before the log line written ahead of it. Wait for the
// lines (bounded), then assert their exact count.
async function refusedLines(server: RawServer, name: string, atLeast: number): Promise<ReturnType<typeof refused>> {
  await until(() => refused(server, name).length >= atLeast, 10_000).catch(() => undefined);
  return refused(server, name);
}

/** Opens a 2025-era session and waits until the tools are attached (a tool call is answered). */
async function initialized(server: RawServer): Promise<void> {
  server.send(INITIALIZE);
  server.send(INITIALIZED);
  server.send(infoCall('ready'));
  const [ready] = await server.repliesTo('ready');
  expect(ready?.result?.['isError']).toBeUndefined();
}

describe('requests before initialize', () => {
  it('2025 era: tools/call and tools/list before initialize get NOT_INITIALIZED (a JSON-RPC error, no tool result); ping is answered; after initialize the same call is served', async () => {
    const server = spawnRaw(world.env);
    try {
      server.send(infoCall(1));
      server.send(request(2, 'tools/list'));
      server.send(INITIALIZED);
      server.send(request(3, 'ping'));
      const [call] = await server.repliesTo(1);
      const [list] = await server.repliesTo(2);
      expect(call?.result).toBeUndefined();
      expect(refusalOf(call)).toEqual({ code: -32000, name: 'NOT_INITIALIZED' });
      expect(refusalOf(list)).toEqual({ code: -32000, name: 'NOT_INITIALIZED' });
      expect((await server.repliesTo(3))[0]?.result).toEqual({});
      await initialized(server);
      server.send(infoCall(4));
      const [served] = await server.repliesTo(4);
      expect(served?.error).toBeUndefined();
      expect(served?.result?.['isError']).toBeUndefined();
      // One line per refused message (the two requests and the early notification), names only.
      expect(await refusedLines(server, 'NOT_INITIALIZED', 3)).toHaveLength(3);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('2026-07-28 era: a request carrying the _meta envelope needs no handshake and is served', async () => {
    const server = spawnRaw(world.env);
    try {
      server.send(modernRequest(1, 'tools/call', { name: 'pfsense_mcp_info', arguments: {} }));
      const [reply] = await server.repliesTo(1);
      expect(reply?.error).toBeUndefined();
      expect(reply?.result?.['isError']).toBeUndefined();
      expect(refused(server, 'NOT_INITIALIZED')).toHaveLength(0);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('malformed lines', () => {
  it('answers malformed JSON and invalid UTF-8 with -32700 and id null, a non-message with -32600, and keeps serving', async () => {
    const server = spawnRaw(world.env);
    try {
      await initialized(server);
      const before = server.replies.length;
      server.send('{"jsonrpc":"2.0","id":5,"method":');
      server.send(Buffer.from([0xff, 0xfe, 0x7b, 0x7d, 0x0a]));
      // Valid JSON syntax around a lone continuation byte inside a string: still not UTF-8.
      server.send(
        Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":"'), Buffer.from([0xc3]), Buffer.from('"}}\n')]),
      );
      server.send('[]');
      server.send('{"jsonrpc":"2.0","id":7,"method":42}');
      server.send(request(8, 'ping'));
      await server.repliesTo(8);
      const answers = server.replies.slice(before).filter((r) => r.id !== 8);
      expect(answers.map((r) => [r.id, r.error?.code, r.error?.data?.code])).toEqual([
        [null, -32700, 'PARSE_ERROR'],
        [null, -32700, 'PARSE_ERROR'],
        [null, -32700, 'PARSE_ERROR'],
        [null, -32600, 'INVALID_REQUEST'],
        [7, -32600, 'INVALID_REQUEST'],
      ]);
      expect(answers.every((r) => r['jsonrpc'] === '2.0' && 'id' in r)).toBe(true);
      expect(await refusedLines(server, 'PARSE_ERROR', 3)).toHaveLength(3);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('duplicate request ids', () => {
  it('refuses a second request with an id still in progress with our DUPLICATE_REQUEST_ID error; the first completes', async () => {
    world.sim.control.setFault({ route: '/api/v2/status/system', method: 'GET', kind: 'latency', ms: 1_500 });
    const server = spawnRaw(world.env);
    try {
      server.send(modernRequest(1, 'server/discover'));
      await server.repliesTo(1);
      server.send(modernRequest(7, 'tools/call', { name: 'pfsense_get_system_status', arguments: {} }));
      server.send(modernRequest(7, 'tools/call', { name: 'pfsense_mcp_info', arguments: {} }));
      const [duplicate, first] = await server.repliesTo(7, 2);
      expect(refusalOf(duplicate)).toEqual({ code: -32600, name: 'DUPLICATE_REQUEST_ID' });
      expect(duplicate?.error?.message).toBe('Invalid Request: a request with this id is still in progress; use a new id.');
      expect(first?.error).toBeUndefined();
      expect(first?.result?.['isError']).toBeUndefined();
      // It is the slow system-status call's own result, not the info tool's.
      expect(first?.result?.['structuredContent']).toBeDefined();
      expect(JSON.stringify(first?.result)).not.toContain('server_name');
      // Once answered, the id may be used again.
      server.send(modernRequest(7, 'tools/call', { name: 'pfsense_mcp_info', arguments: {} }));
      const again = await server.repliesTo(7, 3);
      expect(again[2]?.error).toBeUndefined();
      expect(await refusedLines(server, 'DUPLICATE_REQUEST_ID', 1)).toHaveLength(1);
    } finally {
      world.sim.control.clearFaults();
      await server.close();
    }
  }, 60_000);
});

describe('a flood during startup', () => {
  it('of 10,050 messages sent before the tools are ready, every request gets exactly one answer', async () => {
    const server = spawnRaw(world.env);
    try {
      const lines = [INITIALIZE, INITIALIZED];
      const requestIds: number[] = [];
      for (let i = 0; lines.length < 10_050; i += 1) {
        const id = 1_000 + i;
        if (i % 10 === 9) lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }));
        else {
          lines.push(i % 100 === 0 ? infoCall(id) : request(id, 'prompts/list'));
          requestIds.push(id);
        }
      }
      // One write: all of it is on the pipe before the server has even loaded.
      server.send(Buffer.from(`${lines.join('\n')}\n`));
      await server.until((r) => r.length >= requestIds.length + 1, 120_000);
      const byId = new Map<unknown, Reply[]>();
      for (const r of server.replies) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
      expect(byId.get(1)?.[0]?.result?.['protocolVersion']).toBe('2025-06-18');
      expect(requestIds.filter((id) => byId.get(id)?.length !== 1)).toEqual([]);
      // Past the held bound a request is refused at once; the others are served once the tools are ready (the info
      // calls answered, prompts/list refused by the SDK: no prompts). How many arrive before that is up to timing.
      const starting = server.replies.filter((r) => r.error?.data?.code === 'SERVER_STARTING');
      for (const r of starting) expect(refusalOf(r)).toEqual({ code: -32000, name: 'SERVER_STARTING' });
      const info = server.replies.filter((r) => typeof r.id === 'number' && r.id % 100 === 0 && r.id >= 1_000);
      expect(info.filter((r) => r.error === undefined).every((r) => r.result?.['isError'] === undefined)).toBe(true);
      const full = logLines(server.stderr()).filter((l) => l['event'] === 'startup_queue_full');
      expect(full).toHaveLength(starting.length > 0 ? 1 : 0);
    } finally {
      await server.close();
    }
  }, 150_000);
});

describe('a frame over the 10 MiB limit', () => {
  it('is refused (with the id read from its start, else id null), logged, discarded up to its newline, and the server keeps serving', async () => {
    const server = spawnRaw(world.env);
    try {
      await initialized(server);
      const pad = 'x'.repeat(10 * 1024 * 1024);
      server.send(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"pfsense_mcp_info","arguments":{"pad":"${pad}"}}}`);
      server.send(`["${pad}"]`);
      server.send(request(43, 'ping'));
      const [big] = await server.repliesTo(42);
      expect(refusalOf(big)).toEqual({ code: -32600, name: 'FRAME_TOO_LARGE' });
      expect((await server.repliesTo(43))[0]?.result).toEqual({});
      expect(server.replies.filter((r) => r.id === null).map(refusalOf)).toEqual([{ code: -32600, name: 'FRAME_TOO_LARGE' }]);
      expect(await refusedLines(server, 'FRAME_TOO_LARGE', 2)).toHaveLength(2);
      server.send(infoCall(44));
      expect((await server.repliesTo(44))[0]?.result?.['isError']).toBeUndefined();
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('a client that writes without reading', () => {
  it('does not grow the server: reading stops while stdout is full, and every reply comes once the client reads', async () => {
    const server = spawnRaw(world.env);
    try {
      await initialized(server);
      const toolCalls = () => logLines(server.stderr()).filter((l) => l['event'] === 'tool_call').length;
      const baseline = server.rssMiB();
      const handled = toolCalls();
      server.child.stdout.pause();
      const count = 3_000;
      let flood = '';
      for (let i = 0; i < count; i += 1) flood += `${infoCall(10_000 + i)}\n`;
      server.send(Buffer.from(flood));
      // Sample until the server stops handling calls (no new tool_call line for a second) or has handled them all.
      let peak = baseline;
      let last = -1;
      let quietSince = Date.now();
      while (Date.now() - quietSince < 1_000 && toolCalls() - handled < count) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        peak = Math.max(peak, server.rssMiB());
        if (toolCalls() !== last) {
          last = toolCalls();
          quietSince = Date.now();
        }
      }
      // Each answer is ~11 KiB: holding all 3,000 would add well over 30 MiB; the bound holds ~1 MiB plus a few.
      expect(peak - baseline).toBeLessThan(24);
      expect(toolCalls() - handled).toBeLessThan(count);
      server.child.stdout.resume();
      await server.until((r) => r.filter((x) => typeof x.id === 'number' && x.id >= 10_000).length >= count, 120_000);
    } finally {
      await server.close();
    }
  }, 180_000);
});
