// The hooks of a file that drives the coordinator against the simulator: one simulator for the file (with the
// operator's keyring of the real signer CLI, or the bundled child program, when the file asks), a fresh world
// per test. `sim`, `world`, `ring` and `child` are ES live bindings, so test bodies read the current ones by name.
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { useSimulatorWorld } from '@pfsense-mcp/test-support';
import type { BuiltChild, SimulatorWorld } from '@pfsense-mcp/test-support';
import { buildChild } from './child-process.js';
import { assertSignerBuilt, operatorKeyring } from './signer-cli.js';
import type { OperatorKeyring } from './signer-cli.js';
import { makeWorld, startTestSimulator } from './world.js';
import type { World } from './world.js';

type WorldOptions = NonNullable<Parameters<typeof makeWorld>[1]>;

export interface CoordinatorSuiteOptions {
  /** How every test's world is made (limits, audit sink, …). */
  readonly world?: WorldOptions;
  /** Sign with the real signer CLI: keygen an operator keyring once; every world pins its keys. */
  readonly signer?: boolean;
  /** Bundle the coordinator child program once, for the process tests. */
  readonly child?: boolean;
}

/** Building the keyring or the child bundle takes longer than a simulator start. */
const SLOW_START_MS = 60_000;

export let sim: RunningSimulator;
export let world: World;
/** With `signer: true` only. */
export let ring: OperatorKeyring;
/** With `child: true` only. */
export let child: BuiltChild;
let suite: SimulatorWorld<RunningSimulator, World> | undefined;

/** Registers the hooks; call once at the top of a test file. */
export function useCoordinatorWorld(options: CoordinatorSuiteOptions = {}): void {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  if (suite !== undefined) throw new Error('useCoordinatorWorld is called once per test file');
  const signer = options.signer === true;
  const withChild = options.child === true;
  const made: { ring?: OperatorKeyring; child?: BuiltChild } = {};
  suite = useSimulatorWorld({
    async start() {
      if (signer) assertSignerBuilt();
      const [s, keyring, built] = await Promise.all([
        startTestSimulator(),
        signer ? operatorKeyring() : undefined,
        withChild ? buildChild() : undefined,
      ]);
      if (keyring !== undefined) made.ring = ring = keyring;
      if (built !== undefined) made.child = child = built;
      return (sim = s);
    },
    // The server pins the public halves of the keys the signer's keygen made.
    make: async (s) => (world = await makeWorld(s, signer ? { ...options.world, keys: ring.keys } : options.world)),
    stop() {
      // Only what start made: a failed start leaves nothing to remove, and must not hide its own error.
      made.ring?.remove();
      made.child?.remove();
    },
    ...(signer || withChild ? { startTimeoutMs: SLOW_START_MS } : {}),
  });
}
