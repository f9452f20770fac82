import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_ERROR_CODES, TOOL_ERROR_MESSAGES, ToolErrorCode } from '../tools/tool-error-code.js';
import type { Logger, OutcomeClass } from './create-logger.js';

const MAX_PENDING = 10_000;
const MAX_DETAIL = 512;

interface Pending {
  readonly tool: string;
  readonly startedAt: number;
}

/**
 * Wraps the server's MCP transport to see every `tools/call` from request to response, including the ones the
 * SDK answers itself (input validation, unknown tool). It writes exactly one log line per call — tool name,
 * duration, outcome class and the names of drifted fields, never arguments or results — and rewrites SDK-generated error texts into the
 * stable `{"error":{"code",...}}` form the handlers use, so a caller always sees one error format.
 */
export interface ObservedTransport extends Transport {
  /** Resolves once no tool call is awaiting its response (or after `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
}

export function observeToolCalls(inner: Transport, logger: Logger, registeredTools: ReadonlySet<string>, clock: () => number = () => performance.now()): ObservedTransport {
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
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => {
      const rewritten = 'id' in message && ('result' in message || 'error' in message) ? onResponse(message) : message;
      const sent = inner.send(rewritten, options);
      settle();
      return sent;
    },
  };

  function onResponse(message: JSONRPCMessage): JSONRPCMessage {
    const id = (message as { id: string | number }).id;
    const call = pending.get(id);
    if (call === undefined) return message;
    pending.delete(id);
    const durationMs = clock() - call.startedAt;
    if ('error' in message) {
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
    // An error the SDK produced itself: give it the stable shape.
    const { code, detail } = classifySdkError(text);
    logger.toolCall({ tool: call.tool, durationMs, outcome: outcomeOf(code), code });
    const body: Record<string, string> = { code, message: TOOL_ERROR_MESSAGES[code] };
    if (detail !== null) body['detail'] = detail;
    return { ...message, result: { content: [{ type: 'text', text: JSON.stringify({ error: body }) }], isError: true } } as JSONRPCMessage;
  }

  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error: Error) => outer.onerror?.(error);
  inner.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      const params = (message as { params?: { name?: unknown } }).params;
      const name = typeof params?.name === 'string' && registeredTools.has(params.name) ? params.name : 'unknown_tool';
      if (pending.size < MAX_PENDING) pending.set(message.id, { tool: name, startedAt: clock() });
    }
    outer.onmessage?.(message, extra);
  };
  return outer;
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
    // The schema's own complaint (which field, which bound) helps the caller fix the call; clip it and strip
    // control characters so a hostile argument cannot flood the reply.
    // eslint-disable-next-line no-control-regex
    const detail = text.slice(at + marker.length).replace(/[\u0000-\u001f\u007f]+/g, ' ');
    return { code: ToolErrorCode.INVALID_INPUT, detail: detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail };
  }
  if (/Tool .* (not found|disabled)/s.test(text)) return { code: ToolErrorCode.UNKNOWN_TOOL, detail: null };
  return { code: ToolErrorCode.INTERNAL_ERROR, detail: null };
}

function outcomeOf(code: ToolErrorCode): OutcomeClass {
  if (code === ToolErrorCode.INVALID_INPUT || code === ToolErrorCode.UNKNOWN_TOOL) return 'client_error';
  if (code === ToolErrorCode.INTERNAL_ERROR || code === ToolErrorCode.RESULT_TOO_LARGE) return 'internal_error';
  return 'upstream_error';
}
