import { DEFAULT_APPLIANCE_NAME, type ApplianceConfig } from './appliance-config.js';
import type { ServerConfig } from './load-config.js';

/** The configuration's appliances: its inventory, or (a configuration without one) its one appliance as `default`. */
export function appliancesOf(config: ServerConfig): readonly ApplianceConfig[] {
  if (config.appliances !== undefined) return config.appliances;
  return Object.freeze([
    Object.freeze({
      name: DEFAULT_APPLIANCE_NAME,
      url: config.url,
      apiKeyFile: config.apiKeyFile,
      caFile: config.caFile,
      allowHttpLoopback: config.allowHttpLoopback,
    }),
  ]);
}

/** True when the appliances come from PFSENSE_INVENTORY_FILE (then the tools take `appliance`, and the fleet tools exist). */
export function usesInventory(config: ServerConfig): boolean {
  return (config.inventoryFile ?? null) !== null;
}
