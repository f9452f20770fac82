import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fillClosedContracts } from '@pfsense-mcp/contract-store/bench';
import { readMasterKeyFile } from '@pfsense-mcp/crypto';
import { result, type BenchResult } from './bench-result.js';
import type { Benchmark } from './benchmark.js';
import { timeStartup, type Era } from './mcp-process.js';
import { median } from './stats.js';
import { bareServerFile } from './bare-server-file.js';

const RUNS = 20;
const WARMUP = 2;
const TARGET = 0.75;
/** With the write runtime (write_protected): spawn → first tools/list at most the bare server's. */
const WRITE_TARGET = 1.0;
/** Closed contracts in the write store the write_protected subject opens and verifies at start. */
const WRITE_CONTRACTS = 1000;

interface Subject {
  readonly id: string;
  readonly file: string;
  readonly era: Era;
  /** Extra environment (the write_protected subject's profile and write directory). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Spawn → exit of `node -e 0`: Node's own start, the part of every figure no server can save. */
function timeNodeStart(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - started));
  });
}

/**
 * A write directory as `pfsense-mcp admin init` makes it, its contract store then holding `n` closed contracts
 * (full lifecycles). Returns the directory and the in-process open-with-verification time of that store.
 */
async function writeDirectoryWithHistory(server: string, base: string, n: number): Promise<{ dir: string; storeOpenMs: number }> {
  const dir = join(base, 'write');
  const init = spawnSync(process.execPath, [server, 'admin', 'init', '--dir', dir, '--json'], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  });
  if (init.status !== 0) throw new Error('bench: pfsense-mcp admin init failed');
  const made = JSON.parse(init.stdout) as { anchor_dir: string; paths: { contracts_database: string; master_key: string } };
  const masterKey = readMasterKeyFile(made.paths.master_key);
  try {
    const { openMs } = await fillClosedContracts({
      directory: dirname(made.paths.contracts_database),
      masterKey,
      anchorFile: join(made.anchor_dir, 'contracts.anchor'),
      n,
    });
    return { dir, storeOpenMs: openMs };
  } finally {
    masterKey.fill(0);
  }
}

/**
 * Cold start (docs/DESIGN.md §8): spawn → first reply and spawn → first `tools/list` reply of the built
 * pfsense-mcp, each ≤ 0.75 of a bare MCP server of one tool (plain ESM from node_modules), in both protocol
 * eras: the 2025 `initialize` opening against the bare v1 server (as before the move to the v2 SDK) and the
 * bare v2 server, the 2026-07-28 `server/discover` opening against the bare v2 server (the v1 SDK cannot serve
 * it). All subjects run once per round, in an order rotated round by round, so they see the same machine state.
 * pfsense-mcp answers the opening and the first tools/list from the SDK server's replies recorded at build time,
 * before it loads the MCP SDK, zod, the READ catalogue and the HTTP stack (apps/mcp-server/README.md, Startup); under
 * write_protected tools/list waits for the write gates. Node's own start (`node -e 0`, measured in the same rounds) is
 * reported beside them: it is most of what remains.
 */
export const coldStartBenchmark: Benchmark = {
  id: 'cold-start',
  title: 'Cold start: spawn → first reply and first tools/list, both eras',
  async run(ctx) {
    const server = join(ctx.workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js');
    if (!existsSync(server)) throw new Error('bench: dist/apps/mcp-server/main.js is missing; run `npm run build`');
    const subjects: readonly Subject[] = [
      { id: 'ours_2025', file: server, era: 'legacy' },
      { id: 'ours_2026', file: server, era: 'modern' },
      { id: 'v1_2025', file: bareServerFile(ctx.workspaceRoot, 'v1'), era: 'legacy' },
      { id: 'v2_2025', file: bareServerFile(ctx.workspaceRoot, 'v2'), era: 'legacy' },
      { id: 'v2_2026', file: bareServerFile(ctx.workspaceRoot, 'v2'), era: 'modern' },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
    chmodSync(dir, 0o700);
    const keyFile = join(dir, 'api-key');
    writeFileSync(keyFile, 'bench-key-0123456789abcdef\n', { mode: 0o600 });
    // Built once: the write_protected subject opens (and verifies) this store on every start.
    const write = await writeDirectoryWithHistory(server, dir, WRITE_CONTRACTS);
    const allSubjects: readonly Subject[] = [
      ...subjects,
      { id: 'ours_write', file: server, era: 'legacy', env: { PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: write.dir } },
    ];
    // A complete configuration; startup makes no network call, so nothing needs to listen on the port.
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      PFSENSE_URL: 'http://127.0.0.1:9',
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
    };
    const nodeStart: number[] = [];
    const first = new Map(allSubjects.map((s) => [s.id, [] as number[]]));
    const list = new Map(allSubjects.map((s) => [s.id, [] as number[]]));
    try {
      for (let i = 0; i < WARMUP + RUNS; i += 1) {
        // Rotate which subject goes first so none always inherits a warmer cache.
        const round = [...allSubjects.slice(i % allSubjects.length), ...allSubjects.slice(0, i % allSubjects.length)];
        for (const subject of round) {
          const times = await timeStartup(subject.file, { ...env, ...subject.env }, ctx.workspaceRoot, subject.era);
          if (i < WARMUP) continue;
          first.get(subject.id)?.push(times.initializeMs);
          list.get(subject.id)?.push(times.toolsListMs);
        }
        const node = await timeNodeStart();
        if (i >= WARMUP) nodeStart.push(node);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    ctx.note(`cold start: ${RUNS} rounds of ${allSubjects.length} spawns, rotating`);
    const m = (values: Map<string, number[]>, id: string) => median(values.get(id) ?? []);
    const nodeFloor = median(nodeStart);
    ctx.note(
      `cold start: Node's own start (node -e 0) ${nodeFloor.toFixed(1)} ms of pfsense-mcp's ${m(first, 'ours_2025').toFixed(1)} ms to the initialize reply and ` +
        `${m(list, 'ours_2025').toFixed(1)} ms to the first tools/list (2025), ${m(list, 'ours_2026').toFixed(1)} ms (2026-07-28)`,
    );
    // What dominates the write_protected start: the opening, then (after it) the READ tools plus the write runtime,
    // of which the contract store's open with full verification is measured on its own, in process.
    const writeOpening = m(first, 'ours_write');
    const writeAttach = m(list, 'ours_write') - writeOpening;
    const phases: [string, number][] = [
      ['spawn → initialize reply', writeOpening],
      ['initialize → tools/list (READ tools + write runtime)', writeAttach],
    ];
    const [dominant] = [...phases].sort((a, b) => b[1] - a[1]);
    ctx.note(
      `cold start write_protected (${WRITE_CONTRACTS} closed contracts): ${phases.map(([what, ms]) => `${what} ${ms.toFixed(1)} ms`).join('; ')}; ` +
        `the contract store's open + verification alone ${write.storeOpenMs.toFixed(1)} ms (in process, once); dominant: ${dominant?.[0] ?? '—'}`,
    );
    const out: BenchResult[] = [
      // 2025 era against the bare v1 server: the names this benchmark has always reported.
      result('cold_start_median_ms', m(first, 'ours_2025'), 'ms', m(first, 'v1_2025'), TARGET),
      result('cold_start_tools_list_median_ms', m(list, 'ours_2025'), 'ms', m(list, 'v1_2025'), TARGET),
      // 2025 era against the bare v2 server.
      result('cold_start_v2_initialize_median_ms', m(first, 'ours_2025'), 'ms', m(first, 'v2_2025'), TARGET),
      result('cold_start_v2_tools_list_median_ms', m(list, 'ours_2025'), 'ms', m(list, 'v2_2025'), TARGET),
      // 2026-07-28 against the bare v2 server: server/discover, then tools/list.
      result('cold_start_discover_median_ms', m(first, 'ours_2026'), 'ms', m(first, 'v2_2026'), TARGET),
      result('cold_start_discover_tools_list_median_ms', m(list, 'ours_2026'), 'ms', m(list, 'v2_2026'), TARGET),
      // With the write runtime over a store of 1,000 closed contracts (2025 opening), against the bare v2 server.
      result('cold_start_write_protected_initialize_median_ms', writeOpening, 'ms', m(first, 'v2_2025')),
      result('cold_start_write_protected_tools_list_median_ms', m(list, 'ours_write'), 'ms', m(list, 'v2_2025'), WRITE_TARGET),
      result('cold_start_write_protected_store_open_ms', write.storeOpenMs, 'ms'),
      // The floors themselves.
      result('cold_start_bare_sdk_median_ms', m(first, 'v1_2025'), 'ms'),
      result('cold_start_tools_list_bare_sdk_median_ms', m(list, 'v1_2025'), 'ms'),
      result('cold_start_bare_v2_initialize_median_ms', m(first, 'v2_2025'), 'ms'),
      result('cold_start_bare_v2_discover_median_ms', m(first, 'v2_2026'), 'ms'),
      result('cold_start_node_floor_median_ms', nodeFloor, 'ms'),
    ];
    return out;
  },
};
