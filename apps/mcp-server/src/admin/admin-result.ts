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

/** A path or name shown in readable output: control and bidi characters escaped so a line stays one line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are escaped.
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function safeText(value: string): string {
  return value.replace(UNSAFE_TEXT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
