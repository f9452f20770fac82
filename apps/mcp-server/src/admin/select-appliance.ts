import { APPLIANCE_NAME } from '../runtime/config/appliance-config.js';
import { ConfigError } from '../runtime/config/config-error.js';
import { INVENTORY_VARIABLE, loadInventory } from '../runtime/config/load-inventory.js';
import { singleApplianceEnvironment } from '../runtime/config/single-appliance-environment.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import type { AdminArgs, CommandSpec } from './parse-admin-args.js';

/**
 * `--appliance NAME` with PFSENSE_INVENTORY_FILE, wherever `--dir` works (docs/DESIGN.md §8): the command runs as
 * for that appliance alone — `--dir` is its write_dir and the environment its entry's settings
 * (singleApplianceEnvironment) — so a command can act on one appliance's store, keys and binding only. Without
 * `--appliance` the arguments and environment are returned as given.
 */
export function selectAppliance(args: AdminArgs, ctx: AdminContext, spec: CommandSpec): { args: AdminArgs; ctx: AdminContext } {
  const name = args.values.get('--appliance');
  if (name === undefined) return { args, ctx };
  if (!(spec.values ?? []).includes('--dir')) throw AdminError.usage(`--appliance: not an option of "admin ${spec.name}"`);
  if (args.values.has('--dir')) throw AdminError.usage('--appliance: give --dir or --appliance, not both');
  const file = ctx.env[INVENTORY_VARIABLE];
  if (file === undefined || file === '') throw AdminError.usage(`--appliance: needs ${INVENTORY_VARIABLE} (the inventory naming it)`);
  if (!APPLIANCE_NAME.test(name)) throw AdminError.usage('--appliance: not an appliance name (a-z, 0-9, _ and -, at most 32)');
  let appliances;
  try {
    appliances = loadInventory(file);
  } catch (error) {
    if (error instanceof ConfigError) throw new AdminError(`CONFIG_${error.code}`, error.message);
    throw error;
  }
  const appliance = appliances.find((a) => a.name === name);
  if (appliance === undefined) {
    throw AdminError.usage(`--appliance: no appliance of that name (known: ${appliances.map((a) => a.name).join(', ')})`);
  }
  const dir = appliance.write?.dir ?? null;
  if (dir === null) throw new AdminError('NO_WRITE_DIR', `--appliance ${name}: its inventory entry has no write_dir`);
  const values = new Map(args.values);
  values.delete('--appliance');
  values.set('--dir', dir);
  return {
    args: Object.freeze({ values, flags: args.flags, positionals: args.positionals }),
    ctx: Object.freeze({ env: singleApplianceEnvironment(ctx.env, appliance), now: ctx.now, appliance: name }),
  };
}
