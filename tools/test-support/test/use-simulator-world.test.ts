import { afterAll, describe, expect, it } from 'vitest';
import { useSimulatorWorld } from '../src/index.js';

const log: string[] = [];
const fakeSim = Object.freeze({
  control: Object.freeze({
    resetData: () => void log.push('resetData'),
    clearFaults: () => void log.push('clearFaults'),
    resetCounters: () => void log.push('resetCounters'),
  }),
  close: async () => void log.push('close'),
});
let made = 0;
const makeWorld = async (name = 'world') => {
  made += 1;
  const id = `${name} ${made}`;
  log.push(`make ${id}`);
  return { id, cleanup: () => void log.push(`cleanup ${id}`) };
};

describe('useSimulatorWorld', () => {
  const suite = useSimulatorWorld({
    start: async () => {
      log.push('start');
      return fakeSim;
    },
    make: () => makeWorld(),
    stop: () => void log.push('stop'),
  });

  it('starts the simulator once and builds a world on reset simulator state', () => {
    expect(log).toEqual(['start', 'resetData', 'clearFaults', 'resetCounters', 'make world 1']);
    expect(suite.sim).toBe(fakeSim);
    expect(suite.world.id).toBe('world 1');
    suite.closeAfterEach(() => void log.push('closer'));
  });

  it('runs the test’s closes before the cleanup, then a fresh world; a replaced world is cleaned up at once', async () => {
    expect(log.slice(5)).toEqual(['closer', 'cleanup world 1', 'resetData', 'clearFaults', 'resetCounters', 'make world 2']);
    const replaced = await suite.replaceWorld(() => makeWorld('other'));
    expect(suite.world).toBe(replaced);
    expect(log.slice(-2)).toEqual(['cleanup world 2', 'make other 3']);
  });

  it('refuses a close that is not a function', () => {
    expect(() => suite.closeAfterEach(null as never)).toThrow(TypeError);
  });
});

afterAll(() => {
  // The describe's own afterAll ran first: the replaced world was cleaned up, then stop, then the simulator closed.
  expect(log).toContain('cleanup other 3');
  expect(log.slice(-2)).toEqual(['stop', 'close']);
});

it('refuses a setup without start and make', () => {
  expect(() => useSimulatorWorld({} as never)).toThrow(TypeError);
});
