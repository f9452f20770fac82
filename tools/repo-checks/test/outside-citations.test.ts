// No comment, README, lint message or config file cites a document the repository does not hold: the scan
// over every text file, and the fixtures that prove each rule fires and that ordinary prose passes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOutsideCitations, listRepositoryFiles } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'citations');
const SCANNED = /\.(?:ts|mts|cts|mjs|js|cjs|json|sh|md|ya?ml|html|txt)$|^\.ci\/|(?:^|\/)\.gitignore$/u;
// vendor/ is upstream text; the fixtures hold citations on purpose; the two scanners spell out what they look for.
const NOT_SCANNED = ['vendor/', 'tools/repo-checks/test/fixtures/', 'package-lock.json'];
const SCANNERS = ['tools/repo-checks/src/find-outside-citations.ts', 'tools/repo-checks/src/find-root-escapes.ts'];

function fixture(name: string): { as: string; expected: string[]; lines: number; text: string } {
  const [asLine, expectLine, ...rest] = readFileSync(join(FIXTURES, name), 'utf8').split('\n');
  const as = /^as: (\S+)$/u.exec(asLine ?? '')?.[1];
  const expected = /^expect: (\S+)$/u.exec(expectLine ?? '')?.[1];
  if (as === undefined || expected === undefined) throw new Error(`fixture ${name}: needs "as:" and "expect:" lines`);
  const text = rest.join('\n');
  return { as, expected: expected === 'none' ? [] : expected.split(','), lines: rest.filter((l) => l.trim() !== '').length, text };
}

describe('findOutsideCitations', () => {
  const names = readdirSync(FIXTURES)
    .filter((n) => n.endsWith('.txt'))
    .sort();

  it('has fixtures for every rule and for the clean case', () => {
    const rules = new Set(names.flatMap((n) => fixture(n).expected));
    expect([...rules].sort()).toEqual([
      'architecture-document',
      'decision-record',
      'issue-number',
      'predecessor',
      'reference-spec',
      'seed-document',
      'short-design-citation',
      'unvendored-endpoints-json',
    ]);
    expect(names.some((n) => fixture(n).expected.length === 0)).toBe(true);
  });

  it.each(names)('%s', (name) => {
    const { as, expected, lines, text } = fixture(name);
    const found = findOutsideCitations(as, text);
    expect([...new Set(found.map((f) => f.rule))].sort(), JSON.stringify(found, null, 1)).toEqual(expected);
    // Every line of a firing fixture is one form of its rule, so every line must be found.
    if (expected.length > 0) expect(new Set(found.map((f) => f.line)).size, JSON.stringify(found, null, 1)).toBe(lines);
  });

  it('names the file, line and text of each finding', () => {
    const { as, text } = fixture('architecture.txt');
    const found = findOutsideCitations(as, `fine\n  ${text.trim()}\n`);
    expect(found).toEqual([{ file: as, line: 2, rule: 'architecture-document', excerpt: text.trim() }]);
  });

  it('refuses a path that is not relative to the root, and text that is not a string', () => {
    expect(() => findOutsideCitations('/abs/file.ts', '')).toThrow(/file must be/u);
    expect(() => findOutsideCitations('../up.ts', '')).toThrow(/file must be/u);
    expect(() => findOutsideCitations('a.ts', 1 as unknown as string)).toThrow(/text must be/u);
  });
});

describe('the repository cites only itself and public specs', () => {
  const files = listRepositoryFiles(WORKSPACE_ROOT).filter(
    (f) => SCANNED.test(f) && !NOT_SCANNED.some((p) => f.startsWith(p)) && !SCANNERS.includes(f),
  );

  it('scans sources, tests, READMEs, lint rules and configs', () => {
    for (const must of [
      'README.md',
      'docs/DESIGN.md',
      'eslint.config.mjs',
      'tools/layers/layers.mjs',
      'tools/lint-rules/adapter-restrictions.mjs',
      'libs/executor/src/mutation-executor.ts',
      'nx.json',
      '.ci/run',
    ]) {
      expect(files, must).toContain(must);
    }
  });

  it('no file cites an issue, a design note or decision record outside the repository, or the replaced product', () => {
    const found = files.flatMap((f) => findOutsideCitations(f, readFileSync(join(WORKSPACE_ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });
});
