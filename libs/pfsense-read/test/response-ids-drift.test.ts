// The closed list of pfrest response ids in src/ is exactly the vendored list derived from pfrest's source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PFREST_RESPONSE_IDS } from '../src/index.js';
import { VENDORED_PFREST } from './vendored-pfrest.js';

interface ResponseIdsJson {
  readonly source: { readonly tag: string; readonly commit: string };
  readonly response_ids: readonly string[];
}

const vendored = JSON.parse(readFileSync(join(VENDORED_PFREST, 'response-ids.json'), 'utf8')) as ResponseIdsJson;

describe('pfrest response ids', () => {
  it('equal the vendored list from pfrest v2.10.0', () => {
    expect(vendored.source.tag).toBe('v2.10.0');
    expect([...PFREST_RESPONSE_IDS].sort()).toEqual([...vendored.response_ids].sort());
  });

  it('are sorted, unique upper-case tokens and include the ones the read path meets', () => {
    const ids = vendored.response_ids;
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z][A-Z0-9_]{0,127}$/);
    for (const id of [
      'SUCCESS',
      'AUTH_AUTHENTICATION_FAILED',
      'AUTH_AUTHORIZATION_FAILED',
      'MODEL_OBJECT_NOT_FOUND',
      'ENDPOINT_METHOD_NOT_ALLOWED',
    ]) {
      expect(ids).toContain(id);
    }
  });
});
