import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGenerator } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'run-generator-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runGenerator', () => {
  it('runs the script with --out into a temp dir, returns the named files and removes the dir', () => {
    const script = join(dir, 'gen.mjs');
    writeFileSync(
      script,
      "import { writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\nconst out = process.argv[process.argv.indexOf('--out') + 1];\nwriteFileSync(join(out, 'a.ts'), 'export const a = 1;\\n');\nwriteFileSync(join(out, 'marker'), out);\n",
    );
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('pfsense-mcp-generate-'));
    const out = runGenerator(script, ['a.ts', 'marker']);
    expect(out.get('a.ts')).toBe('export const a = 1;\n');
    expect(existsSync(out.get('marker') as string)).toBe(false);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('pfsense-mcp-generate-'))).toEqual(before);
  });

  it('fails when the generator fails or does not write a named file, and refuses bad arguments', () => {
    const failing = join(dir, 'fail.mjs');
    writeFileSync(failing, 'process.exit(3);\n');
    expect(() => runGenerator(failing, ['a.ts'])).toThrow();
    const silent = join(dir, 'silent.mjs');
    writeFileSync(silent, '\n');
    expect(() => runGenerator(silent, ['a.ts'])).toThrow(/ENOENT/u);
    expect(() => runGenerator('gen.js', ['a.ts'])).toThrow(/"script"/u);
    expect(() => runGenerator(silent, [])).toThrow(/"files"/u);
    expect(() => runGenerator(silent, ['../a.ts'])).toThrow(/"files"/u);
  });
});
