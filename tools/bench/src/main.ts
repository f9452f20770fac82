// `npm run bench [-- --json] [-- --only ID[,ID]] [-- --help]`: runs the benchmark registry and prints a table, or JSON lines
// {"name","value","unit","floor","ratio","target"} with --json. Results go to stdout, progress to stderr.
import type { BenchResult } from './bench-result.js';
import { BENCHMARKS } from './benchmarks.js';
import { formatTable } from './format-table.js';
import { benchHelpText, parseBenchArgs } from './parse-bench-args.js';
import { findWorkspaceRoot } from './workspace-root.js';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseBenchArgs(
    argv,
    BENCHMARKS.map((b) => b.id),
  );
  if (args.kind === 'help') {
    process.stdout.write(benchHelpText(BENCHMARKS));
    return 0;
  }
  if (args.kind === 'usage-error') {
    process.stderr.write(`bench: ${args.message}\n`);
    return 2;
  }
  const { json, only } = args;
  const ctx = { workspaceRoot: findWorkspaceRoot(), note: (text: string) => process.stderr.write(`bench: ${text}\n`) };
  const results: BenchResult[] = [];
  for (const benchmark of BENCHMARKS) {
    if (only !== null && !only.has(benchmark.id)) continue;
    ctx.note(`running ${benchmark.id} — ${benchmark.title}`);
    const out = await benchmark.run(ctx);
    results.push(...out);
    if (json) for (const r of out) process.stdout.write(`${JSON.stringify(r)}\n`);
  }
  if (!json) process.stdout.write(`${formatTable(results)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : 'failed'}\n`);
    process.exitCode = 1;
  },
);
