// Real child processes (small node scripts written at test time): the ready line, every failure, the stop path.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReadyChildError, spawnReadyChild } from '../src/index.js';
import type { ReadyChildOptions } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'foundation-ready-child-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const path = join(dir, `${name}.mjs`);
  writeFileSync(path, body);
  return path;
}
const KEEP_ALIVE = 'setInterval(() => {}, 1000);';
const READY = script(
  'ready',
  `process.stdout.write(JSON.stringify({ ready: true, pid: process.pid, args: process.argv.slice(2), cwd: process.cwd() }) + '\\n'); ${KEEP_ALIVE}`,
);
const EXITS = script('exits', `process.stderr.write('e'.repeat(5000) + 'THE-END'); process.exit(3);`);
const SILENT = script('silent', KEEP_ALIVE);
const HUGE = script('huge', `process.stdout.write('x'.repeat(5000)); ${KEEP_ALIVE}`);
const NOT_JSON = script('not-json', `process.stdout.write('hello\\n'); ${KEEP_ALIVE}`);
// Ignores SIGTERM and stdin EOF: only SIGKILL ends it.
const STUBBORN = script('stubborn', `process.on('SIGTERM', () => {}); process.stdout.write('{}\\n'); ${KEEP_ALIVE}`);

const options = (path: string, more: Partial<ReadyChildOptions> = {}): ReadyChildOptions => ({
  script: path,
  args: [],
  cwd: dir,
  readyTimeoutMs: 20_000,
  stopTimeoutMs: 5_000,
  maxReadyLineLength: 1024,
  ...more,
});
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function failureOf(promise: Promise<unknown>): Promise<ReadyChildError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReadyChildError);
  return error as ReadyChildError;
}

describe('spawnReadyChild', () => {
  it('hands the parsed ready line to readReady, passes args and cwd, and stop() ends the child once', async () => {
    const seen: unknown[] = [];
    const child = await spawnReadyChild(options(READY, { args: ['--port', '0'] }), (line) => {
      seen.push(line);
      return 'mine';
    });
    expect(child.ready).toBe('mine');
    expect(seen).toEqual([{ ready: true, pid: child.pid, args: ['--port', '0'], cwd: dir }]);
    expect(Object.isFrozen(child)).toBe(true);
    expect(alive(child.pid)).toBe(true);
    const first = child.stop();
    expect(child.stop()).toBe(first);
    await first;
    expect(alive(child.pid)).toBe(false);
    await child.stop();
  });

  it('EXITED when the child ends first; the stderr tail only when asked for, bounded to its end', async () => {
    const plain = await failureOf(spawnReadyChild(options(EXITS), () => null));
    expect(plain.failure).toBe('EXITED');
    expect(plain.message).toBe('the child exited before it was ready');
    expect(plain.stderrTail).toBe('');
    const tailed = await failureOf(spawnReadyChild(options(EXITS, { stderrTailLength: 10 }), () => null));
    expect(tailed.failure).toBe('EXITED');
    expect(tailed.stderrTail).toBe('eeeTHE-END');
    expect(tailed.message).not.toContain('THE-END');
  });

  it('TIMEOUT when no line arrives within the deadline, and the child is stopped', async () => {
    const error = await failureOf(spawnReadyChild(options(SILENT, { readyTimeoutMs: 300 }), () => null));
    expect(error.failure).toBe('TIMEOUT');
    expect(error.message).toBe('the child did not become ready in time');
  });

  it('OVERSIZED when more than the bound arrives without a newline; UNREADABLE for a line that is not JSON', async () => {
    expect((await failureOf(spawnReadyChild(options(HUGE), () => null))).failure).toBe('OVERSIZED');
    expect((await failureOf(spawnReadyChild(options(NOT_JSON), () => null))).failure).toBe('UNREADABLE');
  });

  it("rethrows readReady's own error as is, after stopping the child", async () => {
    const mine = new RangeError('not on loopback');
    let pid = 0;
    const thrown = await spawnReadyChild(options(READY), (line) => {
      pid = (line as { pid: number }).pid;
      expect(alive(pid)).toBe(true);
      throw mine;
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(thrown).toBe(mine);
    expect(alive(pid)).toBe(false);
  });

  it('stop() escalates to SIGKILL after stopTimeoutMs for a child that ignores SIGTERM and stdin EOF', async () => {
    const child = await spawnReadyChild(options(STUBBORN, { stopTimeoutMs: 200 }), (line) => line);
    expect(child.ready).toEqual({});
    await child.stop();
    expect(alive(child.pid)).toBe(false);
  });

  it('names the argument on bad input, before spawning anything', async () => {
    await expect(spawnReadyChild(options(''), () => null)).rejects.toThrow('spawnReadyChild: "script" must be a non-empty string');
    await expect(spawnReadyChild(options(READY, { args: [1 as never] }), () => null)).rejects.toThrow('"args" must be an array of strings');
    await expect(spawnReadyChild(options(READY, { cwd: '' }), () => null)).rejects.toThrow('"cwd" must be a non-empty string');
    await expect(spawnReadyChild(options(READY, { readyTimeoutMs: 0 }), () => null)).rejects.toThrow(
      '"readyTimeoutMs" must be a positive integer',
    );
    await expect(spawnReadyChild(options(READY, { stopTimeoutMs: 1.5 }), () => null)).rejects.toThrow(
      '"stopTimeoutMs" must be a positive integer',
    );
    await expect(spawnReadyChild(options(READY, { maxReadyLineLength: -1 }), () => null)).rejects.toThrow(
      '"maxReadyLineLength" must be a positive integer',
    );
    await expect(spawnReadyChild(options(READY, { stderrTailLength: -1 }), () => null)).rejects.toThrow(
      '"stderrTailLength" must be a positive integer',
    );
    await expect(spawnReadyChild(options(READY), 'no' as never)).rejects.toThrow('"readReady" must be a function');
  });
});
