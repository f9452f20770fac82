// Shared vitest settings: every project resolves @pfsense-mcp/* from tsconfig.base.json paths
// (one source of truth) and writes a JSON report that tools/scripts/test-all.mjs adds up.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function aliasesFromTsconfig() {
  const base = JSON.parse(readFileSync(join(workspaceRoot, 'tsconfig.base.json'), 'utf8'));
  const entries = Object.entries(base.compilerOptions.paths);
  // Longest first, so '@pfsense-mcp/contract-store/executor' wins over '@pfsense-mcp/contract-store'.
  entries.sort((a, b) => b[0].length - a[0].length);
  return entries.map(([find, [target]]) => ({
    find: new RegExp(`^${find.replace(/[/\\^$.*+?()[\]{}|-]/g, '\\$&')}$`),
    replacement: join(workspaceRoot, target),
  }));
}

export function projectConfig(projectDir, overrides = {}) {
  const name = relative(workspaceRoot, projectDir).replaceAll('/', '-');
  return defineConfig({
    root: projectDir,
    resolve: { alias: aliasesFromTsconfig() },
    test: {
      include: ['test/**/*.test.ts'],
      pool: 'forks',
      testTimeout: 30_000,
      hookTimeout: 30_000,
      reporters: ['default', 'json'],
      outputFile: { json: join(workspaceRoot, 'tmp', 'vitest', `${name}.json`) },
      passWithNoTests: false,
      ...overrides,
    },
  });
}

export { workspaceRoot };
