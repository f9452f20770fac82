import type { BenchResult } from './bench-result.js';

export interface BenchContext {
  /** Workspace root (where node_modules, dist and tools/bench/fixtures live). */
  readonly workspaceRoot: string;
  /** Progress notes for a human; go to stderr. */
  note(text: string): void;
}

/** One benchmark module. Add a new one (e.g. the contract store's) as an entry of BENCHMARKS. */
export interface Benchmark {
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<readonly BenchResult[]>;
}
