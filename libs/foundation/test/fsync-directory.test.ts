import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fsyncDirectory } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'foundation-fsync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fsyncDirectory', () => {
  it('syncs an existing directory', () => {
    expect(() => fsyncDirectory(dir)).not.toThrow();
  });
  it('throws for a missing path and for a file (not a directory)', () => {
    expect(() => fsyncDirectory(join(dir, 'missing'))).toThrow(/ENOENT/);
    const file = join(dir, 'f');
    writeFileSync(file, 'x');
    expect(() => fsyncDirectory(file)).toThrow(/ENOTDIR/);
  });
  it('names the argument on bad input', () => {
    expect(() => fsyncDirectory('')).toThrow('"path" must be a non-empty string');
  });
});
