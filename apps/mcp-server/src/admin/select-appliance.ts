import { APPLIANCE_NAME } from '../runtime/config/appliance-config.js';
import { appliancesOf } from '../runtime/config/appliances-of.js';
import { ConfigError } from '../runtime/config/config-error.js';
import { KNOWN_TOOL_NAMES } from '../runtime/config/known-tool-names.js';
import { loadConfig } from '../runtime/config/load-config.js';
import type { ServerConfig } from '../runtime/config/load-config.js';
import { INVENTORY_VARIABLE } from '../runtime/config/load-inventory.js';
import { writeConfigOf } from '../runtime/config/write-config-of.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import type { AdminArgs, CommandSpec } from './parse-admin-args.js';

/**
 * `--appliance NAME` with PFSENSE_INVENTORY_FILE, wherever `--dir` works (docs/DESIGN.md §8): the command runs as
 * for that appliance alone — `--dir` is its write_dir, and its write settings are the configuration the server
 * builds that appliance's write runtime from (writeConfigOf, the one owner of "an inventory appliance alone") —
 * so a command can act on one appliance's store, keys, exchange folder and binding only. Without `--appliance`
 * the arguments and context are returned as given.
 */
export function selectAppliance(args: AdminArgs, ctx: AdminContext, spec: CommandSpec): { args: AdminArgs; ctx: AdminContext } {
  const name = args.values.get('--appliance');
  if (name === undefined) return { args, ctx };
  if (!(spec.values ?? []).includes('--dir')) throw AdminError.usage(`--appliance: not an option of "admin ${spec.name}"`);
  if (args.values.has('--dir')) throw AdminError.usage('--appliance: give --dir or --appliance, not both');
  // The entry names its exchange folder (write_exchange_dir): a second one on the command line is not guessed between.
  if (args.values.has('--exchange'))
    throw AdminError.usage("--appliance: the exchange folder is the entry's write_exchange_dir, not --exchange");
  const file = ctx.env[INVENTORY_VARIABLE];
  if (file === undefined || file === '') throw AdminError.usage(`--appliance: needs ${INVENTORY_VARIABLE} (the inventory naming it)`);
  if (!APPLIANCE_NAME.test(name)) throw AdminError.usage('--appliance: not an appliance name (a-z, 0-9, _ and -, at most 32)');
  let config: ServerConfig;
  try {
    config = loadConfig(ctx.env, KNOWN_TOOL_NAMES);
  } catch (error) {
    if (error instanceof ConfigError) throw new AdminError(`CONFIG_${error.code}`, error.message);
    throw error;
  }
  const appliances = appliancesOf(config);
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
    ctx: Object.freeze({ env: ctx.env, now: ctx.now, appliance: name, config: writeConfigOf(config, appliance) }),
  };
}
