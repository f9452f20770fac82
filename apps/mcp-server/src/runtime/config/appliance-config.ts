import type { WriteEnvironment } from './write-environment.js';

/** One appliance the server reads: from PFSENSE_INVENTORY_FILE, or the single-appliance variables as `default`. */
export interface ApplianceConfig {
  /** A short safe token (APPLIANCE_NAME), unique in the inventory: what the tools' `appliance` argument names. */
  readonly name: string;
  /** The normalized origin (parse-base-url.ts). */
  readonly url: string;
  readonly apiKeyFile: string;
  readonly caFile: string | null;
  readonly allowHttpLoopback: boolean;
  /** How long a read waits for this appliance's answer (the inventory's response_timeout_ms); null: the transport's default. */
  readonly responseTimeoutMs?: number | null;
  /** The inventory entry's write_* fields when it has write_dir; null or absent: no write runtime for this appliance. */
  readonly write?: WriteEnvironment | null;
}

/** The name the single-appliance variables (PFSENSE_URL, PFSENSE_API_KEY_FILE, …) give their one appliance. */
export const DEFAULT_APPLIANCE_NAME = 'default';

/**
 * An appliance name: lower-case letters, digits, `_` and `-`, at most 32, starting with a letter or digit — safe
 * to echo in errors and logs, and never `*` (the fleet-wide argument).
 */
export const APPLIANCE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** One process serves at most this many appliances (docs/DESIGN.md §8: where one process stops being enough). */
export const MAX_APPLIANCES = 128;
