// Public API of bench: the registry and the types a new benchmark module implements.
export { BENCHMARKS } from './benchmarks.js';
export type { Benchmark, BenchContext } from './benchmark.js';
export { result, type BenchResult } from './bench-result.js';
export { median, percentile } from './stats.js';
export { formatTable } from './format-table.js';
export { modelFacingBytes, estimatedTokens, type ModelFacingTool } from './model-facing-size.js';
export { benchHelpText, parseBenchArgs, type BenchArgs } from './parse-bench-args.js';
