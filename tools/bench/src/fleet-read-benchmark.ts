import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { result, type BenchResult } from './bench-result.js';
import type { Benchmark } from './benchmark.js';
import { timeStartup } from './mcp-process.js';
import { median } from './stats.js';

const APPLIANCES = 50;
const READ_RUNS = 7;
const STARTUP_RUNS = 7;
/** The fleet question: which firewalls have which pass rules (fields + filter, as an assistant asks it). */
const QUESTION = { fields: ['descr', 'interface'], filter: [{ field: 'type', op: 'eq', value: 'pass' }] };
const TOOL = 'pfsense_get_firewall_rules';
const RULES_PATH = '/api/v2/firewall/rules';
/**
 * How long each simulated appliance takes to answer the read, as a pfSense does: pfREST answers from PHP in tens to
 * hundreds of milliseconds, on its own box. Without it the 50 simulators' work lands on the bench host's cores
 * beside the server's, and the ratio measures the host's cores rather than the server (reported as well).
 */
const APPLIANCE_ANSWER_MS = 50;

/** The server's peak resident set (Linux /proc VmHWM), in MiB; null where /proc is not there. */
function peakRssMiB(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]) / 1024;
  } catch {
    return null;
  }
}

function writeInventory(dir: string, name: string, sims: readonly RunningSimulator[], keyFile: string): string {
  const file = join(dir, name);
  const entries = sims.map((sim, i) => ({
    name: `a${String(i + 1).padStart(2, '0')}`,
    url: sim.url,
    api_key_file: keyFile,
    allow_http_loopback: true,
  }));
  writeFileSync(file, JSON.stringify(entries), { mode: 0o600 });
  return file;
}

/**
 * A fleet from one server (README "Fleet"): PFSENSE_INVENTORY_FILE naming 50 simulated appliances (in-process
 * simulators on loopback, one per port) and the built server over stdio. One `appliance: "*"` filtered list call
 * vs the same read of one appliance in the same run (median of 7 each), each appliance answering in
 * APPLIANCE_ANSWER_MS: target ≤ 8× (with simulators answering at once: reported). The server's peak RSS after
 * those reads: target ≤ 200 MiB. Start-up (spawn → first tools/list reply, median of 7) with 50 appliances vs an
 * inventory of one: target ≤ 1.5× (the single-appliance variables' start-up is reported too).
 */
export const fleetReadBenchmark: Benchmark = {
  id: 'fleet-read',
  title: 'Fleet reads: one question of 50 appliances vs one, peak RSS, start-up with 50 vs 1',
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
    chmodSync(dir, 0o700);
    const apiKey = randomBytes(24).toString('hex');
    const keyFile = join(dir, 'api-key');
    writeFileSync(keyFile, `${apiKey}\n`, { mode: 0o600 });
    const sims: RunningSimulator[] = [];
    const out: BenchResult[] = [];
    const server = join(ctx.workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js');
    const baseEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PFSENSE_LOG_LEVEL: 'warn' };
    try {
      for (let i = 0; i < APPLIANCES; i += 1) sims.push(await startSimulator({ apiKey }));
      const fleet = writeInventory(dir, 'fleet.json', sims, keyFile);
      const one = writeInventory(dir, 'one.json', sims.slice(0, 1), keyFile);

      const startup = async (env: Record<string, string>): Promise<number> => {
        const times: number[] = [];
        for (let i = 0; i < STARTUP_RUNS; i += 1)
          times.push((await timeStartup(server, { ...baseEnv, ...env }, ctx.workspaceRoot, 'modern')).toolsListMs);
        return median(times);
      };
      const startOne = await startup({ PFSENSE_INVENTORY_FILE: one });
      const startFleet = await startup({ PFSENSE_INVENTORY_FILE: fleet });
      const startSingle = await startup({
        PFSENSE_URL: sims[0]?.url ?? '',
        PFSENSE_API_KEY_FILE: keyFile,
        PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      });
      ctx.note(
        `start-up to tools/list: ${startFleet.toFixed(0)} ms with ${APPLIANCES} appliances, ${startOne.toFixed(0)} ms with one, ${startSingle.toFixed(0)} ms without an inventory`,
      );
      out.push(result('startup_50_appliances_ms', startFleet, 'ms', startOne, 1.5));
      out.push(result('startup_single_appliance_variables_ms', startSingle, 'ms'));

      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [server],
        env: { ...baseEnv, PFSENSE_INVENTORY_FILE: fleet },
        stderr: 'ignore',
      });
      const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(transport);
      try {
        const call = async (appliance: string | readonly string[]): Promise<{ ms: number; rows: number; errors: number }> => {
          const started = performance.now();
          const reply = await client.request({ method: 'tools/call', params: { name: TOOL, arguments: { ...QUESTION, appliance } } });
          const ms = performance.now() - started;
          if (reply.isError === true) throw new Error(`bench: ${TOOL} failed: ${JSON.stringify(reply.content).slice(0, 200)}`);
          const structured = reply.structuredContent as { data: unknown[]; errors?: unknown[] };
          return { ms, rows: structured.data.length, errors: structured.errors?.length ?? 0 };
        };
        // Warm-up: every appliance's connection pool and the server's first-call work.
        await call('*');
        await call('a01');
        const measure = async (): Promise<{ fleet: number; one: number; fleetRows: number; oneRows: number }> => {
          const fleetTimes: number[] = [];
          const oneTimes: number[] = [];
          let fleetRows = 0;
          let oneRows = 0;
          for (let i = 0; i < READ_RUNS; i += 1) {
            const f = await call('*');
            if (f.errors !== 0) throw new Error(`bench: the fleet read reported ${f.errors} failed appliance(s)`);
            fleetTimes.push(f.ms);
            fleetRows = f.rows;
            const o = await call('a01');
            oneTimes.push(o.ms);
            oneRows = o.rows;
          }
          return { fleet: median(fleetTimes), one: median(oneTimes), fleetRows, oneRows };
        };
        const instant = await measure();
        ctx.note(
          `simulators answering at once: "*" over ${APPLIANCES}: ${instant.fleet.toFixed(1)} ms for ${instant.fleetRows} rows; one appliance: ${instant.one.toFixed(1)} ms for ${instant.oneRows} rows`,
        );
        out.push(result('fleet_read_50_instant_appliances_ms', instant.fleet, 'ms', instant.one));
        for (const sim of sims) sim.control.setFault({ route: RULES_PATH, method: 'GET', kind: 'latency', ms: APPLIANCE_ANSWER_MS });
        const timed = await measure();
        ctx.note(
          `appliances answering in ${APPLIANCE_ANSWER_MS} ms: "*" over ${APPLIANCES}: ${timed.fleet.toFixed(1)} ms; one appliance: ${timed.one.toFixed(1)} ms`,
        );
        out.push(result('fleet_read_50_appliances_ms', timed.fleet, 'ms', timed.one, 8));
        const pid = transport.pid;
        const rss = pid === null ? null : peakRssMiB(pid);
        if (rss !== null) out.push(result('fleet_server_peak_rss_mib', rss, 'MiB', null, 200));
        else ctx.note('peak RSS not measured (no /proc)');
      } finally {
        await client.close();
      }
    } finally {
      for (const sim of sims) await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return out;
  },
};
