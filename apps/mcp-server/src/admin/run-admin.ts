// `pfsense-mcp admin …` (docs/DESIGN.md §6): the host's commands over one write directory. Loaded only when argv[0] is
// `admin`, so serving never pays for it. Output: readable lines, or with --json one JSON object as the last line
// of stdout; a refusal is one line on stderr and a non-zero exit.
import { ArtifactFileError } from '@pfsense-mcp/coordinator';
import { AnchorError, ContractStoreError } from '@pfsense-mcp/contract-store';
import { KeyFileError } from '@pfsense-mcp/crypto';
import { PinnedAuthoritiesFileError } from '../runtime/write-directory/pinned-authorities-file.js';
import { WriteDirectoryError } from '../runtime/write-directory/write-directory-error.js';
import { writeCliAnswer, writeCliOutput } from '../runtime/startup/write-cli-output.js';
import { ADMIN_HELP_TEXT } from './admin-help-text.js';
import type { AdminContext } from './admin-context.js';
import { AdminError, AdminExit } from './admin-error.js';
import { asciiJson } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { inboxAddCommand } from './inbox-add-command.js';
import { initCommand } from './init-command.js';
import { purgeCommand } from './purge-command.js';
import { reanchorCommand } from './reanchor-command.js';
import { rotateMasterKeyCommand } from './rotate-master-key-command.js';
import { rotateServerKeyCommand } from './rotate-server-key-command.js';
import { adminErrorOf } from './open-write-directory.js';
import { checkCommandArgs, parseAdminArgs, wantsJson } from './parse-admin-args.js';
import { selectAppliance } from './select-appliance.js';
import type { AdminArgs, CommandSpec } from './parse-admin-args.js';
import { trustCommand, untrustCommand } from './trust-command.js';
import { artifactsCleanCommand, artifactsListCommand } from './artifacts-command.js';
import { auditExportCommand, auditVerifyCommand } from './audit-command.js';
import { backupCommand } from './backup-command.js';
import { cancelCommand, expireCommand } from './contract-commands.js';
import { migrateCommand } from './migrate-command.js';
import { emitCommand, resumeCommand, rollbackCommand } from './recovery-commands.js';
import { statusCommand } from './status-command.js';

interface Command {
  readonly spec: CommandSpec;
  readonly run: (args: AdminArgs, ctx: AdminContext, operands: readonly string[]) => AdminResult | Promise<AdminResult>;
}

/** Command words (one or two) → what they accept and run. */
const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['init', { spec: { name: 'init', values: ['--dir', '--exchange'] }, run: (a, c) => initCommand(a, c) }],
  [
    'trust',
    {
      spec: { name: 'trust', values: ['--dir', '--role', '--public-key', '--bundle'], flags: ['--list'] },
      run: (a, c) => trustCommand(a, c),
    },
  ],
  ['untrust', { spec: { name: 'untrust', values: ['--dir', '--key-id'] }, run: (a, c) => untrustCommand(a, c) }],
  ['reanchor', { spec: { name: 'reanchor', values: ['--dir'], flags: ['--accept-restore'] }, run: (a, c) => reanchorCommand(a, c) }],
  ['purge', { spec: { name: 'purge', values: ['--dir'] }, run: (a, c) => purgeCommand(a, c) }],
  ['rotate server-key', { spec: { name: 'rotate server-key', values: ['--dir'] }, run: (a, c) => rotateServerKeyCommand(a, c) }],
  [
    'inbox add',
    { spec: { name: 'inbox add', values: ['--dir'], operands: ['FILE'] }, run: (a, c, o) => inboxAddCommand(a, c, o[0] ?? '') },
  ],
  [
    'status',
    { spec: { name: 'status', values: ['--dir', '--exchange'], flags: ['--all', '--show-targets'] }, run: (a, c) => statusCommand(a, c) },
  ],
  ['audit verify', { spec: { name: 'audit verify', values: ['--dir', '--export'] }, run: (a, c) => auditVerifyCommand(a, c) }],
  ['audit export', { spec: { name: 'audit export', values: ['--dir', '--since', '--out'] }, run: (a, c) => auditExportCommand(a, c) }],
  ['artifacts list', { spec: { name: 'artifacts list', values: ['--dir'] }, run: (a, c) => artifactsListCommand(a, c) }],
  [
    'artifacts clean',
    {
      spec: { name: 'artifacts clean', values: ['--dir', '--alias'], flags: ['--dry-run', '--blocking', '--requests'] },
      run: (a, c) => artifactsCleanCommand(a, c),
    },
  ],
  ['backup', { spec: { name: 'backup', values: ['--dir', '--out'] }, run: (a, c) => backupCommand(a, c) }],
  ['expire', { spec: { name: 'expire', values: ['--dir'] }, run: (a, c) => expireCommand(a, c) }],
  ['cancel', { spec: { name: 'cancel', values: ['--dir'], operands: ['CONTRACT_ID'] }, run: (a, c, o) => cancelCommand(a, c, o[0] ?? '') }],
  [
    'rollback',
    { spec: { name: 'rollback', values: ['--dir'], operands: ['CONTRACT_ID'] }, run: (a, c, o) => rollbackCommand(a, c, o[0] ?? '') },
  ],
  [
    'reconcile emit',
    {
      spec: { name: 'reconcile emit', values: ['--dir'], operands: ['CONTRACT_ID'] },
      run: (a, c, o) => emitCommand(a, c, o[0] ?? '', 'reconciliation'),
    },
  ],
  [
    'reconcile resume',
    {
      spec: { name: 'reconcile resume', values: ['--dir'], operands: ['CONTRACT_ID'] },
      run: (a, c, o) => resumeCommand(a, c, o[0] ?? '', 'reconciliation'),
    },
  ],
  [
    'release emit',
    {
      spec: { name: 'release emit', values: ['--dir'], operands: ['CONTRACT_ID'] },
      run: (a, c, o) => emitCommand(a, c, o[0] ?? '', 'release'),
    },
  ],
  [
    'release resume',
    {
      spec: { name: 'release resume', values: ['--dir'], operands: ['CONTRACT_ID'] },
      run: (a, c, o) => resumeCommand(a, c, o[0] ?? '', 'release'),
    },
  ],
  ['migrate', { spec: { name: 'migrate', values: ['--dir', '--out'] }, run: (a, c) => migrateCommand(a, c) }],
  ['rotate master-key', { spec: { name: 'rotate master-key', values: ['--dir'] }, run: (a, c) => rotateMasterKeyCommand(a, c) }],
]);

const GROUPS: ReadonlySet<string> = new Set([...COMMANDS.keys()].filter((k) => k.includes(' ')).map((k) => k.split(' ')[0] ?? ''));

function findCommand(positionals: readonly string[]): { name: string; command: Command; operands: readonly string[] } {
  const first = positionals[0];
  if (first === undefined) throw AdminError.usage('missing COMMAND (see pfsense-mcp admin --help)');
  if (GROUPS.has(first)) {
    const name = `${first} ${positionals[1] ?? ''}`;
    const command = COMMANDS.get(name);
    if (command === undefined) throw AdminError.usage(`admin ${first}: unknown or missing subcommand (see pfsense-mcp admin --help)`);
    return { name, command, operands: positionals.slice(2) };
  }
  const command = COMMANDS.get(first);
  if (command === undefined) throw AdminError.usage('unknown COMMAND (see pfsense-mcp admin --help)');
  return { name: first, command, operands: positionals.slice(1) };
}

/** Library errors carry safe, value-free messages (a path and a rule); anything else is reported by class only. */
function refusalOf(error: unknown): AdminError {
  const mapped = adminErrorOf(error);
  if (mapped instanceof AdminError) return mapped;
  if (mapped instanceof PinnedAuthoritiesFileError) return new AdminError(`AUTHORITIES_${mapped.code}`, mapped.message);
  if (mapped instanceof WriteDirectoryError) return new AdminError(`WRITE_DIR_${mapped.code}`, mapped.message);
  if (mapped instanceof KeyFileError) return new AdminError(`KEY_FILE_${mapped.code}`, mapped.message);
  if (mapped instanceof ContractStoreError || mapped instanceof AnchorError) {
    return new AdminError(`STORE_${String((mapped as { code?: unknown }).code ?? 'ERROR')}`, `store refused: ${mapped.message}`);
  }
  if (mapped instanceof ArtifactFileError) return new AdminError(`ARTIFACT_FILE_${mapped.code}`, mapped.message);
  const name = mapped instanceof Error ? mapped.name : 'error';
  return new AdminError('INTERNAL', `unexpected failure (${name})`);
}

/** Runs one admin command; returns the exit code. Never throws. */
export async function runAdmin(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const json = wantsJson(argv);
  let label = 'pfsense-mcp admin';
  try {
    const args = parseAdminArgs(argv);
    if (args.flags.has('--help') || (args.positionals.length === 0 && args.values.size === 0 && !json)) {
      writeCliAnswer(ADMIN_HELP_TEXT);
      return AdminExit.OK;
    }
    const { name, command, operands } = findCommand(args.positionals);
    label = `pfsense-mcp admin ${name}`;
    checkCommandArgs(args, command.spec, operands);
    const selected = selectAppliance(args, { env, now: () => Date.now() }, command.spec);
    const result = await command.run(selected.args, selected.ctx, operands);
    const code = result.exitCode ?? AdminExit.OK;
    if (json) writeCliAnswer(asciiJson({ ok: code === AdminExit.OK, ...result.json }));
    else writeCliAnswer(result.text.join('\n'));
    return code;
  } catch (error) {
    const refusal = refusalOf(error);
    writeCliOutput(`${label}: ${refusal.message.replace(/[\r\n]+/g, ' ')}`);
    if (json) writeCliAnswer(asciiJson({ ok: false, error: { code: refusal.code, message: refusal.message } }));
    return refusal.exitCode;
  }
}
