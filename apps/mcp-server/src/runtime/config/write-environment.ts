import type { EntriesBounds, WriteCapabilityName } from './parse-write-capabilities.js';

/**
 * One appliance's write settings as given (null when unset): the PFSENSE_WRITE_* variables without an inventory, an
 * inventory entry's write_* fields with one (load-inventory.ts).
 */
export interface WriteEnvironment {
  readonly dir: string | null;
  readonly anchorDir: string | null;
  readonly apiKeyFile: string | null;
  /** PFSENSE_WRITE_CAPABILITIES: the write capabilities offered (default `alias_description`); absent = the default. */
  readonly capabilities?: readonly WriteCapabilityName[];
  /** PFSENSE_WRITE_MAX_PREFIX_V4/_V6 and PFSENSE_WRITE_PROTECTED_NETWORKS; absent = the defaults. */
  readonly entriesBounds?: EntriesBounds;
  /** The exchange folder shared with the signing machine (docs/DESIGN.md §6); absent or null: none. */
  readonly exchangeDir?: string | null;
  /**
   * The inventory appliance these are the write_* fields of (set by writeConfigOf); absent or null: the
   * PFSENSE_WRITE_* variables. What the runtime's rules name them by (write-setting-names.ts).
   */
  readonly appliance?: string | null;
}
