import { isGranted, type Capability, type Profile } from '@pfsense-mcp/policy';
import { READ_CATALOGUE, type ReadToolDefinition } from '@pfsense-mcp/pfsense-read';
import { INFO_TOOL_CAPABILITY, INFO_TOOL_NAME } from '../../tools/register-info-tool.js';
import { LIST_APPLIANCES_TOOL_NAME } from '../../tools/list-appliances-tool-name.js';
import { toolsetOf } from './toolsets.js';
import { ALIAS_ENTRIES_TOOL_NAME, WRITE_OPERATIONS_TOOL_NAME, WRITE_TOOL_NAME } from '../../tools/write-tool-name.js';

export interface ToolSelection {
  readonly readTools: readonly ReadToolDefinition[];
  readonly includeInfo: boolean;
  /** Every tool name that will be registered. */
  readonly names: ReadonlySet<string>;
}

/** Every tool name this build knows (what PFSENSE_ALLOWED_TOOLS may name), the write tool included. */
export function knownToolNames(catalogue: readonly ReadToolDefinition[] = READ_CATALOGUE): ReadonlySet<string> {
  return new Set([
    ...catalogue.map((t) => t.name),
    INFO_TOOL_NAME,
    LIST_APPLIANCES_TOOL_NAME,
    WRITE_TOOL_NAME,
    ALIAS_ENTRIES_TOOL_NAME,
    WRITE_OPERATIONS_TOOL_NAME,
  ]);
}

/**
 * The tools to register: those whose capability the profile grants, intersected with PFSENSE_ALLOWED_TOOLS and
 * with the tools of the PFSENSE_TOOLSETS sets when those are set. Both can only remove tools; a tool the profile
 * does not grant stays absent. pfsense_mcp_info is in no toolset: toolsets never remove it.
 */
export function selectTools(
  profile: Profile,
  allowedTools: ReadonlySet<string> | null,
  catalogue: readonly ReadToolDefinition[] = READ_CATALOGUE,
  toolsets: ReadonlySet<string> | null = null,
): ToolSelection {
  const allowed = (name: string) => allowedTools === null || allowedTools.has(name);
  const inToolsets = (name: string) => toolsets === null || toolsets.has(toolsetOf(name) ?? '');
  const readTools = Object.freeze(
    catalogue.filter((t) => isGranted(profile, t.capability as Capability) && allowed(t.name) && inToolsets(t.name)),
  );
  const includeInfo = isGranted(profile, INFO_TOOL_CAPABILITY as Capability) && allowed(INFO_TOOL_NAME);
  const names = new Set(readTools.map((t) => t.name));
  if (includeInfo) names.add(INFO_TOOL_NAME);
  return Object.freeze({ readTools, includeInfo, names });
}
