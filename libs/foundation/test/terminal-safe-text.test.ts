import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RegularFileError, readRegularFile, readRegularFileChunks, terminalSafeText } from '../src/index.js';

describe('terminalSafeText', () => {
  it('escapes every control, bidi, invisible and non-ASCII-space character; keeps printable text and (by default) line feeds', () => {
    expect(terminalSafeText('\u001b]0;t\u0007\u001b[2J\r\t\u0085\u202e\u2066\u200b\u00a0\ufeff\u{e0041}')).toBe(
      '\\u001b]0;t\\u0007\\u001b[2J\\u000d\\u0009\\u0085\\u202e\\u2066\\u200b\\u00a0\\ufeff\\udb40\\udc41',
    );
    expect(terminalSafeText('a\nb')).toBe('a\nb');
    expect(terminalSafeText('a\nb', { keepLineFeeds: false })).toBe('a\\u000ab');
    expect(terminalSafeText('café Ünïcödé 東京 Sеrvers')).toBe('café Ünïcödé 東京 Sеrvers');
    expect(terminalSafeText('x\u202ey', { notation: 'code-point' })).toBe('x\\u{202E}y');
  });

  it('keeps a JSON line valid JSON with the same meaning', () => {
    const value = { name: 'x\u202e\u0085\u2028y', n: 1 };
    expect(JSON.parse(terminalSafeText(JSON.stringify(value)))).toEqual(value);
  });
});

describe('readRegularFileChunks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'foundation-regular-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file within the bound, in chunks', () => {
    const file = join(dir, 'f');
    writeFileSync(file, 'abcdefghij');
    const chunks: string[] = [];
    readRegularFileChunks(file, 10, (c) => chunks.push(Buffer.from(c).toString()), 4);
    expect(chunks).toEqual(['abcd', 'efgh', 'ij']);
    expect(Buffer.from(readRegularFile(file, 10)).toString()).toBe('abcdefghij');
  });

  it('refuses a larger file, a device, a FIFO and a directory without reading them', () => {
    const file = join(dir, 'big');
    writeFileSync(file, 'x'.repeat(11));
    const problem = (path: string) => {
      try {
        readRegularFile(path, 10);
        return null;
      } catch (error) {
        return error instanceof RegularFileError ? error.problem : 'OTHER';
      }
    };
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect([problem(file), problem('/dev/zero'), problem(fifo), problem(dir)]).toEqual([
      'TOO_LARGE',
      'NOT_REGULAR_FILE',
      'NOT_REGULAR_FILE',
      'NOT_REGULAR_FILE',
    ]);
  });
});
