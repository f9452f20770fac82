// docs/DESIGN.md is what source comments cite as "docs/DESIGN.md §N": its ten sections must exist in order,
// every citation must name one of them, and its links must point at files of the repository.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRepositoryFiles } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const DESIGN = join(WORKSPACE_ROOT, 'docs', 'DESIGN.md');
const text = readFileSync(DESIGN, 'utf8');

describe('docs/DESIGN.md', () => {
  it('has the sections §1 to §10, in order', () => {
    const sections = [...text.matchAll(/^## §(\d+) /gmu)].map((m) => Number(m[1]));
    expect(sections).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('every "docs/DESIGN.md §N" cited in the repository names one of them', () => {
    const cited = listRepositoryFiles(WORKSPACE_ROOT)
      .filter((f) => /\.(?:ts|mjs|md|json)$/u.test(f) && !f.startsWith('vendor/'))
      .flatMap((f) =>
        [...readFileSync(join(WORKSPACE_ROOT, f), 'utf8').matchAll(/DESIGN\.md §(\d+)/gu)].map((m) => [f, Number(m[1])] as const),
      );
    expect(cited.length).toBeGreaterThan(0);
    for (const [file, n] of cited) expect(n >= 1 && n <= 10, `${file} cites §${n}`).toBe(true);
  });

  it('links only to files that exist in the repository', () => {
    const links = [...text.matchAll(/\]\((?!https?:|#)([^)#\s]+)/gu)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect(existsSync(join(dirname(DESIGN), link)), link).toBe(true);
  });
});
