import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import * as z from 'zod/mini';
import { RELATED_TASK_META_KEY } from '../server/mcp-meta-keys.js';

// The JSON-RPC 2.0 message shape exactly as the MCP SDK checks it (@modelcontextprotocol/core 2.4.0,
// `JSONRPCMessageSchema`), written with zod's mini build: the stdio framing decodes every line before the SDK is
// loaded, and the SDK's schema module would pull all of zod into the first replies (docs/DESIGN.md §8).
// test/json-rpc-message-schema.test.ts compares the two on valid and invalid messages, outputs included.

const requestId = z.union([z.string(), z.int()]);
const requestMeta = z.looseObject({
  progressToken: z.optional(z.union([z.string(), z.int()])),
  [RELATED_TASK_META_KEY]: z.optional(z.object({ taskId: z.string() })),
});
const params = z.optional(z.looseObject({ _meta: z.optional(requestMeta) }));
const jsonRpcRequest = z.strictObject({ jsonrpc: z.literal('2.0'), id: requestId, method: z.string(), params });
const jsonRpcNotification = z.strictObject({ jsonrpc: z.literal('2.0'), method: z.string(), params });
const jsonRpcResult = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: requestId,
  result: z.looseObject({ _meta: z.optional(z.looseObject({})) }),
});
const jsonRpcError = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: z.optional(requestId),
  error: z.object({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) }),
});
const jsonRpcMessage = z.union([jsonRpcRequest, jsonRpcNotification, jsonRpcResult, jsonRpcError]);

/** Parses one decoded JSON value as a JSON-RPC message; throws when it is none (the SDK's parseJSONRPCMessage rule). */
export function parseJsonRpcMessage(value: unknown): JSONRPCMessage {
  return jsonRpcMessage.parse(value) as JSONRPCMessage;
}
