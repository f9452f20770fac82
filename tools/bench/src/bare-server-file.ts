import { join } from 'node:path';

/**
 * The bare MCP servers of one tool the benchmarks measure against (tools/bench/fixtures): `v1` on the v1 SDK, `v2`
 * on the v2 SDK, plain ESM straight from node_modules.
 */
export function bareServerFile(workspaceRoot: string, sdk: 'v1' | 'v2'): string {
  return join(workspaceRoot, 'tools', 'bench', 'fixtures', `bare-${sdk}-server.mjs`);
}
