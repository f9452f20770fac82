/**
 * The known name closest to `typed` by edit distance (insertions, deletions, substitutions, and a swap of two
 * neighbours: optimal string alignment), the first of equals in `known`'s order; null when `known` is empty or, with
 * `typoOnly`, when nothing is close enough to be a typo (at most a third of the typed length, at least one edit).
 * One owner for "did you mean": the server's configuration and the READ tools' field names both ask it.
 */
export function nearestName(typed: string, known: Iterable<string>, options: { readonly typoOnly?: boolean } = {}): string | null {
  if (typeof typed !== 'string') throw new TypeError('nearestName: "typed" must be a string');
  const budget = options.typoOnly === true ? Math.max(1, Math.floor(typed.length / 3)) : Infinity;
  let best: string | null = null;
  let bestDistance = budget + 1;
  for (const name of known) {
    if (Math.abs(name.length - typed.length) >= bestDistance) continue;
    const d = editDistance(typed, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one substring). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  const row = (i: number): number[] => rows[i] as number[];
  for (let j = 0; j <= b.length; j += 1) row(0)[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((row(i - 1)[j] as number) + 1, (row(i)[j - 1] as number) + 1, (row(i - 1)[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (row(i - 2)[j - 2] as number) + 1);
      row(i)[j] = d;
    }
  }
  return row(a.length)[b.length] as number;
}
