// src/model-catalog.ts is generated (DO NOT EDIT header): the committed file must be exactly what its generator
// writes from the vendored pfrest data, so a hand edit or a stale regeneration fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGenerator } from '@pfsense-mcp/test-support';
import { describe, expect, it } from 'vitest';

describe('scripts/generate-model-catalog.mjs', () => {
  it('regenerating into a temp dir reproduces the committed file(s) byte for byte', () => {
    for (const [file, generated] of runGenerator(join(import.meta.dirname, '..', 'scripts', 'generate-model-catalog.mjs'), [
      'model-catalog.ts',
    ])) {
      expect(generated, `${file} differs from its generator's output: re-run the generator`).toBe(
        readFileSync(join(import.meta.dirname, '..', 'src', file), 'utf8'),
      );
    }
  });
});
