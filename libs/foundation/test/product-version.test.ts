import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCT_VERSION } from '../src/index.js';

describe('PRODUCT_VERSION', () => {
  it("is the workspace package's version", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(PRODUCT_VERSION).toBe(pkg.version);
  });
});
