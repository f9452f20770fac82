import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * True only for the exact approval code shown (keyed by the operator's private key, docs/DESIGN.md §10), typed
 * or passed to --approve. Nothing else approves — not "yes", not the request digest's prefix. No case folding,
 * no trimming of anything but the line end.
 */
export function isApproved(answer: string, approveCode: string): boolean {
  return /^[0-9a-f]{12}$/.test(approveCode) && answer === approveCode;
}

/** The lines of a piped stdin, one reader per stream: lines that arrive before their prompt wait for it. */
interface LineReader {
  next(): Promise<string>;
}

const readers = new WeakMap<Readable, LineReader>();

function lineReader(input: Readable): LineReader {
  const known = readers.get(input);
  if (known !== undefined) return known;
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let closed = false;
  const rl = createInterface({ input, terminal: false });
  rl.on('line', (line) => {
    const w = waiting.shift();
    if (w === undefined) lines.push(line);
    else w(line);
  });
  rl.on('close', () => {
    closed = true;
    for (const w of waiting.splice(0)) w('');
  });
  const reader: LineReader = {
    next: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      // The input ended: nothing more is typed (an empty answer approves nothing).
      if (closed) return Promise.resolve('');
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
  readers.set(input, reader);
  return reader;
}

/**
 * Asks once and returns the line typed (without its line end): on the terminal, or (`terminal` false) the next line
 * of a piped stdin — one reader for the whole run, so several prompts read several lines.
 */
export function promptLine(input: Readable, output: Writable, question: string, terminal = true): Promise<string> {
  if (!terminal) {
    output.write(question);
    return lineReader(input).next();
  }
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: true });
    let answered = false;
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    rl.on('close', () => {
      if (!answered) resolve('');
    });
  });
}
