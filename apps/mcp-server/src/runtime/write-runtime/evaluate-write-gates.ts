import { Capability, isGranted, isImplemented } from '@pfsense-mcp/policy';
import type { Profile } from '@pfsense-mcp/policy';
import { WriteEndpoints, isWriteEndpointSymbol } from '@pfsense-mcp/write-client';
import { ALIAS_ENTRIES_TOOL_NAME, WRITE_OPERATIONS_TOOL_NAME, WRITE_TOOL_NAME } from '../../tools/write-tool-name.js';
import { DEFAULT_WRITE_CAPABILITIES } from '../config/parse-write-capabilities.js';
import { toolsetOf } from '../config/toolsets.js';
import type { WriteEnvironment } from '../config/load-config.js';
import { WriteGate, WriteGateError } from './write-gate-error.js';

/** The gates decided without touching the write directory: implemented, granted, allow-listed, selected. */
export interface StaticWriteGates {
  readonly implemented: boolean;
  readonly granted: boolean;
  readonly allowListed: boolean;
  /** PFSENSE_ALLOWED_TOOLS is unset or names the write tool, and PFSENSE_TOOLSETS is unset or names its set
   * (`firewall`): either can remove the tool, never add it. */
  readonly selected: boolean;
  /** PFSENSE_ALLOWED_TOOLS is unset or names pfsense_get_write_operations (the same rule). */
  readonly operationsSelected: boolean;
  /**
   * The alias entries tool: PFSENSE_WRITE_CAPABILITIES names alias_entries, the profile grants ALIAS_ENTRIES_WRITE,
   * its PATCH is allow-listed, and the allow-list / toolsets keep it. The description tool (`selected`) likewise
   * needs alias_description named (the default).
   */
  readonly entriesSelected: boolean;
  /** The operator asked for the write: the profile grants it or PFSENSE_WRITE_DIR is set. */
  readonly requested: boolean;
  /** The first of granted / allow-listed that fails, or null. */
  readonly failure: WriteGateError | null;
}

/** The entries PATCH is in WriteEndpoints, a PATCH of /api/v2/firewall/alias, verified. */
export function isAliasEntriesPatchAllowListed(): boolean {
  if (!isWriteEndpointSymbol('FIREWALL_ALIAS_ENTRIES_PATCH')) return false;
  const endpoint = WriteEndpoints.FIREWALL_ALIAS_ENTRIES_PATCH;
  return endpoint.method === 'PATCH' && endpoint.path === '/api/v2/firewall/alias' && endpoint.verified;
}

/** The alias PATCH is in WriteEndpoints, as the one PATCH of /api/v2/firewall/alias, verified on an appliance. */
export function isAliasPatchAllowListed(): boolean {
  if (!isWriteEndpointSymbol('FIREWALL_ALIAS_PATCH')) return false;
  const endpoint = WriteEndpoints.FIREWALL_ALIAS_PATCH;
  return endpoint.method === 'PATCH' && endpoint.path === '/api/v2/firewall/alias' && endpoint.verified;
}

export function evaluateStaticWriteGates(
  profile: Profile,
  allowedTools: ReadonlySet<string> | null,
  env: WriteEnvironment | undefined,
  allowListed: () => boolean = isAliasPatchAllowListed,
  toolsets: ReadonlySet<string> | null = null,
): StaticWriteGates {
  const implemented = isImplemented(Capability.ALIAS_WRITE);
  const granted = isGranted(profile, Capability.ALIAS_WRITE);
  const listed = allowListed();
  const inToolsets = (name: string) => toolsets === null || toolsets.has(toolsetOf(name) ?? '');
  const enabled = env?.capabilities ?? DEFAULT_WRITE_CAPABILITIES;
  const selected =
    enabled.includes('alias_description') && (allowedTools === null || allowedTools.has(WRITE_TOOL_NAME)) && inToolsets(WRITE_TOOL_NAME);
  const entriesSelected =
    enabled.includes('alias_entries') &&
    isImplemented(Capability.ALIAS_ENTRIES_WRITE) &&
    isGranted(profile, Capability.ALIAS_ENTRIES_WRITE) &&
    isAliasEntriesPatchAllowListed() &&
    (allowedTools === null || allowedTools.has(ALIAS_ENTRIES_TOOL_NAME)) &&
    inToolsets(ALIAS_ENTRIES_TOOL_NAME);
  const operationsSelected =
    (allowedTools === null || allowedTools.has(WRITE_OPERATIONS_TOOL_NAME)) && inToolsets(WRITE_OPERATIONS_TOOL_NAME);
  const requested = granted || (env?.dir ?? null) !== null;
  let failure: WriteGateError | null = null;
  if (!implemented || !granted) {
    failure = new WriteGateError(
      WriteGate.GRANTED,
      'NOT_GRANTED',
      `the profile ${profile} does not grant ALIAS_WRITE (only PFSENSE_PROFILE=write_protected does)`,
    );
  } else if (!listed) {
    failure = new WriteGateError(WriteGate.ALLOW_LISTED, 'NOT_ALLOW_LISTED', "the alias PATCH is not in this build's WriteEndpoints");
  }
  // No gate for an inventory: the gates are evaluated for one appliance's configuration (writeAppliancesOf), never
  // for a whole inventory, whose own write settings are empty (the PFSENSE_WRITE_* variables are refused with one).
  return Object.freeze({ implemented, granted, allowListed: listed, selected, operationsSelected, entriesSelected, requested, failure });
}
