// The framing's JSON-RPC message check (zod mini, loaded before the SDK) against the SDK's own parseJSONRPCMessage:
// the same messages pass, with the same output, and the same ones fail. Also the `_meta` keys it copies.
import * as sdk from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  parseJsonRpcMessage,
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY,
} from '../src/index.js';

const envelope = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  [CLIENT_INFO_META_KEY]: { name: 'c', version: '1' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};
const CORPUS: readonly unknown[] = [
  // requests
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  },
  { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
  { jsonrpc: '2.0', id: 0, method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: -7, method: 'x', params: { _meta: envelope, extra: [1, { y: null }] } },
  { jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: { progressToken: 'p', other: true } } },
  { jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: { progressToken: {} } } },
  { jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } } },
  { jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 3 } } } },
  { jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: 'no' } },
  { jsonrpc: '2.0', id: 2, method: 'x', params: [] },
  { jsonrpc: '2.0', id: 2, method: 'x', params: null },
  { jsonrpc: '2.0', id: 1.5, method: 'x' },
  { jsonrpc: '2.0', id: 2 ** 53, method: 'x' },
  { jsonrpc: '2.0', id: null, method: 'x' },
  { jsonrpc: '2.0', id: true, method: 'x' },
  { jsonrpc: '2.0', id: 1, method: 7 },
  { jsonrpc: '2.0', id: 1, method: 'x', extra: 1 },
  { jsonrpc: '1.0', id: 1, method: 'x' },
  { id: 1, method: 'x' },
  // notifications
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'r' } },
  { jsonrpc: '2.0', method: 'n', params: { _meta: { progressToken: null } } },
  { jsonrpc: '2.0', method: 'n', extra: 1 },
  // responses
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, result: { a: 1, _meta: { x: 1 } } },
  { jsonrpc: '2.0', id: 1, result: { _meta: 'no' } },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: {}, extra: 1 },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'm' } },
  { jsonrpc: '2.0', error: { code: -32600, message: 'm', data: { d: 1 } } },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'm', extra: 'stripped' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1 } },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } },
  // not messages
  [],
  [{ jsonrpc: '2.0', id: 1, method: 'x' }],
  'text',
  42,
  null,
  {},
];

const outcome = (parse: (value: unknown) => unknown, value: unknown) => {
  try {
    return { ok: true, value: parse(value) };
  } catch {
    return { ok: false };
  }
};

describe('parseJsonRpcMessage', () => {
  it("accepts and rejects exactly what the SDK's parseJSONRPCMessage does, with the same output", () => {
    for (const value of CORPUS)
      expect(outcome(parseJsonRpcMessage, value), JSON.stringify(value)).toEqual(outcome(sdk.parseJSONRPCMessage, value));
    expect(CORPUS.filter((value) => outcome(sdk.parseJSONRPCMessage, value).ok).length).toBeGreaterThan(10);
    expect(CORPUS.filter((value) => !outcome(sdk.parseJSONRPCMessage, value).ok).length).toBeGreaterThan(10);
  });

  it("uses the SDK's `_meta` key strings", () => {
    expect([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, RELATED_TASK_META_KEY]).toEqual([
      sdk.PROTOCOL_VERSION_META_KEY,
      sdk.CLIENT_INFO_META_KEY,
      sdk.CLIENT_CAPABILITIES_META_KEY,
      sdk.RELATED_TASK_META_KEY,
    ]);
  });
});
