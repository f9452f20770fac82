export type CliMode = 'serve' | 'help' | 'version' | 'check-config' | 'demo';

export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'USAGE';
}

const FLAGS: Readonly<Record<string, CliMode>> = Object.freeze({
  '--help': 'help',
  '-h': 'help',
  '--version': 'version',
  '-v': 'version',
  '--check-config': 'check-config',
  '--demo': 'demo',
});

/** One optional mode flag; anything else is a usage error (an argument never carries configuration). */
export function parseCliArgs(argv: readonly string[]): CliMode {
  if (argv.length === 0) return 'serve';
  if (argv.length > 1) throw new UsageError('pfsense-mcp: at most one option (see --help)');
  const mode = FLAGS[argv[0] ?? ''];
  if (mode === undefined) throw new UsageError('pfsense-mcp: unknown option (see --help)');
  return mode;
}
