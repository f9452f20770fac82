// A reply line built from pieces is byte for byte the line JSON.stringify would write, whether the result's
// structuredContent was serialized before (and reused) or not.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { messageLinePieces } from '../src/runtime/stdio/message-line-pieces.js';
import { rememberSerializedJson, serializedJsonOf } from '../src/index.js';

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
};

const page = (n: number) =>
  deepFreeze({
    data: Array.from({ length: n }, (_, i) => ({ id: i, descr: `"q" \\ é 😀 \u2028 ${i}`, list: [i, null, true], gone: null })),
    count: n,
    next_offset: null,
    truncated: false,
  });

const reply = (structured: object, extra: Record<string, unknown> = {}) =>
  ({
    result: { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, ...extra },
    jsonrpc: '2.0',
    id: 7,
  }) as unknown as JSONRPCMessage;

describe('messageLinePieces', () => {
  it('writes exactly JSON.stringify(message) + newline, reusing a remembered structuredContent text', () => {
    const structured = page(50);
    const text = JSON.stringify(structured);
    rememberSerializedJson(structured, text);
    const message = reply(structured, { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } }, skipped: undefined });
    const pieces = messageLinePieces(message);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces).toContain(text);
    expect(pieces.join('')).toBe(`${JSON.stringify(message)}\n`);
  });

  it('recognizes a shallow copy with the same members (a schema check may hand one on), not an altered one', () => {
    const structured = page(3);
    rememberSerializedJson(structured, JSON.stringify(structured));
    const copy = { ...structured };
    expect(serializedJsonOf(copy)).toBe(JSON.stringify(structured));
    expect(messageLinePieces(reply(copy)).join('')).toBe(`${JSON.stringify(reply(copy))}\n`);
    const altered = { ...structured, count: 99 };
    expect(serializedJsonOf(altered)).toBeUndefined();
    const reordered = { count: structured.count, data: structured.data, next_offset: null, truncated: false };
    expect(serializedJsonOf(reordered)).toBeUndefined();
    const withExtra = { ...structured, more: 1 };
    expect(serializedJsonOf(withExtra)).toBeUndefined();
    expect(messageLinePieces(reply(altered))).toEqual([`${JSON.stringify(reply(altered))}\n`]);
  });

  it('remembers only frozen objects, and serializes everything else as one piece', () => {
    const open = { data: [{ id: 1 }], count: 1 };
    rememberSerializedJson(open, '{"not":"it"}');
    expect(serializedJsonOf(open)).toBeUndefined();
    expect(messageLinePieces(reply(open))).toEqual([`${JSON.stringify(reply(open))}\n`]);
    const request = { jsonrpc: '2.0', id: 1, method: 'ping' } as JSONRPCMessage;
    expect(messageLinePieces(request)).toEqual([`${JSON.stringify(request)}\n`]);
    const error = { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid Request' } } as JSONRPCMessage;
    expect(messageLinePieces(error)).toEqual([`${JSON.stringify(error)}\n`]);
    expect(() => rememberSerializedJson(Object.freeze({}), 1 as unknown as string)).toThrow(TypeError);
  });
});
