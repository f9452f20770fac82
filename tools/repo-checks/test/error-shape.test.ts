// The one error shape over the real tree, and the rule itself on fixed texts (so the tree check can fail).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNCODED_ERROR_EXEMPTIONS, findUncodedErrors, listRepositoryFiles } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

describe('every error class extends CodedError', () => {
  it('finds a plain `extends Error` in product sources, and only there', () => {
    const plain = 'export class BadError extends Error {\n  constructor() {\n    super("x");\n  }\n}\n';
    expect(findUncodedErrors('libs/policy/src/bad-error.ts', plain)).toEqual([
      { file: 'libs/policy/src/bad-error.ts', className: 'BadError' },
    ]);
    expect(findUncodedErrors('apps/signer-cli/src/x.ts', 'class A extends Error {}\nclass B extends Error{}')).toHaveLength(2);
    expect(findUncodedErrors('tools/pfsense-sim/src/x.ts', 'class SimError extends Error {}')).toHaveLength(1);
    // A lib base or CodedError itself is the shape; tests and test-support are not product sources.
    expect(findUncodedErrors('libs/policy/src/ok.ts', 'export class OkError extends CodedError<"X"> {}')).toEqual([]);
    expect(findUncodedErrors('libs/policy/src/ok.ts', 'export class Sub extends ErrorBase {}')).toEqual([]);
    expect(findUncodedErrors('libs/policy/test/t.test.ts', 'class T extends Error {}')).toEqual([]);
    expect(findUncodedErrors('tools/test-support/src/m.ts', 'class M extends Error {}')).toEqual([]);
  });

  it('no product source declares an error class outside the shape; each exemption is a real file', () => {
    const files = listRepositoryFiles(WORKSPACE_ROOT).filter((f) => f.endsWith('.ts'));
    const found = files.flatMap((f) => findUncodedErrors(f, readFileSync(join(WORKSPACE_ROOT, f), 'utf8')));
    expect(found).toEqual([]);
    for (const f of UNCODED_ERROR_EXEMPTIONS) expect(existsSync(join(WORKSPACE_ROOT, f)), f).toBe(true);
  });
});
