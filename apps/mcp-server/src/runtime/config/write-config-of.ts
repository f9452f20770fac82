import type { ApplianceConfig } from './appliance-config.js';
import { appliancesOf, usesInventory } from './appliances-of.js';
import type { ServerConfig } from './load-config.js';

/** One appliance whose write runtime the server builds, and the configuration that runtime is built from. */
export interface WriteAppliance {
  readonly name: string;
  /** The configuration as if the server served this appliance alone (writeConfigOf). */
  readonly config: ServerConfig;
}

/**
 * The configuration of one inventory appliance's write runtime (docs/DESIGN.md §8): the server's profile,
 * allow-list and toolsets, with the appliance's own URL, key, CA and write settings, as a configuration of one
 * appliance. The runtime built from it sees no other appliance: its binding, store, keys, anchor and exchange
 * are this appliance's alone.
 */
export function writeConfigOf(config: ServerConfig, appliance: ApplianceConfig): ServerConfig {
  return Object.freeze({
    ...config,
    appliances: Object.freeze([appliance]),
    inventoryFile: null,
    url: appliance.url,
    apiKeyFile: appliance.apiKeyFile,
    caFile: appliance.caFile,
    allowHttpLoopback: appliance.allowHttpLoopback,
    // Named: the write runtime's rules then say `write_dir of appliance NAME`, not PFSENSE_WRITE_DIR (write-setting-names.ts).
    write: Object.freeze({ ...(appliance.write ?? { dir: null, anchorDir: null, apiKeyFile: null }), appliance: appliance.name }),
  });
}

/**
 * The appliances that get a write runtime: without an inventory the one appliance with the PFSENSE_WRITE_*
 * variables (the configuration as it is); with one, each entry that has write_dir, in inventory order.
 */
export function writeAppliancesOf(config: ServerConfig): readonly WriteAppliance[] {
  const appliances = appliancesOf(config);
  if (!usesInventory(config)) return Object.freeze([Object.freeze({ name: appliances[0]?.name ?? '', config })]);
  return Object.freeze(
    appliances.filter((a) => (a.write ?? null) !== null).map((a) => Object.freeze({ name: a.name, config: writeConfigOf(config, a) })),
  );
}
