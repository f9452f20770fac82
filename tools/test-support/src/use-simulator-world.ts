// The suite hooks every simulator-backed test file repeated: one simulator for the file, a fresh world per test
// on reset simulator state, closes registered by the test, then the world's cleanup.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** What the hooks need of a running simulator; pfsense-sim's `RunningSimulator` fits. */
export interface ResettableSimulator {
  readonly control: { resetData(): void; clearFaults(): void; resetCounters(): void };
  close(): Promise<void>;
}

export interface SimulatorWorldSetup<S extends ResettableSimulator, W extends { cleanup(): void }> {
  /** Starts the file's simulator once, in `beforeAll` (and whatever else the file needs for its whole run). */
  start(): Promise<S>;
  /** Builds each test's world after the simulator's data, faults and counters were reset. */
  make(sim: S): Promise<W>;
  /** Runs in `afterAll` before the simulator closes (a keyring to remove, a built child to delete). */
  stop?(): void;
  /** `beforeAll`'s timeout when `start` does more than start a simulator (a keyring, a bundle). */
  startTimeoutMs?: number;
}

export interface SimulatorWorld<S, W> {
  /** The file's simulator (from `beforeAll` on). */
  readonly sim: S;
  /** This test's world (from `beforeEach` on). */
  readonly world: W;
  /** Runs `close` after this test, before the world is cleaned up (transports, reopened stores). */
  closeAfterEach(close: () => void): void;
  /** Cleans this test's world up and builds another in its place (cleaned up after the test in turn). */
  replaceWorld(make: (sim: S) => Promise<W>): Promise<W>;
}

export function useSimulatorWorld<S extends ResettableSimulator, W extends { cleanup(): void }>(
  setup: SimulatorWorldSetup<S, W>,
): SimulatorWorld<S, W> {
  if (setup === null || typeof setup !== 'object') throw new TypeError('setup must be an object');
  if (typeof setup.start !== 'function' || typeof setup.make !== 'function')
    throw new TypeError('setup.start and setup.make must be functions');
  let sim: S | undefined;
  let world: W | undefined;
  const closers: (() => void)[] = [];
  beforeAll(async () => {
    sim = await setup.start();
  }, setup.startTimeoutMs);
  afterAll(async () => {
    setup.stop?.();
    await sim?.close();
  });
  beforeEach(async () => {
    const s = running();
    s.control.resetData();
    s.control.clearFaults();
    s.control.resetCounters();
    world = await setup.make(s);
  });
  afterEach(() => {
    for (const close of closers.splice(0)) close();
    world?.cleanup();
    world = undefined;
  });
  function running(): S {
    if (sim === undefined) throw new Error('the simulator is not started (outside the suite hooks)');
    return sim;
  }
  return Object.freeze({
    get sim(): S {
      return running();
    },
    get world(): W {
      if (world === undefined) throw new Error('no world outside a test (beforeEach builds it)');
      return world;
    },
    closeAfterEach(close: () => void): void {
      if (typeof close !== 'function') throw new TypeError('close must be a function');
      closers.push(close);
    },
    async replaceWorld(make: (sim: S) => Promise<W>): Promise<W> {
      if (typeof make !== 'function') throw new TypeError('make must be a function');
      world?.cleanup();
      world = undefined;
      world = await make(running());
      return world;
    },
  });
}
