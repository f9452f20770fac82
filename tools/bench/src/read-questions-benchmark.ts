import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { benchAppliance } from './bench-appliance.js';
import { startBuiltSimulator } from './built-simulator.js';
import { result, type BenchResult } from './bench-result.js';
import type { Benchmark } from './benchmark.js';
import { simulatorServerEnv } from './simulator-server-env.js';

type Row = Readonly<Record<string, unknown>>;

/** One question an assistant asks of the appliance, answered both ways. */
export interface Question {
  readonly id: string;
  readonly text: string;
  readonly tool: string;
  /** What one call with fields/filter asks for. */
  readonly args: Readonly<Record<string, unknown>>;
  /** What the assistant looks for in full rows when it pages and filters by itself. */
  readonly matches: (row: Row) => boolean;
  /** The fields that make up the answer (besides the row id). */
  readonly answer: readonly string[];
}

const eq = (field: string, value: unknown) => ({ field, op: 'eq', value });

/** Questions over the demo appliance (tools/pfsense-sim's seeded data): the kinds an operator asks every day. */
export const QUESTIONS: readonly Question[] = Object.freeze([
  {
    id: 'wan_block_rules',
    text: 'Which rules block traffic on WAN?',
    tool: 'pfsense_get_firewall_rules',
    args: { fields: ['descr'], filter: [eq('type', 'block'), { field: 'interface', op: 'contains', value: 'WAN' }] },
    matches: (r) => r['type'] === 'block' && Array.isArray(r['interface']) && r['interface'].includes('WAN'),
    answer: ['descr'],
  },
  {
    id: 'rules_to_port_443',
    text: 'Which rules let traffic to port 443?',
    tool: 'pfsense_get_firewall_rules',
    args: { fields: ['interface', 'descr'], filter: [eq('destination_port', '443'), eq('type', 'pass')] },
    matches: (r) => r['destination_port'] === '443' && r['type'] === 'pass',
    answer: ['interface', 'descr'],
  },
  {
    id: 'disabled_rules',
    text: 'Which rules are disabled?',
    tool: 'pfsense_get_firewall_rules',
    args: { fields: ['descr'], filter: [eq('disabled', true)] },
    matches: (r) => r['disabled'] === true,
    answer: ['descr'],
  },
  {
    id: 'network_aliases',
    text: 'Which aliases hold networks?',
    tool: 'pfsense_get_firewall_aliases',
    args: { fields: ['name', 'descr'], filter: [eq('type', 'network')] },
    matches: (r) => r['type'] === 'network',
    answer: ['name', 'descr'],
  },
  {
    id: 'static_mappings_in_subnet',
    text: 'Which DHCP static mappings are in 10.10.20.0/24?',
    tool: 'pfsense_get_dhcp_static_mappings',
    args: { fields: ['ipaddr', 'hostname'], filter: [{ field: 'ipaddr', op: 'startswith', value: '10.10.20.' }] },
    matches: (r) => typeof r['ipaddr'] === 'string' && r['ipaddr'].startsWith('10.10.20.'),
    answer: ['ipaddr', 'hostname'],
  },
  {
    id: 'services_not_running',
    text: 'Which services are not running?',
    tool: 'pfsense_get_service_status',
    args: { fields: ['name', 'description'], filter: [eq('status', false)] },
    matches: (r) => r['status'] === false,
    answer: ['name', 'description'],
  },
  {
    id: 'tcp_port_forwards_on_wan',
    text: 'Which TCP port forwards are there on WAN?',
    tool: 'pfsense_get_firewall_nat_port_forwards',
    args: { fields: ['destination_port', 'local_port', 'descr'], filter: [eq('protocol', 'tcp'), eq('interface', 'WAN')] },
    matches: (r) => r['protocol'] === 'tcp' && r['interface'] === 'WAN',
    answer: ['destination_port', 'local_port', 'descr'],
  },
  {
    id: 'gateways_not_up',
    text: 'Which gateways are not up?',
    tool: 'pfsense_get_gateway_status',
    args: { fields: ['name', 'status', 'substatus'], filter: [{ field: 'status', op: 'ne', value: 'online' }] },
    matches: (r) => r['status'] !== 'online',
    answer: ['name', 'status', 'substatus'],
  },
  {
    id: 'offline_dhcp_leases',
    text: 'Which DHCP clients are offline?',
    tool: 'pfsense_get_dhcp_leases',
    args: { fields: ['hostname', 'ip'], filter: [eq('online_status', 'idle/offline')] },
    matches: (r) => r['online_status'] === 'idle/offline',
    answer: ['hostname', 'ip'],
  },
  {
    id: 'udp_states',
    text: 'Which open states are UDP, and how busy are they?',
    tool: 'pfsense_get_firewall_states',
    args: { fields: ['packets_total'], filter: [eq('protocol', 'udp')], sort_by: 'packets_total', sort_order: 'desc' },
    matches: (r) => r['protocol'] === 'udp',
    answer: ['packets_total'],
  },
]);

interface Reply {
  readonly bytes: number;
  readonly rows: readonly Row[];
  readonly nextOffset: number | null;
}

type Call = (name: string, args: Readonly<Record<string, unknown>>) => Promise<Reply>;

/** The answer as the assistant would state it: the matching rows' ids (parent_id/id on child rows) and answer fields. */
function answerOf(rows: readonly Row[], fields: readonly string[]): unknown[][] {
  const key = (r: Row): string => `${String(r['parent_id'] ?? '')}/${String(r['id']).padStart(8, '0')}`;
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map((r) => [key(r), ...fields.map((f) => r[f])]);
}

/** The median with an even count taken as the mean of the two middle values (not the lower one): no rounding in
 * the target's favour. */
function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[half] as number) : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
}

/** Every reply of a read that follows next_offset from 0, and the rows. */
async function readAll(
  call: Call,
  name: string,
  args: Readonly<Record<string, unknown>>,
): Promise<{ bytes: number; rows: Row[]; calls: number }> {
  let offset: number | null = 0;
  let bytes = 0;
  let calls = 0;
  const rows: Row[] = [];
  while (offset !== null) {
    const reply = await call(name, { ...args, offset });
    bytes += reply.bytes;
    calls += 1;
    rows.push(...reply.rows);
    offset = reply.nextOffset;
  }
  return { bytes, rows, calls };
}

interface Asked {
  readonly question: Question;
  readonly rows: number;
  readonly matched: number;
  readonly pagedBytes: number;
  readonly pagedCalls: number;
  readonly askedBytes: number;
}

/** Every question against one appliance (a built simulator with `simArgs`) through the built server over stdio. */
async function askAll(workspaceRoot: string, dir: string, simArgs: readonly string[]): Promise<Asked[]> {
  const keyFile = join(dir, 'api-key');
  const sim = await startBuiltSimulator(workspaceRoot, ['--port', '0', '--api-key-file', keyFile, ...simArgs]);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js')],
    env: simulatorServerEnv(sim.url, keyFile),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  // What the assistant's host receives for each call: the whole result, measured as the JSON it travels as.
  const call: Call = async (name, args) => {
    const reply = await client.request({ method: 'tools/call', params: { name, arguments: { ...args } } });
    if (reply.isError === true) throw new Error(`bench: ${name} failed: ${JSON.stringify(reply.content).slice(0, 200)}`);
    const structured = reply.structuredContent as { data: Row[]; next_offset: number | null };
    return { bytes: Buffer.byteLength(JSON.stringify(reply), 'utf8'), rows: structured.data, nextOffset: structured.next_offset };
  };
  const out: Asked[] = [];
  try {
    await client.connect(transport);
    for (const q of QUESTIONS) {
      const paged = await readAll(call, q.tool, {});
      const asked = await readAll(call, q.tool, q.args);
      const expected = answerOf(paged.rows.filter(q.matches), q.answer);
      if (!isDeepStrictEqual(answerOf(asked.rows, q.answer), expected))
        throw new Error(`bench: "${q.text}" got a different answer with fields/filter`);
      out.push({
        question: q,
        rows: paged.rows.length,
        matched: expected.length,
        pagedBytes: paged.bytes,
        pagedCalls: paged.calls,
        askedBytes: asked.bytes,
      });
    }
  } finally {
    await client.close();
    await sim.close();
  }
  return out;
}

/**
 * Bytes per question: for each question, the bytes of the tool results an assistant reads (each whole
 * `tools/call` result, both copies of the payload) when it pages every full row at the default limit and filters
 * itself, against one call with `fields` and `filter` — asserting both give the same answer. The built server over
 * stdio (v2 SDK client, 2026-07-28) against the built simulator: the bench appliance (a mid-size site,
 * bench-appliance.ts), then the simulator's small demo office. Target, on the bench appliance: the median question
 * ≥ 10× fewer bytes (median ratio ≤ 0.1).
 */
export const readQuestionsBenchmark: Benchmark = {
  id: 'read-questions',
  title: 'READ bytes per question: paging full rows vs one call with fields/filter',
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-questions-'));
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, 'api-key'), `${randomBytes(24).toString('hex')}\n`, { mode: 0o600 });
    const dataFile = join(dir, 'bench-appliance.json');
    writeFileSync(dataFile, JSON.stringify(benchAppliance()));
    const out: BenchResult[] = [];
    try {
      const site = await askAll(ctx.workspaceRoot, dir, ['--data', dataFile]);
      const demo = await askAll(ctx.workspaceRoot, dir, []);
      for (const a of site) {
        ctx.note(
          `${a.question.text} ${a.matched} of ${a.rows} rows: ${a.pagedBytes} bytes in ${a.pagedCalls} call(s) vs ${a.askedBytes} in one (${(a.pagedBytes / a.askedBytes).toFixed(1)}× fewer)`,
        );
        out.push(result(`question_${a.question.id}_bytes`, a.askedBytes, 'bytes', a.pagedBytes));
      }
      // ≤ 0.1: the median question reads at least 10× fewer bytes with one call than by paging full rows.
      out.push(result('question_bytes_median_ratio', middle(site.map((a) => a.askedBytes / a.pagedBytes)), 'ratio', null, 0.1));
      // The demo office's collections hold a few rows each, where a reply's fixed envelope weighs more: reported only.
      out.push(result('question_bytes_median_ratio_demo', middle(demo.map((a) => a.askedBytes / a.pagedBytes)), 'ratio'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return out;
  },
};
