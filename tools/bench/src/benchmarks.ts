import type { Benchmark } from './benchmark.js';
import { coldStartBenchmark } from './cold-start-benchmark.js';
import { exchangeJunkBenchmark } from './exchange-junk-benchmark.js';
import { fleetReadBenchmark } from './fleet-read-benchmark.js';
import { readOverheadBenchmark } from './read-overhead-benchmark.js';
import { readQuestionsBenchmark } from './read-questions-benchmark.js';
import { storeBenchmark } from './store-benchmark.js';
import { toolSurfaceBenchmark } from './tool-surface-benchmark.js';
import { writeLifecycleBenchmark } from './write-lifecycle-benchmark.js';
import { writeOutboxBenchmark } from './write-outbox-benchmark.js';

/** The benchmark registry: `npm run bench` runs these in order. Later issues append their modules here. */
export const BENCHMARKS: readonly Benchmark[] = Object.freeze([
  coldStartBenchmark,
  readOverheadBenchmark,
  readQuestionsBenchmark,
  toolSurfaceBenchmark,
  storeBenchmark,
  writeLifecycleBenchmark,
  writeOutboxBenchmark,
  exchangeJunkBenchmark,
  fleetReadBenchmark,
]);
