import { McpServer } from '@modelcontextprotocol/server';
import type { ArtifactCounts } from '@pfsense-mcp/coordinator';
import { Capability, isGranted, isImplemented, type Profile } from '@pfsense-mcp/policy';
import { INFO_TOOL_CAPABILITY, INFO_TOOL_NAME, registerInfoTool } from '../../tools/register-info-tool.js';
import { SERVER_NAME, SERVER_VERSION, serverTitle } from '../startup/server-identity.js';
import { TOOLSETS } from '../config/toolsets.js';
import { TOOL_LIST_CACHE_HINT } from './tool-list-cache-hint.js';
import type { WriteCapabilityGates } from '../write-runtime/write-capability-gates.js';

/** Whether one inventory appliance takes writes, and the stable code of why not when its write_dir is set. */
export interface ApplianceWrites {
  readonly enabled: boolean;
  /** The write gate's code (e.g. a store refused at open), or null. */
  readonly refused: string | null;
  /** Its write runtime's inbox/outbox counts (by name), as pfsense_mcp_info's for one runtime; null without a runtime. */
  readonly artifacts: (() => ArtifactCounts) | null;
  /** Until when its clock holds its writes back (UTC ms), or null; null without a runtime. */
  readonly clockBlockedUntil: (() => number | null) | null;
}

/** One appliance's write state as pfsense_list_appliances reports it, read now. */
export interface ApplianceWritesNow {
  readonly enabled: boolean;
  readonly refused: string | null;
  readonly artifacts: ArtifactCounts | null;
  readonly clockBlockedUntil: number | null;
}

/** Registers a group of tools on one McpServer instance. */
export type ToolRegistrar = (server: McpServer) => void;

/**
 * The one server factory both protocol eras are served from (docs/DESIGN.md §6, MCP TypeScript SDK v2
 * `serveStdio`): every call builds a fresh McpServer with every tool attached so far. The stdio entry may call
 * it more than once per connection (a `server/discover` probe instance, then the pinned one), so instances
 * share nothing but this factory's facts.
 */
export interface ServerFactory {
  readonly create: () => McpServer;
  readonly profile: Profile;
  readonly allowedTools: ReadonlySet<string> | null;
  readonly toolsets: ReadonlySet<string> | null;
  /** Names registered so far, on every instance: pfsense_mcp_info when selected, then what attach adds. */
  readonly names: Set<string>;
  /** Filled when the READ tools are attached (pfsense_mcp_info reports it; calls are answered only after). */
  pfrestVersion: string;
  /** The write tools registered (a subset of `names`): attachWriteTool adds the one write tool. */
  readonly writeNames: Set<string>;
  /** ALIAS_WRITE's three facts; `runtimeEnabled` is set by attachWriteTool once all three gates hold. */
  readonly write: { readonly implemented: boolean; readonly granted: boolean; runtimeEnabled: boolean };
  /** Set by attachWriteTool: each write capability's static gates (empty until then). */
  writeCapabilities: readonly WriteCapabilityGates[];
  /** Set by attachWriteTool: the inbox/outbox file counts pfsense_mcp_info reports (by name, nothing opened). */
  writeArtifacts: (() => ArtifactCounts) | null;
  /** Set by attachWriteTool: until when a clock behind the store's rate windows holds every write back (UTC ms), or null. */
  writeClockBlockedUntil: (() => number | null) | null;
  /** Set by attachReadTools with an inventory: how many appliances the READ tools reach (pfsense_mcp_info reports it). */
  applianceCount: number | null;
  /**
   * Set by attachOpenedWriteTools with an inventory: each write appliance's write state (pfsense_list_appliances
   * reports it); an appliance absent from it takes no writes (no write_dir).
   */
  applianceWrites: ReadonlyMap<string, ApplianceWrites> | null;
  /** Registers tools on every instance built so far and on every later one. */
  attach(register: ToolRegistrar): void;
}

/**
 * A write runtime's fact now, or null: no write runtime, or it cannot say (the directories cannot be listed, the
 * store cannot be read) — the next write call reports that itself.
 */
function readNow<T>(read: (() => T | null) | null): T | null {
  if (read === null) return null;
  try {
    return read();
  } catch {
    return null;
  }
}

/** One inventory appliance's write state now (pfsense_list_appliances), or null when it has no write_dir. */
export function applianceWritesNow(factory: ServerFactory, name: string): ApplianceWritesNow | null {
  const writes = factory.applianceWrites?.get(name) ?? null;
  if (writes === null) return null;
  return {
    enabled: writes.enabled,
    refused: writes.refused,
    artifacts: readNow(writes.artifacts),
    clockBlockedUntil: readNow(writes.clockBlockedUntil),
  };
}

/**
 * Creates the factory with the tools capability and, when selected, pfsense_mcp_info. Needs neither the READ
 * catalogue nor the HTTP stack, so the first instance can take over the opening (`initialize` in the 2025 era,
 * `server/discover` in 2026-07-28, replayed to it after the early reply) before those are loaded.
 */
export function createServerFactory(
  profile: Profile,
  allowedTools: ReadonlySet<string> | null,
  toolsets: ReadonlySet<string> | null = null,
): ServerFactory {
  const includeInfo = isGranted(profile, INFO_TOOL_CAPABILITY as Capability) && (allowedTools === null || allowedTools.has(INFO_TOOL_NAME));
  const registrars: ToolRegistrar[] = [];
  const instances: McpServer[] = [];
  const factory: ServerFactory = {
    profile,
    allowedTools,
    toolsets,
    names: new Set(includeInfo ? [INFO_TOOL_NAME] : []),
    pfrestVersion: 'unknown',
    writeNames: new Set(),
    write: {
      implemented: isImplemented(Capability.ALIAS_WRITE),
      granted: isGranted(profile, Capability.ALIAS_WRITE),
      runtimeEnabled: false,
    },
    writeCapabilities: [],
    writeArtifacts: null,
    writeClockBlockedUntil: null,
    applianceCount: null,
    applianceWrites: null,
    create: () => {
      // Declaring the tools capability installs tools/list and tools/call even with nothing registered, so an
      // empty selection lists [] in both eras.
      const server = new McpServer(
        { name: SERVER_NAME, version: SERVER_VERSION, title: serverTitle(profile) },
        {
          capabilities: { tools: {} },
          // 2026-07-28 tools/list results carry a real time-to-live (tool-list-cache-hint.ts says which and why).
          cacheHints: { 'tools/list': TOOL_LIST_CACHE_HINT },
          instructions:
            'Read-only tools for one pfSense firewall via its REST API. List tools take limit (1-1000, default 100) and offset; next_offset is set when more items may follow, and a result marked truncated: true continues at next_offset. To read only what a question needs, list tools also take fields (the field names to return; rows keep their id), filter (up to 8 objects {field, op, value}, all must match; op is eq, ne, contains, startswith, endswith, in with a list value, lt, lte, gt or gte; the value has the type of the field) and sort_by (a field) with sort_order (asc or desc); an unknown field name is refused with the nearest valid one. A result with drift names fields that are null because pfSense sent an unexpected type. Identifying fields stay null unless include_identifying_metadata is true, which is also needed to select, filter or sort by them; secrets are never returned.',
        },
      );
      if (includeInfo) {
        registerInfoTool(server, () => ({
          serverName: SERVER_NAME,
          serverVersion: SERVER_VERSION,
          profile,
          pfrestVersion: factory.pfrestVersion,
          readToolCount: factory.names.size - factory.writeNames.size,
          writeToolCount: factory.writeNames.size,
          write: { implemented: factory.write.implemented, granted: factory.write.granted, runtimeEnabled: factory.write.runtimeEnabled },
          writeCapabilities: factory.writeCapabilities.map((c) => ({ ...c, runtimeEnabled: factory.writeNames.has(c.tool) })),
          writeArtifacts: readNow(factory.writeArtifacts),
          writeClockBlockedUntil: readNow(factory.writeClockBlockedUntil),
          applianceCount: factory.applianceCount,
          toolsets: TOOLSETS.map((set) => ({
            name: set.name,
            description: set.description,
            selected: toolsets === null || toolsets.has(set.name),
            tools: set.tools,
          })),
        }));
      }
      for (const register of registrars) register(server);
      instances.push(server);
      return server;
    },
    attach: (register) => {
      registrars.push(register);
      for (const server of instances) register(server);
    },
  };
  return factory;
}
