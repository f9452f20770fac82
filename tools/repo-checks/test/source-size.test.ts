// The size rule over the real tree: every covered source (tests included) of the working copy, as a clone has it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SOURCE_LINES, findOversizedSource, generatorOf, isCoveredSource, listRepositoryFiles } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const all = listRepositoryFiles(WORKSPACE_ROOT);
const covered = all.filter(isCoveredSource);
const textOf = (f: string): string => readFileSync(join(WORKSPACE_ROOT, f), 'utf8');

describe('the sources of the repository and the size rule', () => {
  it('covers the sources, tests and scripts of libs, apps and tools', () => {
    for (const must of [
      'libs/foundation/src/index.ts',
      'apps/mcp-server/test/e2e.test.ts',
      'tools/layers/layers.mjs',
      'libs/pfsense-read/scripts/generate-catalogue.mjs',
    ]) {
      expect(covered, must).toContain(must);
    }
  });

  it('every file exempt as generated names a generator that is a file of the repository', () => {
    const generated = covered.map((f) => ({ file: f, generator: generatorOf(textOf(f)) })).filter((g) => g.generator !== null);
    expect(generated.map((g) => g.file)).toEqual(
      expect.arrayContaining([
        'libs/pfsense-read/src/read-models.ts',
        'libs/pfsense-read/src/read-catalogue-data.ts',
        'tools/pfsense-sim/src/model-catalog.ts',
      ]),
    );
    for (const g of generated) expect(all, `${g.file} names its generator ${g.generator}`).toContain(g.generator);
  });

  it(`no hand-written source file is longer than ${MAX_SOURCE_LINES} lines (split it into one-concept files)`, () => {
    const oversized = covered.map((f) => findOversizedSource(f, textOf(f))).filter((o) => o !== null);
    expect(oversized).toEqual([]);
  });
});
