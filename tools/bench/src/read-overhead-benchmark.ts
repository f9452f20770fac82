import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, ReadBuffer } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { bareServerFile } from './bare-server-file.js';
import { startBuiltSimulator } from './built-simulator.js';
import { result, type BenchResult } from './bench-result.js';
import type { Benchmark } from './benchmark.js';
import { currentRssMiB, peakRssMiB } from './mcp-process.js';
import { median, percentile } from './stats.js';
import { simulatorServerEnv } from './simulator-server-env.js';

const SMALL_CALLS = 200;
const WARMUP = 20;
const BIG_ROWS = 10_000;
const PAGE = 1_000;
const BIG_REPEATS = 5;
/** What one read of a pipe hands a Node process (the pipe's default capacity on Linux). */
const PIPE_CHUNK = 64 * 1024;
const SMALL_PATH = '/api/v2/firewall/aliases';
const SMALL_TOOL = 'pfsense_get_firewall_aliases';
const BIG_PATH = '/api/v2/firewall/rules';
const BIG_TOOL = 'pfsense_get_firewall_rules';

function directGet(agent: Agent, base: URL, apiKey: string, path: string, query: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: `${path}?${query}`,
        method: 'GET',
        headers: { 'X-API-Key': apiKey, accept: 'application/json' },
      },
      (res) => {
        let bytes = 0;
        // Parse like the server does, so the floor includes JSON decoding of the same payload.
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          chunks.push(c);
        });
        res.on('end', () => {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve(bytes);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** CPU time (user + system) a live process has used so far, in ms; null where /proc is not available. */
function processCpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** The resident set of the cold-start bench's bare v2 SDK server (one tool) after `tools/list`, in MiB. */
async function bareSdkServerRssMiB(workspaceRoot: string): Promise<number | null> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bareServerFile(workspaceRoot, 'v2')],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await client.connect(transport);
    await client.listTools();
    return transport.pid === null ? null : currentRssMiB(transport.pid);
  } finally {
    await client.close();
  }
}

/**
 * READ overhead: the same GET through MCP (v2 SDK client, 2026-07-28, over stdio to the built server) vs straight HTTP to the
 * simulator, in one run. Small collection: median and p95 over 200 calls each. Large: 10,000 rows read as 10
 * pages of 1,000 vs the same 10 direct GETs (a page over the 1 MiB result bound takes more MCP calls, each one
 * GET of 1,000 rows; the diagnostic row compares with exactly those GETs). Also the server's CPU per large read
 * and its peak RSS after the large reads.
 */
export const readOverheadBenchmark: Benchmark = {
  id: 'read-overhead',
  title: 'READ overhead: MCP over stdio vs direct HTTP',
  async run(ctx) {
    const rules = Array.from({ length: BIG_ROWS }, (_, i) => ({
      type: i % 3 === 0 ? 'block' : 'pass',
      interface: ['lan'],
      ipprotocol: 'inet',
      protocol: 'tcp',
      source: 'any',
      destination: `10.${(i >> 8) & 255}.${i & 255}.0/24`,
      destination_port: String(1024 + (i % 4000)),
      descr: `bench rule ${i}`,
      disabled: false,
      log: i % 2 === 0,
    }));
    const dir = mkdtempSync(join(tmpdir(), 'bench-read-'));
    chmodSync(dir, 0o700);
    const keyFile = join(dir, 'api-key');
    const apiKey = randomBytes(24).toString('hex');
    writeFileSync(keyFile, `${apiKey}\n`, { mode: 0o600 });
    const dataFile = join(dir, 'data.json');
    writeFileSync(dataFile, JSON.stringify({ [BIG_PATH]: rules }));
    // The simulator runs as its own process (like an appliance), planted with --data.
    const sim = await startBuiltSimulator(ctx.workspaceRoot, ['--port', '0', '--data', dataFile, '--api-key-file', keyFile]);
    sim.apiKey = apiKey;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ctx.workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js')],
      env: simulatorServerEnv(sim.url, keyFile),
      stderr: 'ignore',
    });
    // The v2 SDK Client on the current protocol revision, as a current host connects.
    const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const base = new URL(sim.url);
    // Raw tools/call (no client-side output-schema validation): measure the server, not the client library.
    const call = (name: string, args: Record<string, unknown>) =>
      client.request({ method: 'tools/call', params: { name, arguments: args } }).then((r) => {
        if (r.isError === true) throw new Error(`bench: ${name} failed`);
        return r;
      });
    const out: BenchResult[] = [];
    try {
      await client.connect(transport);
      const pid = transport.pid;
      for (let i = 0; i < WARMUP; i += 1) {
        await call(SMALL_TOOL, { limit: 100 });
        await directGet(agent, base, sim.apiKey, SMALL_PATH, 'limit=100&offset=0');
      }
      const viaMcp: number[] = [];
      const direct: number[] = [];
      for (let i = 0; i < SMALL_CALLS; i += 1) {
        viaMcp.push(await timed(() => call(SMALL_TOOL, { limit: 100 })));
        direct.push(await timed(() => directGet(agent, base, sim.apiKey, SMALL_PATH, 'limit=100&offset=0')));
      }
      ctx.note(`small collection: ${SMALL_CALLS} calls each, interleaved`);
      out.push(
        result('read_small_median_ms', median(viaMcp), 'ms', median(direct)),
        result('read_small_p95_ms', percentile(viaMcp, 95), 'ms', percentile(direct, 95)),
        result('read_small_added_median_ms', median(viaMcp) - median(direct), 'ms', null, 2),
      );

      const bigMcp: number[] = [];
      const bigDirect: number[] = [];
      const bigSameGets: number[] = [];
      const bigFloor: number[] = [];
      let mcpPages = 0;
      let offsets: number[] = [];
      let replies: Record<string, unknown>[] = [];
      const cpuBefore = pid === null ? null : processCpuMs(pid);
      const rssBeforeLarge = pid === null ? null : currentRssMiB(pid);
      for (let r = 0; r < BIG_REPEATS; r += 1) {
        mcpPages = 0;
        offsets = [];
        replies = [];
        bigMcp.push(
          await timed(async () => {
            // Pages of 1,000, continuing at next_offset: a page over the 1 MiB result bound comes back
            // truncated, so reading all rows may take more than 10 calls.
            let offset = 0;
            while (offset < BIG_ROWS) {
              offsets.push(offset);
              const reply = (await call(BIG_TOOL, { limit: PAGE, offset })).structuredContent as { count: number };
              replies.push(reply);
              mcpPages += 1;
              if (reply.count === 0) throw new Error('bench: empty page before 10,000 rows');
              offset += reply.count;
            }
          }),
        );
        bigDirect.push(
          await timed(async () => {
            for (let p = 0; p < BIG_ROWS / PAGE; p += 1)
              await directGet(agent, base, sim.apiKey, BIG_PATH, `limit=${PAGE}&offset=${p * PAGE}`);
          }),
        );
      }
      const cpuAfter = pid === null ? null : processCpuMs(pid);
      // The GETs the MCP calls made (one per call, at its offset): what the appliance alone costs that path.
      for (let r = 0; r < BIG_REPEATS; r += 1) {
        bigSameGets.push(
          await timed(async () => {
            for (const offset of offsets) await directGet(agent, base, sim.apiKey, BIG_PATH, `limit=${PAGE}&offset=${offset}`);
          }),
        );
      }
      // The work no server can skip on this read, here in the bench's process: the same GETs (each body parsed), and
      // for each reply its two copies serialized (structuredContent, and the text block as a JSON string) and the
      // line parsed as the client does. No projection, no SDK, no pipe: what the target leaves above this is all
      // the server, the SDK and the pipe may take.
      for (let r = 0; r < BIG_REPEATS; r += 1) {
        bigFloor.push(
          await timed(async () => {
            for (let i = 0; i < offsets.length; i += 1) {
              await directGet(agent, base, sim.apiKey, BIG_PATH, `limit=${PAGE}&offset=${offsets[i] as number}`);
              const structuredContent = replies[i];
              const text = JSON.stringify(structuredContent);
              JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }], structuredContent } }));
            }
          }),
        );
      }
      // The SDK client's own share, which the floor leaves out: each reply line arrives in pipe-sized chunks, and the
      // client's ReadBuffer joins them (a copy of everything so far per chunk) and decodes the line before it parses.
      const clientAssembly: number[] = [];
      const lines = replies.map((structuredContent, i) =>
        Buffer.from(
          `${JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent } })}\n`,
        ),
      );
      for (let r = 0; r < BIG_REPEATS; r += 1) {
        clientAssembly.push(
          await timed(async () => {
            const buffer = new ReadBuffer();
            for (const line of lines) {
              for (let at = 0; at < line.length; at += PIPE_CHUNK) {
                buffer.append(line.subarray(at, at + PIPE_CHUNK));
                buffer.readMessage();
              }
            }
          }),
        );
      }
      ctx.note(`10,000 rows: ${BIG_REPEATS} repeats; ${mcpPages} MCP calls (1,000-row pages, 1 MiB result bound) vs 10 direct GETs`);
      const smallRows = ((await call(SMALL_TOOL, { limit: 100 })).structuredContent as { count: number }).count;
      const added = median(bigMcp) - median(bigDirect);
      const addedSmall = median(viaMcp) - median(direct);
      out.push(
        // Against the direct GETs: reported only. Its old target (1.5×) measured the paging the 1 MiB bound forces
        // on both copies of a result, not the server (docs/DESIGN.md §8); the target is read_10k_rows_vs_floor_ms.
        result('read_10k_rows_median_ms', median(bigMcp), 'ms', median(bigDirect)),
        // The target: the same read against read_10k_rows_floor_ms (the same GETs plus the serialization and parse
        // no server can skip), so the ratio is what the server, the SDK and the pipe add.
        result('read_10k_rows_vs_floor_ms', median(bigMcp), 'ms', median(bigFloor), 1.25),
        result('read_10k_rows_mcp_calls', mcpPages, 'calls', BIG_ROWS / PAGE),
        // Diagnostics, no target: the same read against the direct GETs its MCP calls made, and the server's own
        // CPU per 10,000-row read (robust on a busy machine, where wall times are not).
        result('read_10k_rows_vs_same_gets_ms', median(bigMcp), 'ms', median(bigSameGets)),
        // The appliance's own share of the paging: the GETs the MCP calls needed (each asks for a full page again)
        // against the 10 direct GETs. A floor under read_10k_rows_median_ms's ratio that no server work lowers; the
        // simulator builds the whole collection for every GET, so its cost follows the number of GETs.
        result('read_10k_rows_paging_gets_ms', median(bigSameGets), 'ms', median(bigDirect)),
        // Those GETs plus each reply's two copies serialized and its line parsed, against the 10 direct GETs: the
        // lowest ratio read_10k_rows_median_ms can reach while the 1 MiB bound counts the whole result.
        result('read_10k_rows_floor_ms', median(bigFloor), 'ms', median(bigDirect)),
        // Diagnostic: the same reply lines through the SDK client's ReadBuffer in 64 KiB chunks (join, decode, parse),
        // against the floor: client work the MCP read includes and no server change removes.
        result('read_10k_rows_client_assembly_ms', median(clientAssembly), 'ms', median(bigFloor)),
        // Linear growth: added cost per row on the 10,000-row read vs per row on the small collection.
        result('read_added_per_row_us_10k', (added / BIG_ROWS) * 1000, 'us', (addedSmall / Math.max(1, smallRows)) * 1000),
      );
      if (cpuBefore !== null && cpuAfter !== null) {
        // Includes the interleaved direct GETs' share, which is nil for the server (it is idle meanwhile).
        out.push(result('read_10k_rows_server_cpu_ms', (cpuAfter - cpuBefore) / BIG_REPEATS, 'ms'));
      }
      const rss = pid === null ? null : peakRssMiB(pid);
      if (rss !== null) out.push(result('server_peak_rss_mib', rss, 'MiB', null, 100));
      // Diagnostic: the server's resident set after the small calls, before the large reads, against a bare v2 SDK
      // server of one tool after its tools/list (what the runtime and the SDK alone hold): the peak above is this
      // plus what the large reads leave resident.
      const bare = await bareSdkServerRssMiB(ctx.workspaceRoot);
      if (rssBeforeLarge !== null && bare !== null) {
        out.push(result('server_rss_before_large_reads_mib', rssBeforeLarge, 'MiB', bare));
      }
    } finally {
      await client.close();
      agent.destroy();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return out;
  },
};
