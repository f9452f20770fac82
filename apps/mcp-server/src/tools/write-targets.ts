import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { WriteFacade } from '@pfsense-mcp/coordinator';
import { APPLIANCE_ARGUMENT, resolveAppliances, withApplianceArgument } from './appliance-argument.js';
import type { WriteToolPaths } from './register-write-tool.js';
import { ToolCallError, ToolErrorCode } from './tool-error-code.js';
import type { AwaitAnswer } from './wait-for-answer.js';

/** One appliance's write runtime as its tools hold it: the facade, the paths next_step names, the answer waiter. */
export interface WriteTarget {
  readonly facade: WriteFacade;
  readonly paths: WriteToolPaths;
  readonly awaitAnswer?: AwaitAnswer | undefined;
}

/**
 * The write runtimes the write tools reach. Without an inventory: the one runtime, and the tools' arguments are
 * exactly the single-appliance ones. With one (`appliances`: every inventory name, in order), each tool takes
 * `appliance`, checked as the READ tools check it, and only the named appliance's runtime is ever used — a
 * call for one appliance cannot reach another's store, keys or binding (docs/DESIGN.md §8).
 */
export interface WriteTargets {
  /** Every inventory name (null without an inventory): what `appliance` may name. */
  readonly appliances: readonly string[] | null;
  /** The runtime of each appliance whose writes are enabled; without an inventory, the one under its name. */
  readonly byAppliance: ReadonlyMap<string, WriteTarget>;
}

/** The tool's input schema, with `appliance` (a plain string) when the server has an inventory. */
export function writeInputSchema<I, O>(schema: StandardSchemaWithJSON<I, O>, targets: WriteTargets): StandardSchemaWithJSON<I, O> {
  return targets.appliances === null ? schema : withApplianceArgument(schema, false);
}

/**
 * The runtime a call reaches and its arguments without `appliance`. With an inventory: `appliance` is required
 * when it holds more than one appliance, and a name whose writes are not enabled is an input error (never
 * another appliance's runtime).
 */
export function routeWriteCall<T extends object>(targets: WriteTargets, input: T): { target: WriteTarget; input: T } {
  if (targets.appliances === null) {
    const only = [...targets.byAppliance.values()][0];
    if (only === undefined) throw new ToolCallError(ToolErrorCode.INTERNAL_ERROR);
    return { target: only, input };
  }
  const { [APPLIANCE_ARGUMENT]: argument, ...rest } = input as Record<string, unknown>;
  const chosen = resolveAppliances(argument, targets.appliances, false);
  const name = chosen.fleet ? '' : chosen.name;
  const target = targets.byAppliance.get(name);
  if (target === undefined) {
    throw new ToolCallError(ToolErrorCode.INVALID_INPUT, {
      detail: `${APPLIANCE_ARGUMENT}: writes are not enabled on ${name} (pfsense_list_appliances says which appliances take writes)`,
    });
  }
  return { target, input: rest as T };
}

/** The targets of a server without an inventory: its one write runtime. */
export function oneWriteTarget(facade: WriteFacade, paths: WriteToolPaths, awaitAnswer?: AwaitAnswer): WriteTargets {
  return Object.freeze({ appliances: null, byAppliance: new Map([['', Object.freeze({ facade, paths, awaitAnswer })]]) });
}
