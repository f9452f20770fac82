import type { BenchResult } from './bench-result.js';

const fmt = (n: number | null) => (n === null ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 3 : 1));

/** A plain text table: name, value, unit, floor, ratio, target and whether the target holds. */
export function formatTable(results: readonly BenchResult[]): string {
  const rows = results.map((r) => {
    const measured = r.floor === null ? r.value : r.ratio;
    const verdict = r.target === null || measured === null ? '' : measured <= r.target ? 'ok' : 'MISSED';
    return [r.name, fmt(r.value), r.unit, fmt(r.floor), fmt(r.ratio), r.target === null ? '—' : `≤ ${r.target}${r.floor === null ? ` ${r.unit}` : '×'}`, verdict];
  });
  const header = ['benchmark', 'value', 'unit', 'floor', 'ratio', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
