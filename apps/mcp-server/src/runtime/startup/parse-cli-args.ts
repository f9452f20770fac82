import { CodedError } from '@pfsense-mcp/foundation';

export type CliMode = 'serve' | 'help' | 'version' | 'check-config' | 'demo';

export class UsageError extends CodedError<'USAGE'> {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('USAGE', message);
  }
}

const FLAGS: Readonly<Record<string, CliMode>> = Object.freeze({
  '--help': 'help',
  '-h': 'help',
  '--version': 'version',
  '-v': 'version',
  '--check-config': 'check-config',
  '--demo': 'demo',
});

/**
 * The refusal of an unknown argument, naming the option as typed so the user sees which one: its name only
 * (never a value after `=`, which may be a secret), and only when it looks like an option.
 */
function unknownArgument(arg: string): string {
  const name = arg.split('=', 1)[0] ?? '';
  if (/^--?[A-Za-z0-9][A-Za-z0-9-]{0,39}$/.test(name)) return `pfsense-mcp: unknown option ${name} (see --help)`;
  return 'pfsense-mcp: unexpected argument: pfsense-mcp takes one option at most (see --help)';
}

/** One optional mode flag; anything else is a usage error (an argument never carries configuration). */
export function parseCliArgs(argv: readonly string[]): CliMode {
  if (argv.length === 0) return 'serve';
  if (argv.length > 1) throw new UsageError('pfsense-mcp: at most one option (see --help)');
  const arg = argv[0] ?? '';
  const mode = FLAGS[arg];
  if (mode === undefined) throw new UsageError(unknownArgument(arg));
  return mode;
}
