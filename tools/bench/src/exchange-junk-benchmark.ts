import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { OPERATOR_BUNDLE_ROLES, formatOperatorKeyBundle, generateEd25519KeyPair } from '@pfsense-mcp/crypto';
import { startSimulator } from '@pfsense-mcp/pfsense-sim';
import { result } from './bench-result.js';
import type { BenchResult } from './bench-result.js';
import type { BenchContext, Benchmark } from './benchmark.js';
import { median } from './stats.js';
import { simulatorServerEnv } from './simulator-server-env.js';

const ALIASES_PATH = '/api/v2/firewall/aliases';
const CALLS = 20;
const SIZES = Object.freeze([1, 100, 1000]);
const WRITE_TOOL = 'pfsense_set_firewall_alias_description';

/** `pfsense-mcp admin ARGS` through the built server program; its JSON answer. */
function admin(server: string, args: readonly string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, [server, 'admin', ...args, '--json'], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '' },
  });
  if (r.status !== 0) throw new Error(`bench: admin ${args[0] ?? ''} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

/**
 * A write-tool call (through MCP, over stdio to the built server) with 1, 100 and 1,000 junk files in the exchange
 * folder's answers/: junk names are counted by name and each file's opening line is checked once, a bounded number
 * per call (docs/DESIGN.md §6), so the call should stay flat: ratio to the 1-file call ≤ 2.
 */
export const exchangeJunkBenchmark: Benchmark = Object.freeze({
  id: 'exchange-junk',
  title: 'write call with 1 / 100 / 1,000 junk files in the exchange folder (flat within 2x)',
  async run(ctx: BenchContext): Promise<readonly BenchResult[]> {
    const root = mkdtempSync(join(process.env['PFSENSE_BENCH_DIR'] ?? tmpdir(), 'pfsense-mcp-bench-exchange-'));
    chmodSync(root, 0o700);
    const server = join(ctx.workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js');
    const sim = await startSimulator({
      data: {
        [ALIASES_PATH]: [{ name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] }],
        '/api/v2/status/system': { platform: 'Netgate 4200', netgate_id: 'a1b2c3d4e5f60718' },
      },
    });
    let client: Client | null = null;
    try {
      const dir = join(root, 'write');
      const exchange = join(root, 'exchange');
      const init = admin(server, ['init', '--dir', dir, '--exchange', exchange]);
      // The operator's three public keys, as `keygen --role operator` bundles them (the private halves are not kept).
      const transfer = join(root, 'transfer');
      mkdirSync(transfer, { mode: 0o700 });
      const bundle = join(transfer, 'operator.pub');
      const entries = OPERATOR_BUNDLE_ROLES.map((role) => ({ role, publicKey: bytesToHex(generateEd25519KeyPair().publicKey) }));
      writeFileSync(bundle, formatOperatorKeyBundle(entries), { mode: 0o600 });
      admin(server, ['trust', '--dir', dir, '--bundle', bundle]);
      const keyFile = join(root, 'api-key');
      writeFileSync(keyFile, `${sim.apiKey}\n`, { mode: 0o600 });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [server],
        env: simulatorServerEnv(sim.url, keyFile, init['environment'] as Record<string, string>),
        stderr: 'ignore',
      });
      client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(transport);
      const c = client;
      const call = () =>
        c
          .request({
            method: 'tools/call',
            params: { name: WRITE_TOOL, arguments: { alias_name: 'LAN_SERVERS', description: 'benchmarked description' } },
          })
          .then((r) => {
            const status = (r.structuredContent as { status?: unknown } | undefined)?.status;
            if (r.isError === true || status !== 'requested') throw new Error('bench: the write call did not answer requested');
          });
      await call(); // the pending request and its copy in requests/

      const answers = join(exchange, 'answers');
      let files = 0;
      const out: BenchResult[] = [];
      let floor: number | null = null;
      for (const size of SIZES) {
        for (; files < size; files += 1) writeFileSync(join(answers, `junk-${files}.json`), 'not an answer');
        // Warm-up until every junk file had its one opening-line check (bounded per call), then the steady state.
        for (let i = 0; i < 12; i += 1) await call();
        const times: number[] = [];
        for (let i = 0; i < CALLS; i += 1) {
          const t0 = performance.now();
          await call();
          times.push(performance.now() - t0);
        }
        const m = median(times);
        ctx.note(`exchange-junk: ${size} files → median ${m.toFixed(2)} ms`);
        if (floor === null) {
          floor = m;
          out.push(result('write call, 1 junk file in the exchange folder (median)', m, 'ms'));
        } else {
          out.push(result(`write call, ${size} junk files in the exchange folder (median, vs 1 file)`, m, 'ms', floor, 2));
        }
      }
      return out;
    } finally {
      await client?.close();
      await sim.close();
      rmSync(root, { recursive: true, force: true });
    }
  },
});
