import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programBuildOf } from '../src/index.js';

const root = resolve(import.meta.dirname, '..', '..', '..');

describe('programBuildOf', () => {
  it('names the bundle and what it is built from: its src, the src of the layers it may import, the shared tsconfig', async () => {
    const build = await programBuildOf('signer-cli');
    expect(build.bundle).toBe(join(root, 'dist', 'apps', 'signer-cli', 'main.js'));
    expect(build.sources.map((s) => relative(root, s))).toEqual([
      'apps/signer-cli/src',
      ...['authorization', 'crypto', 'canonical', 'adapters', 'policy', 'foundation'].map((l) => `libs/${l}/src`),
      'tsconfig.base.json',
    ]);
    expect(Object.isFrozen(build) && Object.isFrozen(build.sources)).toBe(true);
  });

  it('refuses a name that is not a program', async () => {
    await expect(programBuildOf('authorization')).rejects.toThrow(TypeError);
    await expect(programBuildOf('')).rejects.toThrow(TypeError);
  });
});
