// The two protocol eras a client may speak to this server, and the v2 SDK Client settings that select them.
import { Client } from '@modelcontextprotocol/client';

/** `modern`: protocol revision 2026-07-28 (`server/discover`, per-request `_meta`); `legacy`: the 2025 `initialize` handshake. */
export type Era = 'modern' | 'legacy';
export const ERAS: readonly Era[] = Object.freeze(['modern', 'legacy']);
export const MODERN_REVISION = '2026-07-28';

/** The v2 Client pinned to 2026-07-28 (no fallback), or in its default mode (the 2025 handshake, no probe). */
export function newClient(era: Era | 'auto', name = 'mcp-server-test'): Client {
  const versionNegotiation = era === 'modern' ? { mode: { pin: MODERN_REVISION } } : era === 'auto' ? { mode: 'auto' as const } : undefined;
  return new Client({ name, version: '0.0.0' }, versionNegotiation === undefined ? {} : { versionNegotiation });
}

/** Throws unless the connected client really landed on `era` (so a test cannot silently run in the other one). */
export function assertEra(client: Client, era: Era): void {
  const actual = client.getProtocolEra();
  if (actual !== era) throw new Error(`expected a ${era} connection, the client negotiated ${String(actual)}`);
}
