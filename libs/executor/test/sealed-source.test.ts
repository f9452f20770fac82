// The executor never calls create, confirm or resolveReconciliation, and never reaches the full store
// (docs/DESIGN.md §4). The type of its store field is
// narrowed to the entry's own methods; this scan keeps the source honest too (a cast would get past types).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

const FORBIDDEN: readonly [name: string, pattern: RegExp][] = [
  ['.create(', /\.\s*create\s*\(/],
  ['.confirm(', /\.\s*confirm\s*\(/],
  ['.resolveReconciliation(', /\.\s*resolveReconciliation\s*\(/],
  ['.store.', /\.\s*store\s*\./],
  [
    '.store (bracket or destructured use)',
    /\[\s*['"`](?:store|create|confirm|resolveReconciliation)['"`]\s*\]|\{\s*store\s*\}\s*=\s*(?:entry|this|options\.store)/,
  ],
];

/** Comments may name the forbidden calls (to say they are forbidden); code may not. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

function violations(source: string): string[] {
  const code = stripComments(source);
  return FORBIDDEN.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}

describe('libs/executor/src never reaches create, confirm, resolveReconciliation or the full store', () => {
  it('the scan fires on each forbidden use (so it can fail)', () => {
    expect(violations('store.create(input);')).toEqual(['.create(']);
    expect(violations('this.#store . confirm (id, evidence);')).toEqual(['.confirm(']);
    expect(violations('s.resolveReconciliation(id, r);')).toEqual(['.resolveReconciliation(']);
    expect(violations('entry.store.list();')).toEqual(['.store.']);
    expect(violations("entry['store'];")).toEqual(['.store (bracket or destructured use)']);
    expect(violations('// the executor never calls store.create(…)\n/* nor .store.confirm( */ const x = 1;')).toEqual([]);
  });

  it('no source file in src/ uses them', () => {
    const files = readdirSync(SRC).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    expect(files).toContain('mutation-executor.ts');
    const found = files.flatMap((f) => violations(readFileSync(join(SRC, f), 'utf8')).map((v) => `${f}: ${v}`));
    expect(found).toEqual([]);
  });
});
