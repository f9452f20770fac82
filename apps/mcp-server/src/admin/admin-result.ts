import { terminalSafeText } from '@pfsense-mcp/foundation';

/** What a command answers: the readable lines and the JSON object (without `ok`, which the runner adds). */
export interface AdminResult {
  readonly text: readonly string[];
  readonly json: Readonly<Record<string, unknown>>;
  /** Non-zero when the command ran but what it checked does not hold (e.g. `audit verify` found a failure). */
  readonly exitCode?: number;
}

export function adminResult(text: readonly string[], json: Readonly<Record<string, unknown>>, exitCode = 0): AdminResult {
  return Object.freeze({ text: Object.freeze([...text]), json: Object.freeze({ ...json }), exitCode });
}

/** JSON with every non-ASCII character escaped: one line a terminal cannot reinterpret. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A path or name shown in readable output: every control, bidi and invisible character escaped, so a line stays one line. */
export function safeText(value: string): string {
  return terminalSafeText(value, { keepLineFeeds: false });
}
