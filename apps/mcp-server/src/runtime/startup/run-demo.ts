import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSecretFile } from '@pfsense-mcp/crypto';
import { ReadyChildError, spawnReadyChild } from '@pfsense-mcp/foundation';
import type { ReadyChildFailure } from '@pfsense-mcp/foundation';
import { ConfigError } from '../config/config-error.js';
import { createLogger } from './create-logger.js';
import { loadConfig } from '../config/load-config.js';
import { runServe } from './run-serve.js';
import { KNOWN_TOOL_NAMES } from '../config/known-tool-names.js';
import { writeCliOutput } from './write-cli-output.js';

const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 3_000;
const MAX_READY_LINE = 64 * 1024;

/** The built simulator next to the built server: dist/apps/mcp-server/main.js → dist/tools/pfsense-sim/main.js. */
export function defaultSimulatorPath(): string {
  return fileURLToPath(new URL('../../tools/pfsense-sim/main.js', import.meta.url));
}

export interface DemoSimulator {
  readonly url: string;
  readonly apiKeyFile: string;
  stop(): Promise<void>;
}

/**
 * Starts the built simulator as a child process (it is never imported: the product must not share the code
 * that imitates its upstream) with its demo data and a freshly generated API key in a private 0700 temp dir.
 * Resolves once the simulator's one JSON ready line arrived on its stdout.
 */
export async function startDemoSimulator(simulatorPath: string = defaultSimulatorPath()): Promise<DemoSimulator> {
  if (!existsSync(simulatorPath)) {
    throw new ConfigError(
      'DEMO_SIMULATOR_MISSING',
      '--demo',
      '--demo needs the built simulator (dist/tools/pfsense-sim/main.js); run `npm run build`',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'pfsense-mcp-demo-'));
  chmodSync(dir, 0o700);
  const apiKeyFile = join(dir, 'api-key');
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeSecretFile(apiKeyFile, `${randomBytes(24).toString('hex')}\n`);
    // stdin stays open as a lifeline: if this process dies, the simulator sees EOF.
    const child = await spawnReadyChild(
      {
        script: simulatorPath,
        args: ['--port', '0', '--api-key-file', apiKeyFile, '--exit-on-stdin-eof'],
        cwd: dir,
        readyTimeoutMs: READY_TIMEOUT_MS,
        stopTimeoutMs: STOP_TIMEOUT_MS,
        maxReadyLineLength: MAX_READY_LINE,
      },
      readyUrl,
    );
    let stopping: Promise<void> | undefined;
    return Object.freeze({
      url: child.ready,
      apiKeyFile,
      stop: () => {
        stopping ??= child.stop().finally(removeDir);
        return stopping;
      },
    });
  } catch (error) {
    removeDir();
    if (error instanceof ReadyChildError) throw demoFailure(FAILURE_TEXT[error.failure]);
    throw error;
  }
}

const FAILURE_TEXT: Readonly<Record<ReadyChildFailure, string>> = Object.freeze({
  TIMEOUT: 'did not become ready in time',
  EXITED: 'exited before it was ready',
  OVERSIZED: 'printed an oversized ready line',
  UNREADABLE: 'printed an unreadable ready line',
});

function demoFailure(why: string): ConfigError {
  return new ConfigError('DEMO_SIMULATOR_FAILED', '--demo', `--demo: the simulator ${why}`);
}

/** The ready line's loopback URL, without a trailing slash. */
function readyUrl(line: unknown): string {
  if (line === null) throw demoFailure('printed an unreadable ready line');
  const url = typeof line === 'object' && line !== null ? (line as { url?: unknown }).url : undefined;
  if (typeof url !== 'string' || !/^http:\/\/127\.0\.0\.1:\d{1,5}\/?$/.test(url)) throw demoFailure('reported an unexpected address');
  return url.replace(/\/$/, '');
}

/** --demo: simulator child + MCP server against it, with no configuration. Stops the child on the way out. */
export async function runDemo(simulatorPath?: string): Promise<number> {
  const sim = await startDemoSimulator(simulatorPath);
  const logger = createLogger('info');
  logger.log('info', 'demo_simulator_started');
  try {
    const config = loadConfig(
      { PFSENSE_URL: sim.url, PFSENSE_API_KEY_FILE: sim.apiKeyFile, PFSENSE_ALLOW_HTTP_LOOPBACK: 'true', PFSENSE_PROFILE: 'auditor' },
      KNOWN_TOOL_NAMES,
    );
    // One plain line for a human who ran `npm start` in a terminal and sees nothing else happen (stderr: stdout is
    // the MCP channel). Printed once the configuration is valid, right before stdin is read.
    writeCliOutput(`pfsense-mcp: demo appliance at ${sim.url}; waiting for an MCP client on stdin`);
    return await runServe(config, async () => {
      await sim.stop();
      logger.log('info', 'demo_simulator_stopped');
    });
  } catch (error) {
    await sim.stop();
    throw error;
  }
}
