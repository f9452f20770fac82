/**
 * The store layout version that `store_meta.schema_version` records (docs/DESIGN.md §3) — distinct from a
 * contract record's `schema_version`. A store at an older version opens only through an explicit migration;
 * a store at a newer version is refused, never reinterpreted.
 *
 * 1: the rate row bound only the window state (MAC domain rate-window/v1).
 * 2: the rate row also binds the audit head sequence it was written at (rate-window/v2).
 */
export const STORE_SCHEMA_VERSION = 2 as const;

/** The oldest store version this release can migrate from. */
export const OLDEST_MIGRATABLE_STORE_VERSION = 1 as const;
