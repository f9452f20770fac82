// replaceFileAtomically and readBoundedFile on real temp files: content, mode, no temp left, no link followed.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBoundedFile, replaceFileAtomically } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'foundation-atomic-'));
afterAll(() => {
  chmodSync(root, 0o700);
  rmSync(root, { recursive: true, force: true });
});
let n = 0;
const freshDir = (): string => {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
};

describe('replaceFileAtomically', () => {
  it('creates, then replaces, a 0600 file with exactly the content, leaving no temp file', () => {
    const dir = freshDir();
    const file = join(dir, 'state.json');
    replaceFileAtomically(file, 'one\n');
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    writeFileSync(file, 'x', { mode: 0o644 });
    chmodSync(file, 0o644);
    replaceFileAtomically(file, 'two — ünïcode\n');
    expect(readFileSync(file, 'utf8')).toBe('two — ünïcode\n');
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('0600 even under a umask that would narrow it', () => {
    const file = join(freshDir(), 'f');
    const old = process.umask(0o277);
    try {
      replaceFileAtomically(file, 'x');
    } finally {
      process.umask(old);
    }
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  });

  it('replaces a symlink at the path by a file (the link target is untouched)', () => {
    const dir = freshDir();
    const target = join(dir, 'target');
    writeFileSync(target, 'keep');
    symlinkSync(target, join(dir, 'link'));
    replaceFileAtomically(join(dir, 'link'), 'new');
    expect(lstatSync(join(dir, 'link')).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });

  it('throws what the file system throws and leaves no temp file when the rename fails', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'occupied'));
    writeFileSync(join(dir, 'occupied', 'x'), '');
    expect(() => replaceFileAtomically(join(dir, 'occupied'), 'x')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['occupied']);
    expect(() => replaceFileAtomically(join(dir, 'missing', 'f'), 'x')).toThrow(/ENOENT/);
  });

  it('names the argument on bad input', () => {
    expect(() => replaceFileAtomically('', 'x')).toThrow('replaceFileAtomically: "path" must be a non-empty string');
    expect(() => replaceFileAtomically(join(root, 'f'), 1 as never)).toThrow('"content" must be a string');
  });
});

describe('readBoundedFile', () => {
  it('reads a file up to the bound as UTF-8; null above it', () => {
    const dir = freshDir();
    const file = join(dir, 'f');
    writeFileSync(file, 'héllo');
    expect(readBoundedFile(file, 6)).toBe('héllo');
    expect(readBoundedFile(file, 5)).toBeNull();
    writeFileSync(file, '');
    expect(readBoundedFile(file, 1)).toBe('');
  });

  it('never follows a symlink and throws ENOENT for a missing file', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'target'), 'secret');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    expect(() => readBoundedFile(join(dir, 'link'), 100)).toThrow(/ELOOP/);
    expect(() => readBoundedFile(join(dir, 'missing'), 100)).toThrow(/ENOENT/);
  });

  it('names the argument on bad input', () => {
    expect(() => readBoundedFile('', 1)).toThrow('readBoundedFile: "path" must be a non-empty string');
    expect(() => readBoundedFile(join(root, 'f'), 0)).toThrow('"maxBytes" must be a positive integer');
  });
});
