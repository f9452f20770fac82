import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { TOOL_ERROR_CODES, TOOL_ERROR_MESSAGES, ToolErrorCode } from '../../tools/tool-error-code.js';
import type { Logger, OutcomeClass } from '../startup/create-logger.js';
import { SERVER_NAME, SERVER_VERSION } from '../startup/server-identity.js';

const MAX_PENDING = 10_000;
const MAX_DETAIL = 512;

// The per-request envelope key a 2026-07-28 request carries (MCP specification 2026-07-28, `_meta`).
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';
// JSON-RPC "invalid params": what the SDK answers for an unknown or disabled tool name.
const INVALID_PARAMS = -32602;

interface Pending {
  /** The requested name; checked against the registered tools only when the line is written (see below). */
  readonly requested: string | null;
  readonly startedAt: number;
  /** The request came on protocol revision 2026-07-28, whose results carry `resultType` and the server identity. */
  readonly modern: boolean;
  /** `name` is not a string or `arguments` is present but not an object: the caller's mistake, not ours. */
  readonly malformed: boolean;
}

/**
 * Wraps the server's MCP transport (under the SDK's stdio entry, so it sees the wire of either protocol era) to
 * see every `tools/call` from request to response, including the ones the SDK answers itself (input validation,
 * unknown tool). It writes exactly one log line per call — tool name, duration, outcome class and the names of
 * drifted fields, never arguments or results — and rewrites SDK-generated errors into the stable
 * `{"error":{"code",...}}` tool error the handlers use, so a caller always sees one error format in both eras.
 */
export interface ObservedTransport extends Transport {
  /** Resolves once no tool call is awaiting its response (or after `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
}

export function observeToolCalls(
  inner: Transport,
  logger: Logger,
  registeredTools: ReadonlySet<string>,
  /** The server's title (serverTitle of the profile), for the replies this layer answers itself. */
  title: string,
  clock: () => number = () => performance.now(),
): ObservedTransport {
  const pending = new Map<string | number, Pending>();
  const waiters: (() => void)[] = [];
  const settle = () => {
    if (pending.size === 0) for (const w of waiters.splice(0)) w();
  };

  const outer: ObservedTransport = {
    drain: (timeoutMs) =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            timer.unref();
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
    start: () => inner.start(),
    close: () => inner.close(),
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => {
      const rewritten = 'id' in message && ('result' in message || 'error' in message) ? onResponse(message) : message;
      const sent = inner.send(rewritten, options);
      settle();
      return sent;
    },
  };

  function onResponse(message: JSONRPCMessage): JSONRPCMessage {
    const id = (message as { id: string | number }).id;
    const entry = pending.get(id);
    if (entry === undefined) return message;
    pending.delete(id);
    const call = { ...entry, tool: toolName(entry) };
    const durationMs = clock() - call.startedAt;
    if ('error' in message) {
      const error = (message as { error: { code?: unknown; message?: unknown } }).error;
      // The SDK refuses an unknown tool name with a JSON-RPC error; callers of this server get the same
      // UNKNOWN_TOOL tool error for it in both eras.
      if (
        call.tool === UNKNOWN &&
        error.code === INVALID_PARAMS &&
        typeof error.message === 'string' &&
        UNKNOWN_TOOL_TEXT.test(error.message)
      ) {
        logger.toolCall({ tool: call.tool, durationMs, outcome: 'client_error', code: ToolErrorCode.UNKNOWN_TOOL });
        const result: Record<string, unknown> = { content: [errorContent(ToolErrorCode.UNKNOWN_TOOL, null)], isError: true };
        if (call.modern) {
          result['resultType'] = 'complete';
          result['_meta'] = { [SERVER_INFO_META_KEY]: { name: SERVER_NAME, version: SERVER_VERSION, title } };
        }
        return { jsonrpc: '2.0', id, result } as JSONRPCMessage;
      }
      if (call.malformed) {
        // The SDK refuses wrong param types with a JSON-RPC error carrying raw schema text; the caller gets the
        // stable INVALID_INPUT tool error instead, in both eras.
        logger.toolCall({ tool: call.tool, durationMs, outcome: 'client_error', code: ToolErrorCode.INVALID_INPUT });
        const result: Record<string, unknown> = {
          content: [errorContent(ToolErrorCode.INVALID_INPUT, 'params: "name" must be a string and "arguments" an object')],
          isError: true,
        };
        if (call.modern) {
          result['resultType'] = 'complete';
          result['_meta'] = { [SERVER_INFO_META_KEY]: { name: SERVER_NAME, version: SERVER_VERSION, title } };
        }
        return { jsonrpc: '2.0', id, result } as JSONRPCMessage;
      }
      logger.toolCall({ tool: call.tool, durationMs, outcome: 'client_error', code: 'PROTOCOL_ERROR' });
      return message;
    }
    const result = (message as { result: Record<string, unknown> }).result;
    if (result['isError'] !== true) {
      const structured = result['structuredContent'] as Record<string, unknown> | undefined;
      const outcome: OutcomeClass = structured?.['truncated'] === true ? 'truncated' : 'ok';
      // A READ result names the fields it nulled for type drift; the same line says which (names only).
      const drift = structured?.['drift'];
      if (Array.isArray(drift) && drift.length > 0) logger.toolCall({ tool: call.tool, durationMs, outcome, drift: drift as string[] });
      else logger.toolCall({ tool: call.tool, durationMs, outcome });
      return message;
    }
    const text = firstText(result);
    const own = ownErrorCode(text);
    if (own !== null) {
      logger.toolCall({ tool: call.tool, durationMs, outcome: outcomeOf(own), code: own });
      return message;
    }
    // An error the SDK produced itself: give it the stable shape, keeping the era's own result fields
    // (`resultType`, `_meta`).
    const { code, detail } = classifySdkError(text);
    logger.toolCall({ tool: call.tool, durationMs, outcome: outcomeOf(code), code });
    return { ...message, result: { ...result, content: [errorContent(code, detail)], isError: true } } as JSONRPCMessage;
  }

  // A call that arrived during startup is seen here before the tools are registered: its name is looked up when
  // its line is written, so the line names the tool (a name never registered is `unknown_tool`).
  const toolName = (call: Pending): string => (call.requested !== null && registeredTools.has(call.requested) ? call.requested : UNKNOWN);

  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error: Error) => outer.onerror?.(error);
  inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      // A cancelled call gets no response (MCP specification, cancellation): its log line is written
      // here and its entry dropped, so cancelled calls never fill the map.
      const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
      const call = typeof requestId === 'string' || typeof requestId === 'number' ? pending.get(requestId) : undefined;
      if (call !== undefined) {
        pending.delete(requestId as string | number);
        logger.toolCall({ tool: toolName(call), durationMs: clock() - call.startedAt, outcome: 'cancelled' });
        settle();
      }
    }
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      const params = (message as { params?: { name?: unknown; arguments?: unknown; _meta?: unknown } }).params;
      const requested = typeof params?.name === 'string' ? params.name : null;
      const args = params?.arguments;
      const malformed = requested === null || (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)));
      if (pending.size < MAX_PENDING)
        pending.set(message.id, { requested, startedAt: clock(), modern: isModernRequest(params), malformed });
    }
    outer.onmessage?.(message, extra);
  };
  return outer;
}

const UNKNOWN = 'unknown_tool';
/** The signer's unsafe set (apps/signer-cli render-safe): Cc, Cf, Cs, Co, Cn, Zl, Zp, default-ignorable, non-ASCII spaces. */
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|[^\P{Zs} ]/gu;
const UNKNOWN_TOOL_TEXT = /^Tool .* (not found|disabled)$/s;

function isModernRequest(params: { _meta?: unknown } | undefined): boolean {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && typeof (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY] === 'string';
}

function errorContent(code: ToolErrorCode, detail: string | null): { type: 'text'; text: string } {
  const body: Record<string, string> = { code, message: TOOL_ERROR_MESSAGES[code] };
  if (detail !== null) body['detail'] = detail;
  return { type: 'text', text: JSON.stringify({ error: body }) };
}

function firstText(result: Record<string, unknown>): string {
  const content = result['content'];
  if (!Array.isArray(content)) return '';
  const first: unknown = content[0];
  if (typeof first === 'object' && first !== null && (first as { type?: unknown }).type === 'text') {
    const text = (first as { text?: unknown }).text;
    return typeof text === 'string' ? text : '';
  }
  return '';
}

function ownErrorCode(text: string): ToolErrorCode | null {
  if (!text.startsWith('{"error":')) return null;
  try {
    const code: unknown = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' && TOOL_ERROR_CODES.has(code) ? (code as ToolErrorCode) : null;
  } catch {
    return null;
  }
}

function classifySdkError(text: string): { code: ToolErrorCode; detail: string | null } {
  const marker = 'Input validation error: ';
  const at = text.indexOf(marker);
  if (at >= 0) {
    // The schema's own complaint (which field, which bound) helps the caller fix the call; clip it and escape
    // every character that could reorder or hide text (controls, C1, bidi, zero-width, non-ASCII spaces) as
    // \u{XXXX}, as the signer renders untrusted text, so a hostile key name reaches the model visibly.
    const detail = text
      .slice(at + marker.length)
      .replace(UNSAFE_CHARACTER, (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}}`);
    return { code: ToolErrorCode.INVALID_INPUT, detail: detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail };
  }
  if (/^Invalid arguments for tool /.test(text)) return { code: ToolErrorCode.INVALID_INPUT, detail: null };
  if (/Tool .* (not found|disabled)/s.test(text)) return { code: ToolErrorCode.UNKNOWN_TOOL, detail: null };
  return { code: ToolErrorCode.INTERNAL_ERROR, detail: null };
}

function outcomeOf(code: ToolErrorCode): OutcomeClass {
  if (code === ToolErrorCode.CANCELLED) return 'cancelled';
  if (code === ToolErrorCode.INVALID_INPUT || code === ToolErrorCode.UNKNOWN_TOOL || code === ToolErrorCode.SCAN_LIMIT_EXCEEDED)
    return 'client_error';
  if (code === ToolErrorCode.INTERNAL_ERROR || code === ToolErrorCode.RESULT_TOO_LARGE) return 'internal_error';
  return 'upstream_error';
}
