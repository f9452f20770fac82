// Drift test: the committed structures an open compares stores with are exactly what the migrations build.
import { describe, expect, it } from 'vitest';
import { EXPECTED_CONSUMPTION_STORE_SCHEMA, EXPECTED_CONTRACT_STORE_SCHEMA } from '../src/migration/expected-store-schemas.js';
import {
  CONSUMPTION_STORE_MIGRATIONS,
  CONTRACT_STORE_MIGRATIONS,
  expectedSchemaOf,
  migratedSchemaOf,
} from '../src/migration/schema-migrations.js';

describe('expected store schemas', () => {
  it.each([
    ['contract store', CONTRACT_STORE_MIGRATIONS, EXPECTED_CONTRACT_STORE_SCHEMA],
    ['consumption store', CONSUMPTION_STORE_MIGRATIONS, EXPECTED_CONSUMPTION_STORE_SCHEMA],
  ] as const)('the %s structure equals a fresh database migrated through every migration', async (_name, set, committed) => {
    const migrated = await migratedSchemaOf(set);
    expect(JSON.parse(migrated)).toEqual(committed);
    expect(await expectedSchemaOf(set)).toBe(migrated);
    expect(Object.isFrozen(committed)).toBe(true);
  });

  it('a migration set without a committed structure is migrated in memory', async () => {
    const partial = CONTRACT_STORE_MIGRATIONS.slice(0, 1);
    const expected = await expectedSchemaOf(partial);
    expect(expected).toBe(await migratedSchemaOf(partial));
    expect(JSON.parse(expected).length).toBeGreaterThan(0);
  });
});
