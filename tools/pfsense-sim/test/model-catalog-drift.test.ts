// src/model-catalog.ts is generated (DO NOT EDIT header): the committed file must be exactly what its generator
// writes from the vendored pfrest data, so a hand edit or a stale regeneration fails here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('scripts/generate-model-catalog.mjs', () => {
  it('regenerating into a temp dir reproduces the committed file(s) byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfsense-sim-generate-'));
    try {
      execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'generate-model-catalog.mjs'), '--out', dir], { stdio: 'pipe' });
      for (const file of ['model-catalog.ts']) {
        expect(readFileSync(join(dir, file), 'utf8'), `${file} differs from its generator's output: re-run the generator`).toBe(
          readFileSync(join(import.meta.dirname, '..', 'src', file), 'utf8'),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
