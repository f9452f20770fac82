import { SCENARIO_IDS, isScenarioId } from './scenario-definition.js';
import type { ScenarioId } from './scenario-definition.js';

/** A command-line refusal (exit 2). The message never echoes more than a short, cleaned token. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'list'; readonly json: boolean }
  | { readonly kind: 'run'; readonly ids: readonly ScenarioId[]; readonly json: boolean; readonly reportDir: string | null };

const shown = (token: string): string => JSON.stringify(token.replace(/[^\x20-\x7e]/g, '?').slice(0, 40));

/**
 * The closed command line: scenario ids, --all, --json, --report-dir DIR, --list, --help, and --lab-config
 * FILE (refused: this build targets the simulator only). Nothing else — no endpoint, method, payload,
 * locator, description, fault or store path — is accepted.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const ids: ScenarioId[] = [];
  let all = false;
  let json = false;
  let list = false;
  let help = false;
  let reportDir: string | null = null;
  const value = (flag: string, inline: string | undefined, i: number): [string, number] => {
    if (inline !== undefined) return [inline, i];
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    return [next, i + 1];
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const noValue = () => {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
    };
    switch (flag) {
      case '--help':
      case '-h':
        noValue();
        help = true;
        break;
      case '--list':
        noValue();
        list = true;
        break;
      case '--json':
        noValue();
        json = true;
        break;
      case '--all':
        noValue();
        all = true;
        break;
      case '--scenario': {
        const [id, j] = value('--scenario', inline, i);
        i = j;
        if (!isScenarioId(id)) throw new UsageError(`unknown scenario ${shown(id)}; --list shows the ${SCENARIO_IDS.length} scenarios`);
        if (!ids.includes(id)) ids.push(id);
        break;
      }
      case '--report-dir': {
        if (reportDir !== null) throw new UsageError('--report-dir given twice');
        const [dir, j] = value('--report-dir', inline, i);
        i = j;
        if (dir.length === 0 || dir.length > 4096 || dir.includes('\0')) throw new UsageError('--report-dir needs a directory path');
        reportDir = dir;
        break;
      }
      case '--lab-config': {
        value('--lab-config', inline, i);
        throw new UsageError('--lab-config: a disposable test appliance is not supported by this build; the target is the bundled simulator');
      }
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown flag ${shown(flag)}; see --help`);
        throw new UsageError(`unexpected argument ${shown(arg)}; scenarios are selected with --scenario ID or --all`);
    }
  }
  if (help) return { kind: 'help' };
  if (list) {
    if (all || ids.length > 0 || reportDir !== null) throw new UsageError('--list takes no scenario or report directory');
    return { kind: 'list', json };
  }
  if (all && ids.length > 0) throw new UsageError('--all and --scenario exclude each other');
  if (!all && ids.length === 0) throw new UsageError('choose --scenario ID (repeatable) or --all; --list shows the scenarios');
  const selected = all ? [...SCENARIO_IDS] : SCENARIO_IDS.filter((id) => ids.includes(id));
  return { kind: 'run', ids: Object.freeze(selected), json, reportDir };
}
