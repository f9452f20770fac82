import type { CacheHint } from '@modelcontextprotocol/server';

/** How long a client may treat this server's tool list as fresh (MCP 2026-07-28 `ttlMs`): one hour. */
export const TOOL_LIST_TTL_MS = 60 * 60 * 1000;

/**
 * The cache hint of `tools/list` on protocol revision 2026-07-28 (specification, server/utilities/caching: `ttlMs`
 * is a freshness hint analogous to `Cache-Control: max-age`, `cacheScope` who may reuse the result). The list is
 * fixed for the life of the process: it follows from the configuration read at start (profile, PFSENSE_ALLOWED_TOOLS,
 * PFSENSE_TOOLSETS) and from the write gates decided once before it is first answered, and this server never sends
 * `notifications/tools/list_changed`. Only a restart with another configuration changes it, so the time-to-live is
 * not a guess at how often it changes but a bound on how long a client that kept its cache across such a restart
 * goes on showing the old list: an hour, longer than a working session asks for it again, short enough that a
 * changed profile or a write tool that now passes its gates is seen the same day. `private`: the list describes
 * one deployment (its profile, its toolsets, whether its write runtime passed), so a shared cache must not hand it
 * to another caller. 2025-era results carry no cache fields (the SDK adds them only on 2026-07-28).
 */
export const TOOL_LIST_CACHE_HINT: Readonly<CacheHint> = Object.freeze({ ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'private' });
