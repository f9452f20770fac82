import { parseArgs } from 'node:util';
import { ExitCode } from './exit-code.js';
import { SignerError } from './signer-error.js';

export type Command = 'keygen' | 'review' | 'sign' | 'approve' | 'verify' | 'help' | 'version';

export interface CliArgs {
  readonly command: Command;
  readonly file: string | undefined;
  readonly role: string | undefined;
  readonly out: string | undefined;
  readonly key: string | undefined;
  /** review/sign/approve: a directory of key files; the one of the role the request needs is used. */
  readonly keys: string | undefined;
  readonly serverKey: string | undefined;
  readonly approve: string | undefined;
  readonly outcome: string | undefined;
  readonly request: string | undefined;
  readonly pins: readonly string[];
  readonly json: boolean;
  readonly noColor: boolean;
  /** review/sign: every digest in full. */
  readonly full: boolean;
  /** review/sign: every member of the alias on its own line, however many. */
  readonly members: boolean;
  readonly help: boolean;
}

const COMMANDS: readonly Command[] = ['keygen', 'review', 'sign', 'approve', 'verify', 'help'];
// `version` is only the --version flag, never a command word.

/** Strict parsing: unknown flags, repeated single flags and stray positionals are usage errors. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        role: { type: 'string' },
        out: { type: 'string' },
        key: { type: 'string' },
        keys: { type: 'string' },
        'server-key': { type: 'string' },
        approve: { type: 'string' },
        outcome: { type: 'string' },
        request: { type: 'string' },
        pin: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        full: { type: 'boolean' },
        members: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new SignerError(ExitCode.USAGE, 'USAGE', `bad command line${typeof code === 'string' ? ` (${code})` : ''}; see --help`);
  }
  const [first, file, ...extra] = parsed.positionals;
  const v = parsed.values;
  if (first === undefined) {
    if (v.help === true) return build('help', undefined);
    if (v.version === true) return build('version', undefined);
    throw new SignerError(ExitCode.USAGE, 'USAGE', 'missing command; see --help');
  }
  if (!(COMMANDS as readonly string[]).includes(first)) throw new SignerError(ExitCode.USAGE, 'USAGE', 'unknown command; see --help');
  if (extra.length > 0) throw new SignerError(ExitCode.USAGE, 'USAGE', 'too many arguments; see --help');
  for (const [name, value] of Object.entries(v)) {
    if (typeof value === 'string' && value.length === 0) throw new SignerError(ExitCode.USAGE, 'USAGE', `--${name} must not be empty`);
  }
  const reviews = first === 'review' || first === 'sign' || first === 'approve';
  if ((v.full === true || v.members === true) && !reviews) {
    throw new SignerError(ExitCode.USAGE, 'USAGE', '--full and --members are for review, sign and approve; see --help');
  }
  if (v.keys !== undefined && !reviews) {
    throw new SignerError(ExitCode.USAGE, 'USAGE', '--keys is for review, sign and approve; see --help');
  }
  return build(first as Command, file);

  function build(command: Command, f: string | undefined): CliArgs {
    return Object.freeze({
      command,
      file: f,
      role: v.role,
      out: v.out,
      key: v.key,
      keys: v.keys,
      serverKey: v['server-key'],
      approve: v.approve,
      outcome: v.outcome,
      request: v.request,
      pins: Object.freeze([...(v.pin ?? [])]),
      json: v.json === true,
      noColor: v['no-color'] === true,
      full: v.full === true,
      members: v.members === true,
      help: v.help === true,
    });
  }
}
