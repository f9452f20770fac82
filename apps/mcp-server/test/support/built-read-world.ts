// One world for the suites that spawn the BUILT server for READ: the bundles built when stale, one simulator per
// file on loopback, an owner-only key file and the environment that points the server at both. The hooks are
// registered by `useBuiltReadWorld` at collection time.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { ensureBuilt, writeKeyFile } from './built-server.js';

export interface BuiltReadWorld {
  /** The file's simulator (from `beforeAll` on). */
  readonly sim: RunningSimulator;
  /** The owner-only file holding the simulator's API key. */
  readonly keyFile: string;
  /** PFSENSE_URL, PFSENSE_API_KEY_FILE and PFSENSE_ALLOW_HTTP_LOOPBACK for the server. */
  readonly env: Readonly<Record<string, string>>;
}

export function useBuiltReadWorld(): BuiltReadWorld {
  let sim: RunningSimulator | undefined;
  let keyFile: string | undefined;
  let env: Readonly<Record<string, string>> | undefined;
  beforeAll(async () => {
    ensureBuilt();
    sim = await startSimulator();
    keyFile = writeKeyFile(sim.apiKey);
    env = Object.freeze({ PFSENSE_URL: sim.url, PFSENSE_API_KEY_FILE: keyFile, PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' });
  }, 120_000);
  afterAll(async () => {
    sim?.control.clearFaults();
    await sim?.close();
    if (keyFile !== undefined) rmSync(dirname(keyFile), { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the world is not started (outside the suite hooks)');
    return value;
  };
  return Object.freeze({
    get sim(): RunningSimulator {
      return started(sim);
    },
    get keyFile(): string {
      return started(keyFile);
    },
    get env(): Readonly<Record<string, string>> {
      return started(env);
    },
  });
}
