import { isGranted, isImplemented } from '@pfsense-mcp/policy';
import type { Profile } from '@pfsense-mcp/policy';
import { ALIAS_ENTRIES_TOOL_NAME, WRITE_TOOL_NAME } from '../../tools/write-tool-name.js';
import { CAPABILITY_OF_NAME, DEFAULT_WRITE_CAPABILITIES, WRITE_CAPABILITY_NAMES } from '../config/parse-write-capabilities.js';
import type { WriteCapabilityName } from '../config/parse-write-capabilities.js';
import type { WriteEnvironment } from '../config/load-config.js';
import { isAliasEntriesPatchAllowListed } from './evaluate-write-gates.js';
import type { StaticWriteGates } from './evaluate-write-gates.js';
import type { WriteCapabilityFact } from '../../tools/register-info-tool.js';

/**
 * One write capability's static gates, as --check-config prints them and pfsense_mcp_info reports them (with
 * whether its tool is registered now). Light on purpose: the write path's least-privilege reads are checked by
 * --check-config (run-check-config.ts) and listed in docs/pfrest-privileges.md.
 */
export interface WriteCapabilityGates extends Omit<WriteCapabilityFact, 'name' | 'runtimeEnabled'> {
  readonly name: WriteCapabilityName;
  /** Named, implemented, granted, allow-listed, and kept by PFSENSE_ALLOWED_TOOLS / PFSENSE_TOOLSETS. */
  readonly offered: boolean;
}

/** Every write capability of this build, in registration order, with its static gates. */
export function writeCapabilityGatesOf(
  profile: Profile,
  env: WriteEnvironment | undefined,
  gates: StaticWriteGates,
): readonly WriteCapabilityGates[] {
  const named = env?.capabilities ?? DEFAULT_WRITE_CAPABILITIES;
  return Object.freeze(
    WRITE_CAPABILITY_NAMES.map((name) => {
      const capability = CAPABILITY_OF_NAME[name];
      const entries = name === 'alias_entries';
      return Object.freeze({
        name,
        capability,
        tool: entries ? ALIAS_ENTRIES_TOOL_NAME : WRITE_TOOL_NAME,
        enabled: named.includes(name),
        implemented: isImplemented(capability),
        granted: isGranted(profile, capability),
        allowListed: entries ? isAliasEntriesPatchAllowListed() : gates.allowListed,
        // A failed write-path gate (not granted, not allow-listed, a fleet inventory) offers no write tool at all.
        offered: gates.failure === null && (entries ? gates.entriesSelected : gates.selected),
      });
    }),
  );
}

/**
 * The gates pfsense_mcp_info reports for a fleet: a capability counts as enabled (offered, …) when any write
 * appliance's runtime has it (each appliance's own gates are on its `--check-config` line).
 */
export function mergedCapabilityGates(perAppliance: readonly (readonly WriteCapabilityGates[])[]): readonly WriteCapabilityGates[] {
  const [first, ...rest] = perAppliance;
  if (first === undefined) return Object.freeze([]);
  return Object.freeze(
    first.map((gates, i) =>
      Object.freeze({
        ...gates,
        enabled: gates.enabled || rest.some((r) => r[i]?.enabled === true),
        granted: gates.granted || rest.some((r) => r[i]?.granted === true),
        allowListed: gates.allowListed || rest.some((r) => r[i]?.allowListed === true),
        offered: gates.offered || rest.some((r) => r[i]?.offered === true),
      }),
    ),
  );
}
