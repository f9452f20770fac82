import type { BenchResult } from './bench-result.js';

const fmt = (n: number | null) => (n === null ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 3 : 1));

/** Throughputs (a unit per second) must reach their target; times and sizes must stay under it. */
export function higherIsBetter(r: BenchResult): boolean {
  return r.unit.endsWith('/s');
}

/** A plain text table: name, value, unit, floor, ratio, target and whether the target holds. */
export function formatTable(results: readonly BenchResult[]): string {
  const rows = results.map((r) => {
    const measured = r.floor === null ? r.value : r.ratio;
    const higher = higherIsBetter(r);
    const holds = measured !== null && r.target !== null && (higher ? measured >= r.target : measured <= r.target);
    const verdict = r.target === null || measured === null ? '' : holds ? 'ok' : 'MISSED';
    const bound = r.target === null ? '—' : `${higher ? '≥' : '≤'} ${r.target}${r.floor === null ? ` ${r.unit}` : '×'}`;
    return [r.name, fmt(r.value), r.unit, fmt(r.floor), fmt(r.ratio), bound, verdict];
  });
  const header = ['benchmark', 'value', 'unit', 'floor', 'ratio', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
