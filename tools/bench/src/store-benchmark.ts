import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The store's own benchmark entry (raw floors over store internals); lint lets only tools/bench import it.
import { runStoreBenchmarks } from '@pfsense-mcp/contract-store/bench';
import type { BenchContext, Benchmark } from './benchmark.js';

/** Contracts in the large store (docs/DESIGN.md §8: 100,000). Override with PFSENSE_BENCH_STORE_CONTRACTS for a quick run. */
function contractCount(): number {
  const raw = process.env['PFSENSE_BENCH_STORE_CONTRACTS'];
  if (raw === undefined || raw === '') return 100_000;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new TypeError('bench: PFSENSE_BENCH_STORE_CONTRACTS must be a positive integer');
  return n;
}

export const storeBenchmark: Benchmark = Object.freeze({
  id: 'contract-store',
  title: 'contract store: lifecycles vs the durable floor, audit verification vs raw HMAC, size and open time',
  async run(ctx: BenchContext) {
    // Floor and store are measured in the same directory, so on the same disk (PFSENSE_BENCH_DIR picks it).
    const dir = mkdtempSync(join(process.env['PFSENSE_BENCH_DIR'] ?? tmpdir(), 'pfsense-mcp-bench-store-'));
    try {
      return await runStoreBenchmarks({ dir, n: contractCount(), note: (t) => ctx.note(`store: ${t}`) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
