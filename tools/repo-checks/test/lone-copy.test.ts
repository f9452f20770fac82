// The clean-clone check: the repository copied alone into an empty temporary directory (no sibling folders)
// regenerates every generated file byte for byte from vendor/, and the data-driven suites run in full there.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyToLoneDirectory, listRepositoryFiles } from '../src/index.js';
import type { LoneCopy } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const GENERATOR = /^(?:apps|libs|tools)\/[^/]+\/scripts\/generate-[a-z0-9-]+\.mjs$/u;
// Child processes must not think they are vitest workers of this run.
const childEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));

interface VitestReport {
  readonly numFailedTests: number;
  readonly numPassedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests: number;
  readonly testResults: readonly { readonly name: string; readonly status: string }[];
}

let lone: LoneCopy;
beforeAll(() => {
  lone = copyToLoneDirectory(WORKSPACE_ROOT);
});
afterAll(() => {
  if (lone !== undefined) rmSync(lone.parent, { recursive: true, force: true });
});

describe('a lone copy of the repository', () => {
  it('has nothing beside it and carries the vendored pfrest data', () => {
    expect(readdirSync(lone.parent)).toEqual(['repo']);
    expect(existsSync(join(lone.root, 'vendor', 'pfrest', 'SOURCE.md'))).toBe(true);
    expect(lone.files).toEqual(listRepositoryFiles(WORKSPACE_ROOT));
  });

  it('every generator, run there with its defaults, reproduces every committed file exactly', () => {
    const generators = lone.files.filter((f) => GENERATOR.test(f));
    expect(generators).toEqual(
      expect.arrayContaining([
        'apps/mcp-server/scripts/generate-privileges.mjs',
        'apps/mcp-server/scripts/generate-sentinel-data.mjs',
        'libs/pfsense-read/scripts/generate-catalogue.mjs',
        'libs/policy/scripts/generate-capabilities.mjs',
        'tools/pfsense-sim/scripts/generate-model-catalog.mjs',
      ]),
    );
    for (const script of generators) {
      execFileSync(process.execPath, [script], { cwd: lone.root, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    }
    expect(listRepositoryFiles(lone.root), 'a generator added or removed a file').toEqual(lone.files);
    const changed = lone.files.filter((f) => !readFileSync(join(lone.root, f)).equals(readFileSync(join(WORKSPACE_ROOT, f))));
    expect(changed, 'regenerated from vendor/pfrest, these differ from the committed files').toEqual([]);
  }, 120_000);

  it.each(['libs/pfsense-read', 'libs/policy'])(
    '%s: every test file loads and every test passes there',
    (project) => {
      const vitest = join(lone.root, 'node_modules', 'vitest', 'vitest.mjs');
      execFileSync(process.execPath, [vitest, 'run', '--config', `${project}/vitest.config.ts`], {
        cwd: lone.root,
        env: { ...childEnv(), FORCE_COLOR: '0' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const report = JSON.parse(
        readFileSync(join(lone.root, 'tmp', 'vitest', `${project.replace('/', '-')}.json`), 'utf8'),
      ) as VitestReport;
      const testFiles = readdirSync(join(lone.root, project, 'test')).filter((f) => f.endsWith('.test.ts'));
      expect(report.testResults.map((r) => [r.name.split('/').pop(), r.status]).sort()).toEqual(testFiles.map((f) => [f, 'passed']).sort());
      expect([report.numFailedTests, report.numPendingTests + report.numTodoTests]).toEqual([0, 0]);
      expect(report.numPassedTests).toBeGreaterThan(testFiles.length);
    },
    120_000,
  );
});
