import type { ApplianceConfig } from './appliance-config.js';
import { INVENTORY_VARIABLE } from './load-inventory.js';

/** The variables one appliance's settings replace: the single-appliance variables, the write ones included. */
const REPLACED = [
  INVENTORY_VARIABLE,
  'PFSENSE_URL',
  'PFSENSE_API_KEY_FILE',
  'PFSENSE_CA_FILE',
  'PFSENSE_ALLOW_HTTP_LOOPBACK',
  'PFSENSE_WRITE_DIR',
  'PFSENSE_WRITE_ANCHOR_DIR',
  'PFSENSE_WRITE_EXCHANGE_DIR',
  'PFSENSE_WRITE_API_KEY_FILE',
  'PFSENSE_WRITE_CAPABILITIES',
  'PFSENSE_WRITE_PROTECTED_NETWORKS',
  'PFSENSE_WRITE_MAX_PREFIX_V4',
  'PFSENSE_WRITE_MAX_PREFIX_V6',
] as const;

/**
 * `env` as if the server had been started for one inventory appliance alone: PFSENSE_INVENTORY_FILE removed, the
 * entry's settings as the single-appliance variables (its write_* fields as PFSENSE_WRITE_*). What `pfsense-mcp
 * admin … --appliance NAME` runs with, so every command and the write runtime it builds see exactly the
 * appliance's own directories and binding, never another's (docs/DESIGN.md §8).
 */
export function singleApplianceEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  appliance: ApplianceConfig,
): Readonly<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = { ...env };
  for (const k of REPLACED) delete out[k];
  out['PFSENSE_URL'] = appliance.url;
  out['PFSENSE_API_KEY_FILE'] = appliance.apiKeyFile;
  if (appliance.caFile !== null) out['PFSENSE_CA_FILE'] = appliance.caFile;
  if (appliance.allowHttpLoopback) out['PFSENSE_ALLOW_HTTP_LOOPBACK'] = 'true';
  const write = appliance.write ?? null;
  if (write !== null) {
    if (write.dir !== null) out['PFSENSE_WRITE_DIR'] = write.dir;
    if (write.anchorDir !== null) out['PFSENSE_WRITE_ANCHOR_DIR'] = write.anchorDir;
    if ((write.exchangeDir ?? null) !== null) out['PFSENSE_WRITE_EXCHANGE_DIR'] = write.exchangeDir ?? undefined;
    if (write.apiKeyFile !== null) out['PFSENSE_WRITE_API_KEY_FILE'] = write.apiKeyFile;
    if (write.capabilities !== undefined) out['PFSENSE_WRITE_CAPABILITIES'] = write.capabilities.join(',');
    const networks = write.entriesBounds?.protectedNetworks ?? [];
    if (networks.length > 0) out['PFSENSE_WRITE_PROTECTED_NETWORKS'] = networks.join(',');
  }
  return Object.freeze(out);
}
