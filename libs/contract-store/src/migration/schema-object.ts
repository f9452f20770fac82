// One row of sqlite_master as the store compares it: what a migrated database holds and what
// expected-store-schemas.ts commits. Its own file so that the committed reference and the migrations that read a
// database's structure both depend on it instead of on each other.
export interface SchemaObject {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}
