// The formatter is part of the house law (docs/DESIGN.md §2): `npm test`'s lint step runs `prettier --check .`
// (tools/lint-rules/project.json). This proves the committed configuration is the one that check uses, that it
// rejects a misformatted source and accepts the formatted one, and that every generated file it skips still
// exists (an ignore line for a moved or renamed file would silently stop covering anything).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('prettier --check in the lint step', () => {
  it('is what the lint-rules lint target runs, over the whole repository', () => {
    const project = JSON.parse(readFileSync(join(root, 'tools', 'lint-rules', 'project.json'), 'utf8')) as {
      targets: { lint: { options: { command: string } } };
    };
    expect(project.targets.lint.options.command).toMatch(/prettier --check \.(?:\s|$)/u);
  });

  it('rejects a source that is not formatted and accepts it once formatted, under the committed configuration', async () => {
    const file = join(root, 'libs', 'foundation', 'src', 'zz-format-probe.ts');
    const options = await prettier.resolveConfig(file, { editorconfig: false });
    expect(options).toMatchObject({ printWidth: 140, singleQuote: true, trailingComma: 'all' });
    const messy = 'export const x = {a:1,\n  b:"two"}\n';
    expect(await prettier.check(messy, { ...options, filepath: file })).toBe(false);
    const formatted = await prettier.format(messy, { ...options, filepath: file });
    expect(formatted).toBe("export const x = { a: 1, b: 'two' };\n");
    expect(await prettier.check(formatted, { ...options, filepath: file })).toBe(true);
  });

  it('skips only paths that exist: every file or folder named in .prettierignore is there', () => {
    const named = readFileSync(join(root, '.prettierignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0 && !line.startsWith('#') && !/[*]/u.test(line));
    expect(named.length).toBeGreaterThan(5);
    for (const entry of named.filter((e) => !['node_modules/', 'dist/', 'tmp/', 'coverage/', '.nx/'].includes(e))) {
      expect(existsSync(join(root, entry)), entry).toBe(true);
    }
  });
});
