import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { ReadyChildError } from './ready-child-error.js';
import type { ReadyChildFailure } from './ready-child-error.js';

export interface ReadyChildOptions {
  /** The node script to run with this process's own node (`process.execPath`). */
  readonly script: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Its own process group, so a terminal's Ctrl-C reaches only this process (which then still stops it). */
  readonly detached?: boolean;
  readonly readyTimeoutMs: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL. */
  readonly stopTimeoutMs: number;
  /** The most stdout (UTF-16 units) read while no newline has arrived; more is OVERSIZED. */
  readonly maxReadyLineLength: number;
  /** Keep the last this-many characters of stderr for `ReadyChildError.stderrTail`; 0 (default) ignores stderr. */
  readonly stderrTailLength?: number;
}

export interface ReadyChild<T> {
  readonly pid: number;
  /** What `readReady` made of the first stdout line. */
  readonly ready: T;
  /** Closes stdin (the child's lifeline), SIGTERM, SIGKILL after `stopTimeoutMs`; resolves on exit. Idempotent. */
  stop(): Promise<void>;
}

function assertPositiveInteger(value: unknown, name: string): void {
  if (!Number.isSafeInteger(value) || (value as number) <= 0) throw new TypeError(`spawnReadyChild: "${name}" must be a positive integer`);
}

function assertOptions(options: ReadyChildOptions, readReady: unknown): void {
  if (options === null || typeof options !== 'object') throw new TypeError('spawnReadyChild: "options" must be an object');
  if (typeof options.script !== 'string' || options.script.length === 0)
    throw new TypeError('spawnReadyChild: "script" must be a non-empty string');
  if (!Array.isArray(options.args) || !options.args.every((a) => typeof a === 'string'))
    throw new TypeError('spawnReadyChild: "args" must be an array of strings');
  if (typeof options.cwd !== 'string' || options.cwd.length === 0) throw new TypeError('spawnReadyChild: "cwd" must be a non-empty string');
  assertPositiveInteger(options.readyTimeoutMs, 'readyTimeoutMs');
  assertPositiveInteger(options.stopTimeoutMs, 'stopTimeoutMs');
  assertPositiveInteger(options.maxReadyLineLength, 'maxReadyLineLength');
  if (options.stderrTailLength !== undefined && options.stderrTailLength !== 0)
    assertPositiveInteger(options.stderrTailLength, 'stderrTailLength');
  if (typeof readReady !== 'function') throw new TypeError('spawnReadyChild: "readReady" must be a function');
}

/**
 * Spawns `node script ...args` with stdin and stdout piped and waits for its first stdout line: JSON, parsed and
 * handed to `readReady`, whose result (or thrown error) decides. Any failure — no line within the deadline, exit
 * first, an oversized or non-JSON line (ReadyChildError), or an error from `readReady` (rethrown as is) — stops the
 * child before the promise rejects. After the ready line, stdout keeps draining so the child never blocks on a
 * full pipe.
 */
export async function spawnReadyChild<T>(options: ReadyChildOptions, readReady: (line: unknown) => T): Promise<ReadyChild<T>> {
  assertOptions(options, readReady);
  const tailLength = options.stderrTailLength ?? 0;
  const child = spawn(process.execPath, [options.script, ...options.args], {
    stdio: ['pipe', 'pipe', tailLength > 0 ? 'pipe' : 'ignore'],
    cwd: options.cwd,
    detached: options.detached === true,
  });
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-tailLength);
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= stopChild(child, options.stopTimeoutMs));
  let ready: T;
  try {
    const line = await awaitReadyLine(child, options);
    if (!line.ok) throw new ReadyChildError(line.failure, '');
    ready = readReady(line.value);
  } catch (error) {
    await stop();
    if (error instanceof ReadyChildError) {
      // 'exit' may come before the last stderr bytes: wait (bounded) for the pipe to close.
      if (child.stderr !== null) await closed(child.stderr, options.stopTimeoutMs);
      throw new ReadyChildError(error.failure, stderrTail);
    }
    throw error;
  }
  return Object.freeze({ pid: child.pid as number, ready, stop });
}

type ReadyLine = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly failure: ReadyChildFailure };

function awaitReadyLine(child: ChildProcess, options: ReadyChildOptions): Promise<ReadyLine> {
  return new Promise((resolve) => {
    let buffered = '';
    const settle = (line: ReadyLine) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onExit);
      // Keep draining its stdout so the child never blocks on a full pipe.
      child.stdout?.resume();
      resolve(line);
    };
    const timer = setTimeout(() => settle({ ok: false, failure: 'TIMEOUT' }), options.readyTimeoutMs);
    const onExit = () => settle({ ok: false, failure: 'EXITED' });
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end < 0) {
        if (buffered.length > options.maxReadyLineLength) settle({ ok: false, failure: 'OVERSIZED' });
        return;
      }
      try {
        settle({ ok: true, value: JSON.parse(buffered.slice(0, end)) as unknown });
      } catch {
        settle({ ok: false, failure: 'UNREADABLE' });
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onExit);
  });
}

function closed(stream: Readable, withinMs: number): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, withinMs);
    stream.once('close', done);
    function done(): void {
      clearTimeout(timer);
      stream.off('close', done);
      resolve();
    }
  });
}

function stopChild(child: ChildProcess, stopTimeoutMs: number): Promise<void> {
  // No pid: the spawn itself failed, so there is no process to wait for.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin?.end();
    child.kill('SIGTERM');
  });
}
