// A raw stdio client for the BUILT server: writes lines (or bytes) exactly as given and reads every reply line, so
// a test can send what an SDK client never would (garbage, duplicate ids, requests before initialize).
import { readFileSync } from 'node:fs';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnBuilt } from './built-server.js';

export type Reply = Record<string, unknown> & {
  readonly id?: unknown;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: { code?: string } };
};

export interface RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every reply line so far, parsed, in arrival order. */
  readonly replies: Reply[];
  readonly stderr: () => string;
  /** Writes `line` plus a newline (a string), or the bytes as given (a Buffer). */
  send(line: string | Buffer): void;
  /** Resolves once `predicate` holds over the replies (checked at each reply), or rejects after `timeoutMs`. */
  until(predicate: (replies: readonly Reply[]) => boolean, timeoutMs?: number): Promise<void>;
  /** The replies carrying `id`, once there are `count` of them. */
  repliesTo(id: unknown, count?: number): Promise<Reply[]>;
  /** The server's resident set size now, in MiB (Linux /proc). */
  rssMiB(): number;
  /** Ends stdin and waits for the exit code. */
  close(): Promise<number | null>;
}

export function spawnRaw(env: Record<string, string>): RawServer {
  const child = spawnBuilt(env);
  const replies: Reply[] = [];
  let stderr = '';
  let buffer = '';
  const waiters = new Set<() => void>();
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // A server that exits early makes a pending write fail with EPIPE: the test's assertions report it, not a crash.
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buffer.slice(0, at)) as Reply);
      buffer = buffer.slice(at + 1);
    }
    for (const check of [...waiters]) check();
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const until = (predicate: (r: readonly Reply[]) => boolean, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such replies within ${timeoutMs} ms; ${replies.length} so far; stderr: ${stderr.slice(-500)}`));
      }, timeoutMs);
      const check = () => {
        if (!predicate(replies)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return {
    child,
    replies,
    stderr: () => stderr,
    send: (line) => {
      child.stdin.write(typeof line === 'string' ? `${line}\n` : line);
    },
    until,
    repliesTo: async (id, count = 1) => {
      await until((r) => r.filter((x) => x.id === id).length >= count);
      return replies.filter((x) => x.id === id);
    },
    rssMiB: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${String(child.pid)}/status`, 'utf8'))?.[1] ?? 'NaN') / 1024,
    close: () => {
      child.stdin.end();
      return exited;
    },
  };
}

/** The complete JSON lines of a stderr capture (the last one may still be arriving). */
export function logLines(stderr: string): Record<string, unknown>[] {
  const complete = stderr.slice(0, stderr.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
