import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnReadyChild } from '@pfsense-mcp/foundation';

export interface BuiltSimulator {
  readonly url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Spawns dist/tools/pfsense-sim/main.js with `args` and resolves on its JSON ready line. */
export async function startBuiltSimulator(workspaceRoot: string, args: readonly string[]): Promise<BuiltSimulator> {
  const main = join(workspaceRoot, 'dist', 'tools', 'pfsense-sim', 'main.js');
  if (!existsSync(main)) throw new Error('bench: dist/tools/pfsense-sim/main.js is missing; run `npm run build`');
  const child = await spawnReadyChild(
    { script: main, args, cwd: workspaceRoot, readyTimeoutMs: 30_000, stopTimeoutMs: 5_000, maxReadyLineLength: 64 * 1024 },
    (line) => {
      const url = typeof line === 'object' && line !== null ? (line as { url?: unknown }).url : undefined;
      if (typeof url !== 'string') throw new Error('bench: the simulator printed no url');
      return url;
    },
  ).catch((error: unknown) => {
    throw new Error(`bench: the simulator did not become ready (${error instanceof Error ? error.message : 'error'})`);
  });
  return { url: child.ready, apiKey: '', close: child.stop };
}
