// The bench's command line: `[--json] [--only ID[,ID…]] [--help]`. Anything else is refused (exit 2) before a
// benchmark starts — a mistyped flag must not silently start the whole, long run.

export type BenchArgs =
  | { readonly kind: 'help' }
  | { readonly kind: 'run'; readonly json: boolean; readonly only: ReadonlySet<string> | null }
  | { readonly kind: 'usage-error'; readonly message: string };

/** Parses argv against the known benchmark ids. */
export function parseBenchArgs(argv: readonly string[], knownIds: readonly string[]): BenchArgs {
  let json = false;
  let only: Set<string> | null = null;
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] as string;
    if (a === '--help' || a === '-h') return { kind: 'help' };
    if (a === '--json') json = true;
    else if (a === '--only') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('-') || value === '')
        return { kind: 'usage-error', message: `--only needs benchmark ids; known: ${knownIds.join(', ')}` };
      only = new Set(value.split(','));
      i += 1;
    } else {
      // Only the option's name: nothing after "=" is echoed.
      return { kind: 'usage-error', message: `unknown argument ${JSON.stringify(a.split('=')[0]?.slice(0, 40))}; see --help` };
    }
  }
  const unknown = only === null ? [] : [...only].filter((id) => !knownIds.includes(id));
  if (unknown.length > 0)
    return { kind: 'usage-error', message: `unknown benchmark id(s) ${unknown.join(', ')}; known: ${knownIds.join(', ')}` };
  return { kind: 'run', json, only };
}

/** What `npm run bench -- --help` prints. */
export function benchHelpText(benchmarks: readonly { readonly id: string; readonly title: string }[]): string {
  return [
    'npm run bench [-- --json] [-- --only ID[,ID...]]',
    '',
    'Runs the benchmarks and prints one table: each row a measured value with the floor measured in the same run,',
    'their ratio and its target (docs/DESIGN.md §8). Progress goes to stderr, results to stdout.',
    '',
    'Options:',
    '  --json            one JSON line per result: {"name","value","unit","floor","ratio","target"}',
    '  --only ID[,ID]    run only these benchmarks',
    '  --help, -h        this text',
    '',
    'Environment:',
    '  PFSENSE_BENCH_STORE_CONTRACTS  contracts in the large store (default 100000; smaller for a quick run)',
    '  PFSENSE_BENCH_DIR              where the store benchmarks write (the disk under test)',
    '',
    'Benchmarks:',
    ...benchmarks.map((b) => `  ${b.id.padEnd(16)} ${b.title}`),
    '',
    'Ratios mean something only on a quiet machine: run it three times and compare.',
    '',
  ].join('\n');
}
