import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReadyChildError, spawnReadyChild } from '@pfsense-mcp/foundation';
import type { ReadyChildFailure } from '@pfsense-mcp/foundation';
import { z } from 'zod';
import { LabError } from './lab-error.js';
import { simulatorData } from './lab-fixture.js';

const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;
const MAX_READY_LINE = 64 * 1024;

/** The built simulator next to the built runner: dist/apps/lab-runner/main.js → dist/tools/pfsense-sim/main.js. */
export function defaultSimulatorEntry(): string {
  return fileURLToPath(new URL('../../tools/pfsense-sim/main.js', import.meta.url));
}

export interface SimulatorChild {
  readonly url: string;
  readonly apiKeyFile: string;
  stop(): Promise<void>;
}

const readySchema = z.object({ ready: z.literal(true), url: z.string().url() }).loose();

/**
 * Starts one simulator child for one scenario (its own process, so request counters never mix), on a free
 * loopback port, with the lab's fixed start data and an API key it generates into the scenario's private
 * directory. Its own process group: a terminal's Ctrl-C reaches the runner, which then still needs it.
 */
export async function startSimulatorChild(dir: string, entry: string = defaultSimulatorEntry()): Promise<SimulatorChild> {
  if (!existsSync(entry))
    throw new LabError('SIMULATOR_MISSING', 'the built simulator is missing (dist/tools/pfsense-sim/main.js); run `npm run build`');
  const dataFile = join(dir, 'simulator-data.json');
  writeFileSync(dataFile, JSON.stringify(simulatorData()), { mode: 0o600, flag: 'wx' });
  const apiKeyFile = join(dir, 'simulator-api-key');
  const options = {
    script: entry,
    args: ['--port', '0', '--host', '127.0.0.1', '--api-key-file', apiKeyFile, '--data', dataFile, '--exit-on-stdin-eof'],
    cwd: dir,
    detached: true,
    readyTimeoutMs: READY_TIMEOUT_MS,
    stopTimeoutMs: STOP_TIMEOUT_MS,
    maxReadyLineLength: MAX_READY_LINE,
  };
  try {
    const child = await spawnReadyChild(options, readyUrl);
    return Object.freeze({ url: child.ready, apiKeyFile, stop: child.stop });
  } catch (error) {
    if (error instanceof ReadyChildError) throw new LabError('SIMULATOR_FAILED', `the simulator ${FAILURE_TEXT[error.failure]}`);
    throw error;
  }
}

const FAILURE_TEXT: Readonly<Record<ReadyChildFailure, string>> = Object.freeze({
  TIMEOUT: 'did not become ready in time',
  EXITED: 'exited before it was ready',
  OVERSIZED: 'printed no ready line',
  UNREADABLE: 'printed an unreadable ready line',
});

/** The ready line's loopback URL, without a trailing slash. */
function readyUrl(line: unknown): string {
  const ready = readySchema.safeParse(line);
  if (!ready.success) throw new LabError('SIMULATOR_FAILED', 'the simulator printed an unreadable ready line');
  if (new URL(ready.data.url).hostname !== '127.0.0.1') throw new LabError('SIMULATOR_FAILED', 'the simulator is not on 127.0.0.1');
  return ready.data.url.replace(/\/$/, '');
}
