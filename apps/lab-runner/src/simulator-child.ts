import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  if (!existsSync(entry)) throw new LabError('SIMULATOR_MISSING', 'the built simulator is missing (dist/tools/pfsense-sim/main.js); run `npm run build`');
  const dataFile = join(dir, 'simulator-data.json');
  writeFileSync(dataFile, JSON.stringify(simulatorData()), { mode: 0o600, flag: 'wx' });
  const apiKeyFile = join(dir, 'simulator-api-key');
  const child = spawn(process.execPath, [entry, '--port', '0', '--host', '127.0.0.1', '--api-key-file', apiKeyFile, '--data', dataFile, '--exit-on-stdin-eof'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    cwd: dir,
    detached: true,
  });
  try {
    const url = await readReady(child);
    let stopping: Promise<void> | undefined;
    return Object.freeze({ url, apiKeyFile, stop: () => (stopping ??= stopChild(child)) });
  } catch (e) {
    await stopChild(child);
    throw e;
  }
}

function readReady(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const done = (error: LabError | null, url?: string) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error !== null) reject(error);
      else resolve(url as string);
    };
    const timer = setTimeout(() => done(new LabError('SIMULATOR_FAILED', 'the simulator did not become ready in time')), READY_TIMEOUT_MS);
    const onExit = () => done(new LabError('SIMULATOR_FAILED', 'the simulator exited before it was ready'));
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      if (buffered.length > MAX_READY_LINE) return done(new LabError('SIMULATOR_FAILED', 'the simulator printed no ready line'));
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      try {
        const ready = readySchema.parse(JSON.parse(buffered.slice(0, end)));
        const u = new URL(ready.url);
        if (u.hostname !== '127.0.0.1') return done(new LabError('SIMULATOR_FAILED', 'the simulator is not on 127.0.0.1'));
        done(null, ready.url.replace(/\/$/, ''));
      } catch {
        done(new LabError('SIMULATOR_FAILED', 'the simulator printed an unreadable ready line'));
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin?.end();
    child.kill('SIGTERM');
  });
}
