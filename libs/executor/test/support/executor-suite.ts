// The hooks of a file that drives the executor against the simulator: one simulator for the file, a fresh
// world (store, transports, executor) per test. `sim` and `world` are ES live bindings, so test bodies read
// the current ones by name.
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { useSimulatorWorld } from '@pfsense-mcp/test-support';
import type { SimulatorWorld } from '@pfsense-mcp/test-support';
import { makeWorld, startTestSimulator } from './world.js';
import type { World } from './world.js';

type WorldOptions = NonNullable<Parameters<typeof makeWorld>[1]>;

export let sim: RunningSimulator;
export let world: World;
let suite: SimulatorWorld<RunningSimulator, World> | undefined;

/** Registers the hooks; call once at the top of a test file. */
export function useExecutorWorld(): void {
  if (suite !== undefined) throw new Error('useExecutorWorld is called once per test file');
  suite = useSimulatorWorld({
    start: async () => (sim = await startTestSimulator()),
    make: async (s) => (world = await makeWorld(s)),
  });
}

/** Runs `close` after this test, before the world is cleaned up. */
export function closeAfterEach(close: () => void): void {
  registered().closeAfterEach(close);
}

/** Replaces this test's world with one built with `options` (an anchor to roll back, say); it becomes `world`. */
export async function replaceWorld(options: WorldOptions): Promise<World> {
  return registered().replaceWorld(async (s) => (world = await makeWorld(s, options)));
}

function registered(): SimulatorWorld<RunningSimulator, World> {
  if (suite === undefined) throw new Error('useExecutorWorld must be called first');
  return suite;
}
