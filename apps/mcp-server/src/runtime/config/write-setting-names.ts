import { INVENTORY_FIELD_OF_WRITE_VARIABLE } from './inventory-write-fields.js';
import type { WriteEnvironment } from './write-environment.js';

/** A single-appliance write variable, with a path inside the directory it names (`PFSENSE_WRITE_DIR/keys`). */
const VARIABLE = /PFSENSE_WRITE_[A-Z0-9_]+(?:\/[A-Za-z0-9._/-]+)?/g;

/**
 * The one owner of what a write setting is called where it was given (docs/DESIGN.md §8). The write runtime's
 * rules are written once, in the single-appliance names (PFSENSE_WRITE_DIR, `pfsense-mcp admin … --dir DIR`); for
 * an inventory appliance (its write settings carry its name, writeConfigOf) the same rule names the entry's fields
 * instead — `write_dir/keys of appliance a`, `admin … --appliance a` — so --check-config and the log line point at
 * the inventory, never at a variable the inventory refuses.
 */
export function inWriteSettingNames(rule: string, env: WriteEnvironment | null | undefined): string {
  const appliance = env?.appliance ?? null;
  if (appliance === null) return rule;
  return rule
    .replace(VARIABLE, (named) => {
      const slash = named.indexOf('/');
      const variable = slash === -1 ? named : named.slice(0, slash);
      const field = INVENTORY_FIELD_OF_WRITE_VARIABLE[variable] ?? null;
      return field === null ? named : `${field}${slash === -1 ? '' : named.slice(slash)} of appliance ${appliance}`;
    })
    .replaceAll('--dir DIR --exchange PATH', `--appliance ${appliance}`)
    .replaceAll('--dir DIR', `--appliance ${appliance}`);
}
