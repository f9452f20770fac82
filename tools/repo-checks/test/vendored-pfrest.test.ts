// vendor/pfrest holds exactly the upstream data the generators and drift tests consume, pinned by SHA256SUMS.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRepositoryFiles } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const VENDOR = join(WORKSPACE_ROOT, 'vendor', 'pfrest');
const NOT_PINNED = ['SHA256SUMS', 'SOURCE.md'];
const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(VENDOR, file)))
    .digest('hex');

function pinned(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(join(VENDOR, 'SHA256SUMS'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')) {
    const m = /^([0-9a-f]{64}) {2}(\S+)$/u.exec(line);
    if (m === null) throw new Error(`SHA256SUMS: malformed line ${JSON.stringify(line)}`);
    out.set(m[2] as string, m[1] as string);
  }
  return out;
}

describe('vendor/pfrest', () => {
  it('SHA256SUMS lists every file of the folder (but itself and SOURCE.md), each with its current hash', () => {
    const files = readdirSync(VENDOR)
      .filter((f) => !NOT_PINNED.includes(f))
      .sort();
    const sums = pinned();
    expect([...sums.keys()].sort()).toEqual(files);
    for (const f of files) expect(sha256(f), f).toBe(sums.get(f));
  });

  it('every data file is read by a generator or a test (nothing is vendored that nothing consumes)', () => {
    const readers = listRepositoryFiles(WORKSPACE_ROOT)
      .filter((f) => /^(?:apps|libs|tools)\/[^/]+\/(?:scripts|test)\/.+\.(?:mjs|ts)$/u.test(f) && !f.startsWith('tools/repo-checks/'))
      .map((f) => [f, readFileSync(join(WORKSPACE_ROOT, f), 'utf8')] as const);
    const data = readdirSync(VENDOR).filter((f) => /\.(?:json|md)$/u.test(f) && f !== 'SOURCE.md');
    expect(data.sort()).toEqual([
      'models.json',
      'pfsense_openapi_schema_trimmed.json',
      'response-ids.json',
      'tool-endpoints.json',
      'tool-reference.md',
    ]);
    for (const f of data) {
      const quoted = new RegExp(`['"\`]${f.replace(/[.]/gu, '\\.')}['"\`]`, 'u');
      expect(
        readers.filter(([, text]) => quoted.test(text)).map(([name]) => name),
        f,
      ).not.toEqual([]);
    }
  });

  it('SOURCE.md names the pfrest version and commit models.json was derived from, and every licence file', () => {
    const source = readFileSync(join(VENDOR, 'SOURCE.md'), 'utf8');
    const models = JSON.parse(readFileSync(join(VENDOR, 'models.json'), 'utf8')) as {
      source: { tag: string; commit: string; license: string };
    };
    expect(models.source).toMatchObject({ tag: 'v2.10.0', license: 'Apache-2.0' });
    expect(source).toContain(`\`${models.source.tag}\``);
    expect(source).toContain(models.source.commit);
    for (const licence of readdirSync(VENDOR).filter((f) => f.startsWith('LICENSE-'))) expect(source, licence).toContain(licence);
    expect(readFileSync(join(VENDOR, 'LICENSE-pfrest-Apache-2.0.txt'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/u);
    expect(readFileSync(join(VENDOR, 'LICENSE-pfsense-mcp-server-MIT.txt'), 'utf8')).toMatch(/^MIT License/u);
  });
});
