// Child processes for the race and crash tests, the way libs/contract-store and libs/executor run theirs:
// the fixture is bundled by esbuild into the workspace's tmp/ (so the external native better-sqlite3
// resolves from the workspace node_modules) and run with plain `node`. The job comes in
// COORDINATOR_CHILD_CONFIG; the child prints JSON lines on stdout.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { operatorAuthorities } from './world.js';
import type { World } from './world.js';
import { buildChildScript, startChild as startShared } from '@pfsense-mcp/test-support';
import type { BuiltChild, ChildResult, RunningChild } from '@pfsense-mcp/test-support';

export type { ChildResult, RunningChild };

const here = dirname(fileURLToPath(import.meta.url));

export const buildChild = (): Promise<BuiltChild> =>
  buildChildScript(join(here, '..', 'fixtures', 'coordinator-child.ts'), 'coordinator-child');

/** The child's view of a world: the same files, keys and simulator (the private server key for the outbox). */
export function childConfigOf(
  world: World,
  sim: { url: string; apiKey: string },
  tlsMode: string,
  rateLimits: Record<string, number>,
): Record<string, unknown> {
  return {
    storeDir: join(world.dir, 'store'),
    anchorFile: join(world.dir, 'anchor.json'),
    inbox: world.inbox,
    outbox: world.outbox,
    masterKeyHex: bytesToHex(world.masterKey),
    serverPrivateKeyHex: bytesToHex(world.keys.server.privateKey),
    authorities: operatorAuthorities(world.keys)
      .entries()
      .map((a) => ({ keyId: a.keyId, publicKeyHex: bytesToHex(a.publicKey), role: a.role, active: a.active })),
    nowMs: world.clock.now,
    simUrl: sim.url,
    apiKey: sim.apiKey,
    tlsMode,
    rateLimits,
  };
}

export const startChild = (script: string, config: Record<string, unknown>): RunningChild =>
  startShared(script, 'COORDINATOR_CHILD_CONFIG', config);
