import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * True only for the exact approval: the 12-hex prefix of the digest that was shown (or, typed at the
 * interactive prompt, the word "yes"). No case folding, no trimming of anything but the line end.
 */
export function isApproved(answer: string, approvePrefix: string, interactive: boolean): boolean {
  if (!/^[0-9a-f]{12}$/.test(approvePrefix)) return false;
  if (answer === approvePrefix) return true;
  return interactive && answer === 'yes';
}

/** Asks once on the terminal and returns the line typed (without its line end). */
export function promptLine(input: Readable, output: Writable, question: string): Promise<string> {
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
