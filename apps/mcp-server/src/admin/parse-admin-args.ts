import { AdminError } from './admin-error.js';

/** Options that take a value (`--dir DIR` or `--dir=DIR`). */
const VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '--dir',
  '--appliance',
  '--role',
  '--public-key',
  '--key-id',
  '--out',
  '--since',
  '--export',
  '--alias',
  '--exchange',
  '--bundle',
]);
/** Options that take none. */
const FLAG_OPTIONS: ReadonlySet<string> = new Set([
  '--json',
  '--list',
  '--all',
  '--show-targets',
  '--dry-run',
  '--blocking',
  '--accept-restore',
  '--help',
  '--requests',
]);

const MAX_ARGUMENTS = 32;
const MAX_ARGUMENT_LENGTH = 4096;

/** argv after `admin`: options (any order, anywhere) and positional words (the command, then its operands). */
export interface AdminArgs {
  readonly values: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** True when `--json` appears anywhere (so even a usage refusal answers in JSON). */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json');
}

/** Splits argv into options and positionals; an unknown option, a repeated one or a missing value is a usage error. */
export function parseAdminArgs(argv: readonly string[]): AdminArgs {
  if (argv.length > MAX_ARGUMENTS) throw AdminError.usage(`at most ${MAX_ARGUMENTS} arguments`);
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg.length > MAX_ARGUMENT_LENGTH || arg.includes('\0'))
      throw AdminError.usage(`argument ${i + 1}: at most ${MAX_ARGUMENT_LENGTH} characters, no NUL`);
    if (onlyPositionals || !arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    if (arg === '-h') {
      flags.add('--help');
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (VALUE_OPTIONS.has(name)) {
      if (values.has(name)) throw AdminError.usage(`${name}: given more than once`);
      let value: string | undefined;
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        value = argv[i + 1];
        i += 1;
      }
      if (value === undefined || value.length === 0) throw AdminError.usage(`${name}: needs a value`);
      values.set(name, value);
    } else if (FLAG_OPTIONS.has(name) && eq === -1) {
      flags.add(name);
    } else {
      throw AdminError.usage(`${name}: unknown option (see pfsense-mcp admin --help)`);
    }
  }
  return Object.freeze({ values, flags, positionals: Object.freeze(positionals) });
}

/** What one command accepts; anything else given is a usage error naming it. */
export interface CommandSpec {
  readonly name: string;
  readonly values?: readonly string[];
  readonly flags?: readonly string[];
  /** Operand names after the command words (e.g. ['FILE']); each is required. */
  readonly operands?: readonly string[];
}

/** Checks the parsed arguments against one command's spec; returns the operands in order. */
export function checkCommandArgs(args: AdminArgs, spec: CommandSpec, operands: readonly string[]): readonly string[] {
  // --appliance NAME stands for --dir wherever --dir works (select-appliance.ts).
  const values = new Set([...(spec.values ?? []), ...((spec.values ?? []).includes('--dir') ? ['--appliance'] : [])]);
  const flags = new Set([...(spec.flags ?? []), '--json']);
  for (const name of args.values.keys()) if (!values.has(name)) throw AdminError.usage(`${name}: not an option of "admin ${spec.name}"`);
  for (const name of args.flags) if (!flags.has(name)) throw AdminError.usage(`${name}: not an option of "admin ${spec.name}"`);
  const expected = spec.operands ?? [];
  if (operands.length < expected.length) throw AdminError.usage(`admin ${spec.name}: missing ${expected[operands.length]}`);
  if (operands.length > expected.length)
    throw AdminError.usage(`admin ${spec.name}: unexpected argument ${expected.length + 1} after the command`);
  return operands;
}
