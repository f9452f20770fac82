/** Percentile by nearest rank over a copy of `samples` (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError('percentile: "samples" must not be empty');
  if (!(p >= 0 && p <= 100)) throw new RangeError('percentile: "p" must be in 0..100');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);
