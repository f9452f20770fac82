import { SCENARIO_IDS, isScenarioId } from './scenario-definition.js';
import type { ScenarioId } from './scenario-definition.js';
import { CodedError } from '@pfsense-mcp/foundation';

/** A command-line refusal (exit 2). The message never echoes more than a short, cleaned token. */
export class UsageError extends CodedError<'USAGE'> {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('USAGE', message);
  }
}

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'list'; readonly json: boolean }
  | {
      readonly kind: 'run';
      readonly ids: readonly ScenarioId[];
      readonly json: boolean;
      readonly reportDir: string | null;
      /** Against a disposable appliance: the lab config and the gate receipt (both or neither). */
      readonly lab: { readonly configFile: string; readonly receiptFile: string } | null;
    }
  | { readonly kind: 'request-gate'; readonly configFile: string; readonly ids: readonly ScenarioId[]; readonly json: boolean }
  /** Continue an appliance run that stopped for the owner's signature (its id was printed then). */
  | {
      readonly kind: 'resume';
      readonly configFile: string;
      readonly runId: string;
      readonly json: boolean;
      readonly reportDir: string | null;
    };

const shown = (token: string): string => JSON.stringify(token.replace(/[^\x20-\x7e]/g, '?').slice(0, 40));

/**
 * The closed command line: scenario ids, --all, --json, --report-dir DIR, --list, --help, and against an
 * appliance --lab-config FILE with --gate-receipt FILE, --request-gate --scenarios LIST or --resume RUN_ID.
 * Nothing else — no endpoint, method, payload, locator, description, fault or store path — is accepted.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const ids: ScenarioId[] = [];
  let all = false;
  let json = false;
  let list = false;
  let help = false;
  let reportDir: string | null = null;
  let configFile: string | null = null;
  let receiptFile: string | null = null;
  let requestGate = false;
  let scenarioList: string | null = null;
  let runId: string | null = null;
  const pathValue = (flag: string, v: string): string => {
    if (v.length === 0 || v.length > 4096 || v.includes('\0')) throw new UsageError(`${flag} needs a file path`);
    return v;
  };
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
        if (configFile !== null) throw new UsageError('--lab-config given twice');
        const [v, j] = value('--lab-config', inline, i);
        i = j;
        configFile = pathValue('--lab-config', v);
        break;
      }
      case '--gate-receipt': {
        if (receiptFile !== null) throw new UsageError('--gate-receipt given twice');
        const [v, j] = value('--gate-receipt', inline, i);
        i = j;
        receiptFile = pathValue('--gate-receipt', v);
        break;
      }
      case '--request-gate':
        noValue();
        requestGate = true;
        break;
      case '--scenarios': {
        if (scenarioList !== null) throw new UsageError('--scenarios given twice');
        const [v, j] = value('--scenarios', inline, i);
        i = j;
        scenarioList = v;
        break;
      }
      case '--resume': {
        if (runId !== null) throw new UsageError('--resume given twice');
        const [v, j] = value('--resume', inline, i);
        i = j;
        if (!/^[0-9a-f]{32}$/.test(v)) throw new UsageError('--resume needs the run id printed when the run stopped (32 hex)');
        runId = v;
        break;
      }
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown flag ${shown(flag)}; see --help`);
        throw new UsageError(`unexpected argument ${shown(arg)}; scenarios are selected with --scenario ID or --all`);
    }
  }
  if (help) return { kind: 'help' };
  if (list) {
    if (
      all ||
      ids.length > 0 ||
      reportDir !== null ||
      configFile !== null ||
      receiptFile !== null ||
      requestGate ||
      scenarioList !== null ||
      runId !== null
    ) {
      throw new UsageError('--list takes no scenario, report directory or lab config');
    }
    return { kind: 'list', json };
  }
  if (runId !== null) {
    if (configFile === null) throw new UsageError('--resume needs --lab-config FILE (the lab config the run started with)');
    if (all || ids.length > 0 || receiptFile !== null || requestGate || scenarioList !== null) {
      throw new UsageError('--resume takes only --lab-config, --json and --report-dir (the run keeps its scenarios and gate receipt)');
    }
    return { kind: 'resume', configFile, runId, json, reportDir };
  }
  if (requestGate) {
    if (configFile === null) throw new UsageError('--request-gate needs --lab-config FILE');
    if (scenarioList === null) throw new UsageError('--request-gate needs --scenarios ID,ID|all');
    if (all || ids.length > 0 || reportDir !== null || receiptFile !== null)
      throw new UsageError('--request-gate takes only --lab-config, --scenarios and --json');
    return { kind: 'request-gate', configFile, ids: Object.freeze(parseScenarioList(scenarioList)), json };
  }
  if (scenarioList !== null) throw new UsageError('--scenarios belongs to --request-gate; a run selects with --scenario ID or --all');
  if ((configFile === null) !== (receiptFile === null))
    throw new UsageError('a run against a disposable appliance needs both --lab-config FILE and --gate-receipt FILE');
  if (all && ids.length > 0) throw new UsageError('--all and --scenario exclude each other');
  if (!all && ids.length === 0) throw new UsageError('choose --scenario ID (repeatable) or --all; --list shows the scenarios');
  const selected = all ? [...SCENARIO_IDS] : SCENARIO_IDS.filter((id) => ids.includes(id));
  const lab = configFile === null || receiptFile === null ? null : { configFile, receiptFile };
  return { kind: 'run', ids: Object.freeze(selected), json, reportDir, lab };
}

function parseScenarioList(list: string): ScenarioId[] {
  if (list === 'all') return [...SCENARIO_IDS];
  const out: ScenarioId[] = [];
  for (const id of list.split(',')) {
    if (!isScenarioId(id))
      throw new UsageError(`--scenarios: unknown scenario ${shown(id)}; --list shows the ${SCENARIO_IDS.length} scenarios`);
    if (!out.includes(id)) out.push(id);
  }
  return SCENARIO_IDS.filter((id) => out.includes(id));
}
