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

/** Asks once (on the terminal, or on a piped stdin with `terminal` false) and returns the line typed (without its line end). */
export function promptLine(input: Readable, output: Writable, question: string, terminal = true): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal });
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
