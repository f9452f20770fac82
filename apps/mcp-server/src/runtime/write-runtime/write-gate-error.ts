import { CodedError } from '@pfsense-mcp/foundation';

/**
 * The three independent conditions of the write tool (docs/DESIGN.md §1, §6): the profile grants ALIAS_WRITE,
 * the alias PATCH is in WriteEndpoints, and the write runtime was fully constructed.
 */
export const WriteGate = Object.freeze({
  GRANTED: 'granted',
  ALLOW_LISTED: 'allow_listed',
  RUNTIME: 'runtime_enabled',
} as const);
export type WriteGate = (typeof WriteGate)[keyof typeof WriteGate];

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
const ERROR_CLASS = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/**
 * Why the write tool is absent: the gate that failed, a stable code, the rule in fixed words and the class of
 * the error that caused it. Never a value: no key, description, file content or response text — `rule` is a
 * sentence from a fixed table (it may name a variable, a file of the write layout or a command).
 */
export class WriteGateError extends CodedError<string> {
  override readonly name = 'WriteGateError';
  readonly gate: WriteGate;
  readonly rule: string;
  /** The named error class behind it (e.g. StoreRollbackError), or null. */
  readonly errorClass: string | null;

  constructor(gate: WriteGate, code: string, rule: string, errorClass: string | null = null) {
    const safeCode = CODE.test(code) ? code : 'UNKNOWN';
    super(safeCode, `write tool absent (${gate}, ${safeCode}): ${rule}`);
    this.gate = gate;
    this.rule = rule;
    this.errorClass = errorClass !== null && ERROR_CLASS.test(errorClass) ? errorClass : null;
  }
}
