// Nothing in the repository may read a path outside it: the scan over every script, test, config and README,
// and the fixtures that prove the scan fires on the forms it is meant to catch.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRootEscapes, listRepositoryFiles } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'escapes');
// Text files a script, test or reader follows paths from. vendor/ is upstream data, and the fixtures below hold
// escapes on purpose.
const SCANNED = /\.(?:ts|mts|mjs|js|cjs|json|sh|md)$|^\.ci\/run$/u;
const NOT_SCANNED = ['vendor/', 'tools/repo-checks/test/fixtures/', 'package-lock.json'];

function fixture(name: string): { as: string; expected: string[]; text: string } {
  const [asLine, expectLine, ...rest] = readFileSync(join(FIXTURES, name), 'utf8').split('\n');
  const as = /^as: (\S+)$/u.exec(asLine ?? '')?.[1];
  const expected = /^expect: (\S+)$/u.exec(expectLine ?? '')?.[1];
  if (as === undefined || expected === undefined) throw new Error(`fixture ${name}: needs "as:" and "expect:" lines`);
  return { as, expected: expected === 'none' ? [] : expected.split(','), text: rest.join('\n') };
}

describe('findRootEscapes', () => {
  const names = readdirSync(FIXTURES)
    .filter((n) => n.endsWith('.txt'))
    .sort();

  it('has fixtures for every rule and for the clean case', () => {
    const rules = new Set(names.flatMap((n) => fixture(n).expected));
    expect([...rules].sort()).toEqual(['path-escape', 'relative-literal-escape', 'sibling-shared-folder']);
    expect(names.some((n) => fixture(n).expected.length === 0)).toBe(true);
  });

  it.each(names)('%s', (name) => {
    const { as, expected, text } = fixture(name);
    const found = findRootEscapes(as, text);
    expect([...new Set(found.map((f) => f.rule))].sort(), JSON.stringify(found, null, 1)).toEqual(expected);
  });

  it('names the file, line and expression of each finding', () => {
    const { as, text } = fixture('up-too-far.txt');
    const found = findRootEscapes(as, text);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: as, line: 2, rule: 'path-escape' });
    expect(found[0]?.excerpt).toMatch(/^join\(import\.meta\.dirname, .*'vendor', 'pfrest'\)$/u);
  });

  it('refuses a path that is not relative to the root', () => {
    expect(() => findRootEscapes('/abs/file.ts', '')).toThrow(/file must be/u);
    expect(() => findRootEscapes('../up.ts', '')).toThrow(/file must be/u);
    expect(() => findRootEscapes('', '')).toThrow(/file must be/u);
  });
});

describe('the repository reads nothing outside its root', () => {
  const files = listRepositoryFiles(WORKSPACE_ROOT).filter((f) => SCANNED.test(f) && !NOT_SCANNED.some((p) => f.startsWith(p)));

  it('scans every generator, test and README', () => {
    for (const must of [
      'libs/pfsense-read/scripts/generate-catalogue.mjs',
      'libs/policy/scripts/generate-capabilities.mjs',
      'tools/pfsense-sim/scripts/generate-model-catalog.mjs',
      'apps/mcp-server/scripts/generate-privileges.mjs',
      'apps/mcp-server/scripts/generate-sentinel-data.mjs',
      'libs/pfsense-read/test/vendored-pfrest.ts',
      'libs/policy/test/capability-drift.test.ts',
      'README.md',
      '.ci/run',
    ]) {
      expect(files, must).toContain(must);
    }
  });

  it('no script, test, config or README escapes the root or names a sibling shared folder', () => {
    const found = files.flatMap((f) => findRootEscapes(f, readFileSync(join(WORKSPACE_ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });
});
