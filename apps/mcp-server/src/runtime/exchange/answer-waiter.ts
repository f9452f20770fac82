// What a call that waits (`wait_seconds`, docs/DESIGN.md §6) waits on: the answer to its pending request arriving
// in the inbox — installed there by `admin inbox add`, or picked up from the exchange folder. File-system events
// on the inbox and answers/ wake it at once; a short poll covers folders whose events do not arrive (network
// shares). It holds no store, lock or upstream slot: it only looks at file names.
import { lstatSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { awaitedInboxName } from '@pfsense-mcp/coordinator';
import type { AwaitAnswer } from '../../tools/wait-for-answer.js';
import type { ExchangeFolder } from './exchange-folder.js';

/** The fallback poll of the inbox and answers/ while a call waits. */
const POLL_MS = 1000;

export interface AnswerWaiter {
  readonly awaitAnswer: AwaitAnswer;
  /** Ends every wait now (shutdown): each answers false. */
  close(): void;
}

export function createAnswerWaiter(options: {
  readonly inboxDir: string;
  readonly exchange: ExchangeFolder | null;
  readonly clock: () => number;
}): AnswerWaiter {
  const { inboxDir, exchange, clock } = options;
  const waits = new Set<(arrived: boolean) => void>();
  let closed = false;

  const inInbox = (name: string): boolean => {
    try {
      return lstatSync(join(inboxDir, name)).isFile();
    } catch {
      return false;
    }
  };

  const awaitAnswer: AwaitAnswer = (pending, untilMs, signal) => {
    const awaited = awaitedInboxName(pending);
    if (awaited === null || closed || signal.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const watchers: FSWatcher[] = [];
      let done = false;
      let scheduled = false;
      const finish = (arrived: boolean): void => {
        if (done) return;
        done = true;
        for (const w of watchers) w.close();
        clearInterval(poll);
        clearTimeout(deadline);
        signal.removeEventListener('abort', onAbort);
        waits.delete(finish);
        resolve(arrived);
      };
      const check = (): void => {
        if (done) return;
        exchange?.pickup();
        if (inInbox(awaited)) finish(true);
      };
      // A burst of events (a sync tool writing many files) is one check.
      const onEvent = (): void => {
        if (scheduled || done) return;
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          check();
        });
      };
      const onAbort = (): void => finish(false);
      for (const dir of exchange === null ? [inboxDir] : [inboxDir, exchange.layout.answersDir]) {
        try {
          const w = watch(dir, { persistent: false }, onEvent);
          w.on('error', () => undefined);
          watchers.push(w);
        } catch {
          // No events for this folder: the poll still sees it.
        }
      }
      const poll = setInterval(check, POLL_MS);
      poll.unref();
      const deadline = setTimeout(() => finish(false), Math.max(0, untilMs - clock()));
      signal.addEventListener('abort', onAbort);
      waits.add(finish);
      check();
    });
  };

  return Object.freeze({
    awaitAnswer,
    close: () => {
      closed = true;
      for (const finish of [...waits]) finish(false);
    },
  });
}
