import type { SchemaObject } from './schema-object.js';

// The structure (sqlite_master rows, ordered by type and name) a database has after all migrations of each
// set — what every open compares a store with. Committed instead of migrating an in-memory database at each
// process start (that cost every cold start two kysely runs); test/expected-store-schemas.test.ts migrates a
// fresh database and fails on any drift, so a new migration must update these in the same change.

export const EXPECTED_CONTRACT_STORE_SCHEMA: readonly SchemaObject[] = Object.freeze([
  {
    type: 'index',
    name: 'audit_by_contract',
    tbl_name: 'audit_events',
    sql: 'CREATE INDEX "audit_by_contract" on "audit_events" ("contract_id", "sequence")',
  },
  {
    type: 'index',
    name: 'contracts_by_operation',
    tbl_name: 'contracts',
    sql: 'CREATE INDEX "contracts_by_operation" on "contracts" ("operation_id")',
  },
  {
    type: 'index',
    name: 'contracts_by_state',
    tbl_name: 'contracts',
    sql: 'CREATE INDEX "contracts_by_state" on "contracts" ("state", "expires_at")',
  },
  {
    type: 'index',
    name: 'contracts_by_target',
    tbl_name: 'contracts',
    sql: 'CREATE INDEX "contracts_by_target" on "contracts" ("target_identity_digest", "state")',
  },
  {
    type: 'index',
    name: 'contracts_by_terminal_at',
    tbl_name: 'contracts',
    sql: 'CREATE INDEX "contracts_by_terminal_at" on "contracts" ("terminal_at")',
  },
  {
    type: 'table',
    name: 'audit_events',
    tbl_name: 'audit_events',
    sql: 'CREATE TABLE "audit_events" ("sequence" integer not null primary key, "contract_id" text not null, "body" blob not null, "mac" blob not null) strict',
  },
  {
    type: 'table',
    name: 'contracts',
    tbl_name: 'contracts',
    sql: 'CREATE TABLE "contracts" ("contract_id" text not null primary key, "operation_id" text not null, "authorization_id" text not null unique, "target_identity_digest" text not null, "state" text not null, "state_version" integer not null, "expires_at" integer not null, "terminal_at" integer, "record" blob not null, "mac" blob not null) strict',
  },
  {
    type: 'table',
    name: 'kysely_migration',
    tbl_name: 'kysely_migration',
    sql: 'CREATE TABLE "kysely_migration" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null)',
  },
  {
    type: 'table',
    name: 'kysely_migration_lock',
    tbl_name: 'kysely_migration_lock',
    sql: 'CREATE TABLE "kysely_migration_lock" ("id" varchar(255) not null primary key, "is_locked" integer default 0 not null)',
  },
  {
    type: 'table',
    name: 'protected_artifacts',
    tbl_name: 'protected_artifacts',
    sql: 'CREATE TABLE "protected_artifacts" ("contract_id" text not null references "contracts" ("contract_id") on delete cascade, "purpose" text not null, "envelope" blob not null, constraint "protected_artifacts_pk" primary key ("contract_id", "purpose")) strict',
  },
  {
    type: 'table',
    name: 'rate_windows',
    tbl_name: 'rate_windows',
    sql: 'CREATE TABLE "rate_windows" ("scope" text not null primary key, "state" blob not null, "mac" blob not null) strict',
  },
  {
    type: 'table',
    name: 'store_meta',
    tbl_name: 'store_meta',
    sql: 'CREATE TABLE "store_meta" ("id" integer not null primary key check (id = 1), "store_id" text not null, "schema_version" integer not null, "created_at" integer not null, "mac" blob not null) strict',
  },
  {
    type: 'table',
    name: 'target_reservations',
    tbl_name: 'target_reservations',
    sql: 'CREATE TABLE "target_reservations" ("target_identity_digest" text not null primary key, "contract_id" text not null unique references "contracts" ("contract_id"), "acquired_at" integer not null, "mac" blob not null) strict',
  },
]);

export const EXPECTED_CONSUMPTION_STORE_SCHEMA: readonly SchemaObject[] = Object.freeze([
  {
    type: 'table',
    name: 'consumed_authorizations',
    tbl_name: 'consumed_authorizations',
    sql: 'CREATE TABLE "consumed_authorizations" ("authorization_id" text not null primary key, "sequence" integer not null unique, "consumed_at" integer not null, "mac" blob not null) strict',
  },
  {
    type: 'table',
    name: 'consumption_meta',
    tbl_name: 'consumption_meta',
    sql: 'CREATE TABLE "consumption_meta" ("id" integer not null primary key check (id = 1), "store_id" text not null, "schema_version" integer not null, "head_sequence" integer not null, "head_mac" blob not null, "mac" blob not null) strict',
  },
  {
    type: 'table',
    name: 'kysely_migration',
    tbl_name: 'kysely_migration',
    sql: 'CREATE TABLE "kysely_migration" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null)',
  },
  {
    type: 'table',
    name: 'kysely_migration_lock',
    tbl_name: 'kysely_migration_lock',
    sql: 'CREATE TABLE "kysely_migration_lock" ("id" varchar(255) not null primary key, "is_locked" integer default 0 not null)',
  },
]);
