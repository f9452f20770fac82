import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerOnlyProblem, ownerOnlyRefusal } from '../src/index.js';
import type { OwnerOnlyRule } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'owner-only-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const DIR = { kind: 'directory', modeBits: 0o7777 } as const;
const FILE = { kind: 'file', modeBits: 0o7777 } as const;

function dir(name: string, mode: number): string {
  const p = join(root, name);
  mkdirSync(p);
  chmodSync(p, mode);
  return p;
}
function file(name: string, mode: number): string {
  const p = join(root, name);
  writeFileSync(p, 'x');
  chmodSync(p, mode);
  return p;
}

describe('ownerOnlyProblem', () => {
  it('accepts an owner-only directory (0700) and file (0600)', () => {
    expect(ownerOnlyProblem(dir('ok-dir', 0o700), DIR)).toBeNull();
    expect(ownerOnlyProblem(file('ok-file', 0o600), FILE)).toBeNull();
  });

  it('names the first broken rule: missing, symlink, wrong kind, mode', () => {
    expect(ownerOnlyProblem(join(root, 'absent'), DIR)).toBe('NOT_FOUND');
    const target = dir('target', 0o700);
    const link = join(root, 'link');
    symlinkSync(target, link);
    expect(ownerOnlyProblem(link, DIR)).toBe('SYMLINK');
    expect(ownerOnlyProblem(file('a-file', 0o600), DIR)).toBe('NOT_DIRECTORY');
    expect(ownerOnlyProblem(dir('a-dir', 0o700), FILE)).toBe('NOT_REGULAR_FILE');
    expect(ownerOnlyProblem(dir('open-dir', 0o750), DIR)).toBe('UNSAFE_MODE');
    expect(ownerOnlyProblem(file('open-file', 0o644), FILE)).toBe('UNSAFE_MODE');
  });

  it('modeBits 0o7777 refuses a sticky bit that 0o777 ignores', () => {
    const sticky = dir('sticky', 0o1700);
    expect(ownerOnlyProblem(sticky, DIR)).toBe('UNSAFE_MODE');
    expect(ownerOnlyProblem(sticky, { kind: 'directory', modeBits: 0o777 })).toBeNull();
  });

  it('refuses bad arguments', () => {
    expect(() => ownerOnlyProblem('', DIR)).toThrow(/"path"/u);
    expect(() => ownerOnlyProblem(root, { kind: 'pipe', modeBits: 0o777 } as unknown as OwnerOnlyRule)).toThrow(/"rule"/u);
    expect(() => ownerOnlyProblem(root, { kind: 'directory', modeBits: 0o755 } as unknown as OwnerOnlyRule)).toThrow(/"rule"/u);
  });
});

describe('ownerOnlyRefusal', () => {
  it('refuses a platform without an owner model as WRONG_OWNER of "(platform)", never naming the path', () => {
    expect(ownerOnlyRefusal('NO_OWNER_MODEL', '/some/dir')).toEqual({ code: 'WRONG_OWNER', subject: '(platform)' });
  });
  it('keeps every other problem and its path', () => {
    for (const p of ['NOT_FOUND', 'SYMLINK', 'NOT_DIRECTORY', 'NOT_REGULAR_FILE', 'WRONG_OWNER', 'UNSAFE_MODE'] as const) {
      const r = ownerOnlyRefusal(p, '/a/b');
      expect(r).toEqual({ code: p, subject: '/a/b' });
      expect(Object.isFrozen(r)).toBe(true);
    }
  });
});
