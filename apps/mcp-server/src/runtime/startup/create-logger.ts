import { assertFunction } from '@pfsense-mcp/foundation';
import type { LogLevel } from '../config/load-config.js';
import { APPLIANCE_NAME } from '../config/appliance-config.js';

/** Lifecycle events; a closed set so a log line can never carry free text. */
export const LOG_EVENTS = Object.freeze([
  'server_started',
  'server_stopping',
  'server_stopped',
  'startup_failed',
  'tool_call',
  'demo_simulator_started',
  'demo_simulator_stopped',
  'transport_error',
  'message_refused',
  'startup_queue_full',
  'write_tool_absent',
  'write_runtime_ready',
  'write_runtime_closed',
  'write_artifacts_piled_up',
] as const);
export type LogEvent = (typeof LOG_EVENTS)[number];

export const OUTCOME_CLASSES = Object.freeze(['ok', 'truncated', 'client_error', 'upstream_error', 'internal_error', 'cancelled'] as const);
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];

/**
 * The only fields a log line may carry. No field takes free text: names and codes are checked against
 * token patterns at runtime too, so a secret, an argument value or a response body cannot reach a log line
 * even through a wrong cast.
 */
export interface LogFields {
  readonly tool?: string;
  readonly durationMs?: number;
  readonly outcome?: OutcomeClass;
  readonly code?: string;
  readonly profile?: string;
  readonly toolCount?: number;
  readonly version?: string;
  readonly signal?: string;
  /** Names of fields a READ result nulled for type drift (`field`, `nested.field`); never values. */
  readonly drift?: readonly string[];
  /** A write gate (granted, allow_listed, runtime_enabled). */
  readonly gate?: string;
  /** The broken rule in fixed words (WriteGateError.rule): printable ASCII only, never a value. */
  readonly rule?: string;
  readonly reconciled?: number;
  readonly expired?: number;
  /** Artifact files in the inbox / outbox (counts only). */
  readonly inboxFiles?: number;
  readonly outboxFiles?: number;
  /** The inventory appliance a line is about (APPLIANCE_NAME, a safe token). */
  readonly appliance?: string;
}

export interface Logger {
  readonly level: LogLevel;
  log(level: Exclude<LogLevel, 'silent'>, event: LogEvent, fields?: LogFields): void;
  toolCall(fields: {
    readonly tool: string;
    readonly durationMs: number;
    readonly outcome: OutcomeClass;
    readonly code?: string;
    readonly drift?: readonly string[];
  }): void;
}

const RANK: Readonly<Record<LogLevel, number>> = Object.freeze({ debug: 10, info: 20, warn: 30, error: 40, silent: 100 });
const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
const VERSION = /^[0-9A-Za-z.+-]{1,32}$/;
const SIGNAL = /^SIG[A-Z0-9]{1,10}$/;
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63}){0,3}$/;
/** A drift list is bounded like every other field: a pathological response cannot grow a log line. */
const MAX_DRIFT_NAMES = 64;
const RULE = /^[\x20-\x7e]{1,400}$/;

export type LogSink = (line: string) => void;

/** Writes to stderr (fd 2) — stdout is the MCP channel. A failing stderr never takes the server down. */
export const stderrSink: LogSink = (line) => {
  try {
    process.stderr.write(line);
  } catch {
    // stderr closed: logging is best effort by design.
  }
};

export function createLogger(level: LogLevel, sink: LogSink = stderrSink, now: () => Date = () => new Date()): Logger {
  if (!(level in RANK)) throw new TypeError('createLogger: "level" must be a LogLevel');
  assertFunction(sink, 'createLogger: "sink"');
  const threshold = RANK[level];

  const log: Logger['log'] = (lineLevel, event, fields = {}) => {
    if (RANK[lineLevel] < threshold) return;
    const line: Record<string, string | number | readonly string[]> = {
      ts: now().toISOString(),
      level: lineLevel,
      event: (LOG_EVENTS as readonly string[]).includes(event) ? event : 'unknown_event',
    };
    if (fields.appliance !== undefined) line['appliance'] = APPLIANCE_NAME.test(fields.appliance) ? fields.appliance : 'unknown';
    if (fields.tool !== undefined) line['tool'] = NAME.test(fields.tool) ? fields.tool : 'unknown_tool';
    if (fields.durationMs !== undefined && Number.isFinite(fields.durationMs)) {
      line['duration_ms'] = Math.round(fields.durationMs * 100) / 100;
    }
    if (fields.outcome !== undefined) {
      line['outcome'] = (OUTCOME_CLASSES as readonly string[]).includes(fields.outcome) ? fields.outcome : 'internal_error';
    }
    if (fields.code !== undefined) line['code'] = CODE.test(fields.code) ? fields.code : 'UNKNOWN';
    if (fields.profile !== undefined) line['profile'] = NAME.test(fields.profile) ? fields.profile : 'unknown';
    if (fields.toolCount !== undefined && Number.isSafeInteger(fields.toolCount)) line['tool_count'] = fields.toolCount;
    if (fields.version !== undefined && VERSION.test(fields.version)) line['version'] = fields.version;
    if (fields.signal !== undefined && SIGNAL.test(fields.signal)) line['signal'] = fields.signal;
    if (Array.isArray(fields.drift) && fields.drift.length > 0) {
      const names = fields.drift.slice(0, MAX_DRIFT_NAMES).map((n) => (typeof n === 'string' && FIELD_PATH.test(n) ? n : 'unknown_field'));
      line['drift'] = names;
      if (fields.drift.length > MAX_DRIFT_NAMES) line['drift_count'] = fields.drift.length;
    }
    if (fields.gate !== undefined) line['gate'] = NAME.test(fields.gate) ? fields.gate : 'unknown';
    if (fields.rule !== undefined && RULE.test(fields.rule)) line['rule'] = fields.rule;
    if (fields.reconciled !== undefined && Number.isSafeInteger(fields.reconciled)) line['reconciled'] = fields.reconciled;
    if (fields.expired !== undefined && Number.isSafeInteger(fields.expired)) line['expired'] = fields.expired;
    if (fields.inboxFiles !== undefined && Number.isSafeInteger(fields.inboxFiles)) line['inbox_files'] = fields.inboxFiles;
    if (fields.outboxFiles !== undefined && Number.isSafeInteger(fields.outboxFiles)) line['outbox_files'] = fields.outboxFiles;
    sink(`${JSON.stringify(line)}\n`);
  };

  return Object.freeze({
    level,
    log,
    toolCall: (f: Parameters<Logger['toolCall']>[0]) => {
      const outcome = f.outcome;
      log(outcome === 'internal_error' ? 'error' : outcome === 'ok' || outcome === 'truncated' ? 'info' : 'warn', 'tool_call', f);
    },
  });
}
