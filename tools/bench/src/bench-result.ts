/**
 * One measured number. `floor` is the same quantity for the raw baseline measured in the same run (null when
 * there is none); `ratio` = value / floor. `target` is the goal: a bound on `ratio` when there is a floor, on
 * `value` otherwise (null: reported, no target).
 */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly floor: number | null;
  readonly ratio: number | null;
  readonly target: number | null;
}

export function result(name: string, value: number, unit: string, floor: number | null = null, target: number | null = null): BenchResult {
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return Object.freeze({
    name,
    value: round(value),
    unit,
    floor: floor === null ? null : round(floor),
    ratio: floor === null || floor === 0 ? null : round(value / floor),
    target,
  });
}
