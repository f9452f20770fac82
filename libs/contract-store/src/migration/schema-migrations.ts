import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely';
import { SchemaVersionError } from '../store/contract-store-error.js';
import { EXPECTED_CONSUMPTION_STORE_SCHEMA, EXPECTED_CONTRACT_STORE_SCHEMA } from './expected-store-schemas.js';
import type { SchemaObject } from './schema-object.js';

/** A named, ordered list of migrations (the in-code provider of kysely's Migrator). */
export type MigrationSet = readonly (readonly [name: string, migration: Migration])[];

/** Migrations use only the schema builder, so the database type carries no table types. */
type SchemaDb = Kysely<Record<string, Record<string, unknown>>>;

/** STRICT tables: SQLite enforces the declared column types exactly (no type affinity surprises). */
const strict = sql`strict`;

/**
 * Contract-store schema, version 1. Every authenticated row carries a `mac` BLOB; `record`/`body`
 * hold the exact canonical bytes the MAC covers, so verification never re-serializes.
 */
export const CONTRACT_STORE_MIGRATIONS: MigrationSet = Object.freeze([
  [
    '0001_contract_store_v1',
    {
      async up(db: SchemaDb): Promise<void> {
        await db.schema
          .createTable('store_meta')
          .addColumn('id', 'integer', (c) =>
            c
              .primaryKey()
              .notNull()
              .check(sql`id = 1`),
          )
          .addColumn('store_id', 'text', (c) => c.notNull())
          .addColumn('schema_version', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'integer', (c) => c.notNull())
          .addColumn('mac', 'blob', (c) => c.notNull())
          .modifyEnd(strict)
          .execute();
        await db.schema
          .createTable('contracts')
          .addColumn('contract_id', 'text', (c) => c.primaryKey().notNull())
          .addColumn('operation_id', 'text', (c) => c.notNull())
          .addColumn('authorization_id', 'text', (c) => c.notNull().unique())
          .addColumn('target_identity_digest', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('state_version', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'integer', (c) => c.notNull())
          .addColumn('terminal_at', 'integer')
          .addColumn('record', 'blob', (c) => c.notNull())
          .addColumn('mac', 'blob', (c) => c.notNull())
          .modifyEnd(strict)
          .execute();
        await db.schema.createIndex('contracts_by_state').on('contracts').columns(['state', 'expires_at']).execute();
        await db.schema.createIndex('contracts_by_target').on('contracts').columns(['target_identity_digest', 'state']).execute();
        await db.schema.createIndex('contracts_by_operation').on('contracts').columns(['operation_id']).execute();
        await db.schema.createIndex('contracts_by_terminal_at').on('contracts').columns(['terminal_at']).execute();
        await db.schema
          .createTable('protected_artifacts')
          .addColumn('contract_id', 'text', (c) => c.notNull().references('contracts.contract_id').onDelete('cascade'))
          .addColumn('purpose', 'text', (c) => c.notNull())
          .addColumn('envelope', 'blob', (c) => c.notNull())
          .addPrimaryKeyConstraint('protected_artifacts_pk', ['contract_id', 'purpose'])
          .modifyEnd(strict)
          .execute();
        await db.schema
          .createTable('audit_events')
          .addColumn('sequence', 'integer', (c) => c.primaryKey().notNull())
          .addColumn('contract_id', 'text', (c) => c.notNull())
          .addColumn('body', 'blob', (c) => c.notNull())
          .addColumn('mac', 'blob', (c) => c.notNull())
          .modifyEnd(strict)
          .execute();
        await db.schema.createIndex('audit_by_contract').on('audit_events').columns(['contract_id', 'sequence']).execute();
        await db.schema
          .createTable('target_reservations')
          .addColumn('target_identity_digest', 'text', (c) => c.primaryKey().notNull())
          .addColumn('contract_id', 'text', (c) => c.notNull().unique().references('contracts.contract_id'))
          .addColumn('acquired_at', 'integer', (c) => c.notNull())
          .addColumn('mac', 'blob', (c) => c.notNull())
          .modifyEnd(strict)
          .execute();
        await db.schema
          .createTable('rate_windows')
          .addColumn('scope', 'text', (c) => c.primaryKey().notNull())
          .addColumn('state', 'blob', (c) => c.notNull())
          .addColumn('mac', 'blob', (c) => c.notNull())
          .modifyEnd(strict)
          .execute();
      },
    },
  ],
]);

/** Authorization-consumption store schema, version 1 (its own file). */
export const CONSUMPTION_STORE_MIGRATIONS: MigrationSet = Object.freeze([
  [
    '0001_consumption_store_chained_v1',
    {
      async up(db: SchemaDb): Promise<void> {
        await db.schema
          .createTable('consumption_meta')
          .addColumn('id', 'integer', (c) =>
            c
              .primaryKey()
              .notNull()
              .check(sql`id = 1`),
          )
          .addColumn('store_id', 'text', (c) => c.notNull())
          .addColumn('schema_version', 'integer', (c) => c.notNull())
          .addColumn('head_sequence', 'integer', (c) => c.notNull())
          .addColumn('head_mac', 'blob', (c) => c.notNull())
          .addColumn('mac', 'blob', (c) => c.notNull())
          .modifyEnd(strict)
          .execute();
        await db.schema
          .createTable('consumed_authorizations')
          .addColumn('authorization_id', 'text', (c) => c.primaryKey().notNull())
          .addColumn('sequence', 'integer', (c) => c.notNull().unique())
          .addColumn('consumed_at', 'integer', (c) => c.notNull())
          .addColumn('mac', 'blob', (c) => c.notNull())
          .modifyEnd(strict)
          .execute();
      },
    },
  ],
]);

function providerOf(set: MigrationSet): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(set.map(([name, migration]) => [name, migration]));
    },
  };
}

/** Runs kysely's Migrator up to the latest migration of `set` on its own connection to `path`. */
export async function runMigrations(path: string, set: MigrationSet): Promise<void> {
  const kdb = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: new SqliteDialect({ database: new Database(path, { fileMustExist: path !== ':memory:' }) }),
  });
  try {
    const migrator = new Migrator({ db: kdb, provider: providerOf(set) });
    const { error } = await migrator.migrateToLatest();
    if (error !== undefined) {
      throw new SchemaVersionError('SCHEMA_MISMATCH', 'schema migration failed');
    }
  } finally {
    await kdb.destroy();
  }
}

/** Every schema object (tables, indexes, their exact SQL) — what an open compares with the expected one. */
export function readSchemaObjects(db: Database.Database): readonly SchemaObject[] {
  return db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all() as SchemaObject[];
}

const expectedCache = new Map<MigrationSet, Promise<string>>();

/**
 * The schema a fresh database has after all migrations of `set`: committed for the two product sets
 * (expected-store-schemas.ts, drift-tested), migrated once per process in memory for any other set.
 */
export function expectedSchemaOf(set: MigrationSet): Promise<string> {
  let cached = expectedCache.get(set);
  if (cached === undefined) {
    const committed =
      set === CONTRACT_STORE_MIGRATIONS
        ? EXPECTED_CONTRACT_STORE_SCHEMA
        : set === CONSUMPTION_STORE_MIGRATIONS
          ? EXPECTED_CONSUMPTION_STORE_SCHEMA
          : null;
    cached = committed !== null ? Promise.resolve(JSON.stringify(committed)) : migratedSchemaOf(set);
    expectedCache.set(set, cached);
  }
  return cached;
}

/** Migrates an in-memory database through `set` and reads its structure (the drift test's reference too). */
export async function migratedSchemaOf(set: MigrationSet): Promise<string> {
  const memory = new Database(':memory:');
  const kdb = new Kysely<Record<string, Record<string, unknown>>>({ dialect: new SqliteDialect({ database: memory }) });
  try {
    const { error } = await new Migrator({ db: kdb, provider: providerOf(set) }).migrateToLatest();
    if (error !== undefined) throw new SchemaVersionError('SCHEMA_MISMATCH', 'reference schema migration failed');
    return JSON.stringify(readSchemaObjects(memory));
  } finally {
    await kdb.destroy();
  }
}

/** Names of executed migrations recorded in the database, or null when kysely's table is absent. */
export function executedMigrations(db: Database.Database): readonly string[] | null {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
  if (table === undefined) return null;
  return (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name);
}

/**
 * Fail-closed schema gate. A database with no objects is migrated (first open). Otherwise the recorded
 * migrations must be exactly the known list: an unknown name is UNKNOWN_SCHEMA, a strict prefix is
 * LEGACY_SCHEMA unless `migrate` is set (explicit migration), and the resulting structure must equal the
 * reference structure byte for byte (column types, nullability, keys, indexes).
 * Returns true when the database was freshly initialized.
 */
export async function prepareSchema(
  db: Database.Database,
  path: string,
  set: MigrationSet,
  options: { readonly migrate: boolean },
): Promise<boolean> {
  const objects = readSchemaObjects(db);
  let fresh = false;
  if (objects.length === 0) {
    await runMigrations(path, set);
    fresh = true;
  } else {
    const executed = executedMigrations(db);
    if (executed === null) throw new SchemaVersionError('UNKNOWN_SCHEMA', 'database has no recognizable schema version');
    const known = set.map(([name]) => name);
    for (const name of executed) {
      if (!known.includes(name)) throw new SchemaVersionError('UNKNOWN_SCHEMA', 'database was written by an unknown schema version');
    }
    const isPrefix = executed.every((name, i) => known[i] === name);
    if (!isPrefix) throw new SchemaVersionError('UNKNOWN_SCHEMA', 'database migration history is not a prefix of the known history');
    if (executed.length < known.length) {
      if (!options.migrate) throw new SchemaVersionError('LEGACY_SCHEMA', 'database schema is older than this build; migrate explicitly');
      await runMigrations(path, set);
    }
  }
  const actual = JSON.stringify(readSchemaObjects(db));
  if (actual !== (await expectedSchemaOf(set))) {
    throw new SchemaVersionError('SCHEMA_MISMATCH', 'database structure differs from the expected schema');
  }
  return fresh;
}
