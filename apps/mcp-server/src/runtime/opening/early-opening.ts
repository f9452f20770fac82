import { isGranted, type Capability, type Profile } from '@pfsense-mcp/policy';
import { OPENING_REPLIES_JSON } from './opening-replies.js';
import { toolsetOf } from '../config/toolsets.js';
import { serverTitle } from '../startup/server-identity.js';

/** Which protocol era a connection opened in: `initialize` (2025) or `server/discover` (2026-07-28). */
export type Era = 'legacy' | 'modern';

/** One tool entry of tools/list as the MCP SDK lists it, with what decides whether it is registered. */
interface ListedTool {
  readonly name: string;
  readonly kind: 'info' | 'read' | 'write';
  readonly capability: string | null;
  readonly listed: Readonly<Record<string, unknown>>;
}

/** What scripts/generate-opening-replies.mjs recorded from the SDK server (src/runtime/opening/opening-replies.ts). */
interface OpeningReplies {
  readonly initialize: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly discover: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly toolsList: {
    readonly legacy: Readonly<Record<string, unknown>>;
    readonly modern: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  };
  readonly tools: readonly ListedTool[];
}

/** The replies this configuration can give before the MCP SDK is loaded: each is exactly what the SDK server answers. */
export interface EarlyOpening {
  /** The `initialize` result for a 2025-era revision, or undefined for one the recorded server did not answer. */
  initializeResult(protocolVersion: string): Readonly<Record<string, unknown>> | undefined;
  /** The `server/discover` result for a 2026-07-28 envelope revision, or undefined. */
  discoverResult(protocolVersion: string): Readonly<Record<string, unknown>> | undefined;
  /**
   * The tools/list result of this configuration in `era` (the modern one per revision), or undefined. Under a
   * profile that grants the write it is a promise, settled once the write gates are decided (`writeTools`).
   */
  toolsListResult(
    era: Era,
    protocolVersion: string,
  ): Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>> | undefined;
  /** The 2026-07-28 revisions a `server/discover` can be answered for. */
  readonly modernRevisions: ReadonlySet<string>;
}

/**
 * The early replies for a configuration (docs/DESIGN.md §8): the tools the profile grants, narrowed by
 * PFSENSE_ALLOWED_TOOLS and PFSENSE_TOOLSETS as selectTools does it. A profile that grants the write lists the write
 * tools only once their gates passed (the write runtime built: directory, keys, both stores opened and verified):
 * `writeTools` settles with the write tools that will be registered (none when a gate failed); without it,
 * tools/list under such a profile is left to the SDK.
 */
export function earlyOpening(
  profile: Profile,
  allowedTools: ReadonlySet<string> | null,
  toolsets: ReadonlySet<string> | null,
  writeTools: Promise<readonly string[]> | null = null,
): EarlyOpening {
  let parsed: OpeningReplies | null = null;
  const replies = (): OpeningReplies => (parsed ??= JSON.parse(OPENING_REPLIES_JSON) as OpeningReplies);
  const allowed = (name: string) => allowedTools === null || allowedTools.has(name);
  const inToolsets = (name: string) => toolsets === null || toolsets.has(toolsetOf(name) ?? '');
  const registered = (tool: ListedTool): boolean => {
    if (tool.capability === null || !isGranted(profile, tool.capability as Capability) || !allowed(tool.name)) return false;
    // pfsense_mcp_info is in no toolset: toolsets never remove it.
    return tool.kind === 'info' || (tool.kind === 'read' && inToolsets(tool.name));
  };
  const writeGated = replies().tools.some(
    (tool) => tool.kind === 'write' && tool.capability !== null && isGranted(profile, tool.capability as Capability),
  );
  // The write tools come last, in registration order (attach registers them after the READ tools).
  const tools = (write: readonly string[]) =>
    replies()
      .tools.filter((tool) => (tool.kind === 'write' ? write.includes(tool.name) : registered(tool)))
      .map((tool) => tool.listed);
  // The recorded replies carry the title of the profile they were recorded under; this server's names its own.
  const title = serverTitle(profile);
  return Object.freeze({
    initializeResult: (protocolVersion: string) => titled(own(replies().initialize, protocolVersion), title),
    discoverResult: (protocolVersion: string) => titled(own(replies().discover, protocolVersion), title),
    toolsListResult: (era: Era, protocolVersion: string) => {
      const wrapper = era === 'legacy' ? replies().toolsList.legacy : titled(own(replies().toolsList.modern, protocolVersion), title);
      if (wrapper === undefined) return undefined;
      if (!writeGated) return { ...wrapper, tools: tools([]) };
      return writeTools === null ? undefined : writeTools.then((write) => ({ ...wrapper, tools: tools(write) }));
    },
    modernRevisions: new Set(Object.keys(replies().discover)),
  });
}

const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/** A recorded reply with the server identity's title replaced (`serverInfo`, and the modern era's `_meta`). */
function titled(result: Readonly<Record<string, unknown>> | undefined, title: string): Readonly<Record<string, unknown>> | undefined {
  if (result === undefined) return undefined;
  const out: Record<string, unknown> = { ...result };
  const info = result['serverInfo'];
  if (typeof info === 'object' && info !== null) out['serverInfo'] = { ...info, title };
  const meta = result['_meta'];
  if (typeof meta === 'object' && meta !== null) {
    const metaInfo = (meta as Record<string, unknown>)[SERVER_INFO_META_KEY];
    if (typeof metaInfo === 'object' && metaInfo !== null) out['_meta'] = { ...meta, [SERVER_INFO_META_KEY]: { ...metaInfo, title } };
  }
  return out;
}

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
