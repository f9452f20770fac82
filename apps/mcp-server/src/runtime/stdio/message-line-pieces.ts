import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { serializedJsonOf } from '../../tools/serialized-json.js';

/** An object JSON.stringify writes key by key: not an array, no toJSON of its own to consult. */
function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * Appends `{"key":value,…}` for `object` to `out`, its own enumerable keys in order, exactly as JSON.stringify
 * writes them (a value it cannot express, such as undefined, drops its key). `valueJson` may supply a value's
 * JSON as pieces of its own; otherwise the value is serialized here.
 */
function appendObject(
  out: string[],
  object: Record<string, unknown>,
  valueJson: (key: string, value: unknown) => readonly string[] | undefined,
): void {
  let separator = '{';
  for (const key of Object.keys(object)) {
    const value = object[key];
    const pieces = valueJson(key, value);
    if (pieces !== undefined) {
      out.push(`${separator}${JSON.stringify(key)}:`, ...pieces);
    } else {
      const json = JSON.stringify(value) as string | undefined;
      if (json === undefined) continue;
      out.push(`${separator}${JSON.stringify(key)}:${json}`);
    }
    separator = ',';
  }
  out.push(separator === '{' ? '{}' : '}');
}

/**
 * The reply line for `message` — exactly `JSON.stringify(message) + "\n"` — as pieces to write in order. A tool
 * result whose structuredContent was serialized already (serialized-json.ts) reuses that text instead of
 * serializing the value a second time, and the large pieces stay separate strings, so a large reply never exists
 * as one more string of its whole size (docs/DESIGN.md §8). Any other message is one piece.
 */
export function messageLinePieces(message: JSONRPCMessage): readonly string[] {
  const result = (message as { result?: unknown }).result;
  if (!isPlainRecord(message) || !isPlainRecord(result)) return [`${JSON.stringify(message)}\n`];
  const structured = serializedJsonOf(result['structuredContent']);
  if (structured === undefined) return [`${JSON.stringify(message)}\n`];
  const out: string[] = [];
  appendObject(out, message, (key, value) => {
    if (key !== 'result' || value !== result) return undefined;
    const inner: string[] = [];
    appendObject(inner, result, (k, v) => (k === 'structuredContent' && v === result['structuredContent'] ? [structured] : undefined));
    return inner;
  });
  out.push('\n');
  return out;
}
