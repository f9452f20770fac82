import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Runs a generator script (`node SCRIPT --out DIR`) into a fresh temp dir and returns the named files it wrote,
 * as text; the dir is removed either way. Drift tests compare the result with the committed files, so the
 * generator itself — not a second copy of its tables — defines what "in sync" means.
 */
export function runGenerator(script: string, files: readonly string[]): ReadonlyMap<string, string> {
  if (typeof script !== 'string' || !script.endsWith('.mjs'))
    throw new TypeError('runGenerator: "script" must be the path of a .mjs generator');
  if (!Array.isArray(files) || files.length === 0 || files.some((f) => typeof f !== 'string' || f !== basename(f))) {
    throw new TypeError('runGenerator: "files" must be a non-empty list of plain file names');
  }
  const dir = mkdtempSync(join(tmpdir(), 'pfsense-mcp-generate-'));
  try {
    execFileSync(process.execPath, [script, '--out', dir], { stdio: 'pipe' });
    return new Map(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
