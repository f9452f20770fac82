import type { Readable, Writable } from 'node:stream';
import type { CliArgs } from './parse-cli-args.js';
import type { Style } from './terminal-style.js';

/** What a command may touch: its parsed arguments, the three streams, whether they are terminals, a clock. */
export interface CliContext {
  readonly args: CliArgs;
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly interactive: boolean;
  readonly style: Style;
  readonly now: () => number;
}
