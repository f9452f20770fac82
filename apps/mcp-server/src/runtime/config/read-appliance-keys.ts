import { appliancesOf, usesInventory } from './appliances-of.js';
import { INVENTORY_VARIABLE } from './load-inventory.js';
import type { ServerConfig } from './load-config.js';
import { precheckCaFile } from './precheck-ca-file.js';
import { readApiKey } from './read-api-key.js';

/**
 * Every appliance's READ key by name, each file read under the owner-only rule, and each CA file checked, before
 * serving: a wrong file of any appliance stops startup (fail closed) instead of failing its first read. An error
 * names the appliance and the field (`PFSENSE_INVENTORY_FILE appliance 2 (fw-b): api_key_file …`), or the
 * single-appliance variable.
 */
export function readApplianceKeys(config: ServerConfig): ReadonlyMap<string, string> {
  const keys = new Map<string, string>();
  const inventory = usesInventory(config);
  appliancesOf(config).forEach((appliance, index) => {
    const label = (field: string) => `${INVENTORY_VARIABLE} appliance ${index + 1} (${appliance.name}): ${field}`;
    keys.set(appliance.name, inventory ? readApiKey(appliance.apiKeyFile, label('api_key_file')) : readApiKey(appliance.apiKeyFile));
    if (appliance.caFile !== null) {
      if (inventory) precheckCaFile(appliance.caFile, label('ca_file'));
      else precheckCaFile(appliance.caFile);
    }
  });
  return keys;
}
