import type { ServerConfig } from '../runtime/config/load-config.js';
import type { WriteEnvironment } from '../runtime/config/write-environment.js';

/** What every admin command gets from the program: the environment and the wall clock (UTC ms). */
export interface AdminContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
  /** `--appliance NAME` (select-appliance.ts): the inventory appliance the command acts on; absent with `--dir`. */
  readonly appliance?: string;
  /**
   * With `--appliance`: that appliance's configuration alone (writeConfigOf), whose write settings the command
   * uses instead of the PFSENSE_WRITE_* variables (adminWriteSettings).
   */
  readonly config?: ServerConfig;
}

/**
 * The write settings an admin command acts with: the selected appliance's (its inventory entry's write_* fields),
 * or, without `--appliance`, none — the command then reads the PFSENSE_WRITE_* variables it needs itself.
 */
export function adminWriteSettings(ctx: AdminContext): WriteEnvironment | null {
  return ctx.config?.write ?? null;
}
