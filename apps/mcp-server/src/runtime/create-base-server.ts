import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ArtifactCounts } from '@pfsense-mcp/coordinator';
import { Capability, isGranted, isImplemented, type Profile } from '@pfsense-mcp/policy';
import { INFO_TOOL_CAPABILITY, INFO_TOOL_NAME, registerInfoTool } from '../tools/register-info-tool.js';
import { SERVER_NAME, SERVER_VERSION } from './server-identity.js';
import { TOOLSETS } from './toolsets.js';

/** The server before its READ tools are attached: MCP identity, capabilities and pfsense_mcp_info. */
export interface BaseServer {
  readonly server: McpServer;
  readonly profile: Profile;
  readonly allowedTools: ReadonlySet<string> | null;
  readonly toolsets: ReadonlySet<string> | null;
  /** Names registered so far; attachReadTools adds the READ tools. */
  readonly names: Set<string>;
  /** Filled by attachReadTools (pfsense_mcp_info reports it; calls are answered only after attaching). */
  pfrestVersion: string;
  /** The write tools registered (a subset of `names`): attachWriteTool adds the one write tool. */
  readonly writeNames: Set<string>;
  /** ALIAS_WRITE's three facts; `runtimeEnabled` is set by attachWriteTool once all three gates hold. */
  readonly write: { readonly implemented: boolean; readonly granted: boolean; runtimeEnabled: boolean };
  /** Set by attachWriteTool: the inbox/outbox file counts pfsense_mcp_info reports (by name, nothing opened). */
  writeArtifacts: (() => ArtifactCounts) | null;
}

/** The counts now, or null without a write runtime or when the directories cannot be listed. */
function writeArtifactsNow(base: BaseServer): ArtifactCounts | null {
  if (base.writeArtifacts === null) return null;
  try {
    return base.writeArtifacts();
  } catch {
    return null;
  }
}

/**
 * Creates the McpServer with the tools capability and, when selected, pfsense_mcp_info. Needs neither the
 * READ catalogue nor the HTTP stack, so the server can answer `initialize` before those are loaded.
 */
export function createBaseServer(
  profile: Profile,
  allowedTools: ReadonlySet<string> | null,
  toolsets: ReadonlySet<string> | null = null,
): BaseServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'pfSense (read-only)' },
    {
      capabilities: { tools: {} },
      instructions:
        'Read-only tools for one pfSense firewall via its REST API. List tools take limit (1-1000, default 100) and offset; next_offset is set when more items may follow, and a result marked truncated: true continues at next_offset. A result with drift names fields that are null because pfSense sent an unexpected type. Identifying fields stay null unless include_identifying_metadata is true; secrets are never returned.',
    },
  );
  const base: BaseServer = {
    server,
    profile,
    allowedTools,
    toolsets,
    names: new Set(),
    pfrestVersion: 'unknown',
    writeNames: new Set(),
    write: { implemented: isImplemented(Capability.ALIAS_WRITE), granted: isGranted(profile, Capability.ALIAS_WRITE), runtimeEnabled: false },
    writeArtifacts: null,
  };
  const includeInfo = isGranted(profile, INFO_TOOL_CAPABILITY as Capability) && (allowedTools === null || allowedTools.has(INFO_TOOL_NAME));
  // Registering a tool before connecting is what declares the tools capability (the SDK refuses capability
  // changes once connected). When pfsense_mcp_info is not selected it is removed again before connecting,
  // so it is never listed or callable.
  const info = registerInfoTool(server, () => ({
    serverName: SERVER_NAME,
    serverVersion: SERVER_VERSION,
    profile,
    pfrestVersion: base.pfrestVersion,
    readToolCount: base.names.size - base.writeNames.size,
    writeToolCount: base.writeNames.size,
    write: { implemented: base.write.implemented, granted: base.write.granted, runtimeEnabled: base.write.runtimeEnabled },
    writeArtifacts: writeArtifactsNow(base),
    toolsets: TOOLSETS.map((set) => ({ name: set.name, description: set.description, selected: toolsets === null || toolsets.has(set.name), tools: set.tools })),
  }));
  if (includeInfo) base.names.add(INFO_TOOL_NAME);
  else info.remove();
  return base;
}
