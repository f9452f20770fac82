// `wait_seconds` (docs/DESIGN.md §6): when the next step is a human's, a call waits for the answer and then goes on
// as a fresh call would — the gates' read is taken after the answer is found. The wait is between facade calls, so
// it holds no store transaction, lock or upstream slot.
import { CLOSED_STATUSES, OperationStatus, PendingRequestKind } from '@pfsense-mcp/coordinator';
import type { ChangeResult, PendingRequest, WriteFacade } from '@pfsense-mcp/coordinator';
import { z } from 'zod';

/** A call never runs past this, waits included. */
export const CALL_BUDGET_MS = 50_000;
/** An execution (the one send and its verification) is started only with at least this much of the budget left. */
export const EXECUTION_RESERVE_MS = 20_000;
export const MAX_WAIT_SECONDS = CALL_BUDGET_MS / 1000;

/** Every write tool's optional `wait_seconds` argument: one definition, so the tools cannot drift apart. */
export const WAIT_SECONDS_SCHEMA = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .optional()
  .describe(
    `Seconds (0-${MAX_WAIT_SECONDS}, default 0) to wait for the operator's signature when the next step is theirs; not part of the operation.`,
  );

/** Waits for the answer to one pending request until `untilMs`; true when it is in the inbox. */
export type AwaitAnswer = (pending: PendingRequest, untilMs: number, signal: AbortSignal) => Promise<boolean>;

export interface WaitOptions {
  readonly waitSeconds: number;
  readonly awaitAnswer: AwaitAnswer | null;
  readonly signal: AbortSignal;
  readonly clock: () => number;
  /** Called as a wait begins (the tool sends a progress notification only when the client asked for them). */
  readonly onWait?: (elapsedMs: number, pending: PendingRequest) => void;
}

/** The pending request a human answers with `approve` (authorization, confirmation), or null. */
function awaitedRequest(result: ChangeResult): PendingRequest | null {
  const pending = result.pendingRequest;
  if (pending === null || CLOSED_STATUSES.has(result.status)) return null;
  return pending.kind === PendingRequestKind.AUTHORIZATION || pending.kind === PendingRequestKind.CONFIRMATION ? pending : null;
}

/**
 * Asks for the change, then — while the operation waits for an authorization or a confirmation and the wait lasts
 * — waits for that answer and asks again. One budget per call (CALL_BUDGET_MS); a signed confirmation found with
 * less than EXECUTION_RESERVE_MS left is not executed by this call (it answers awaiting_confirmation, the next
 * call executes). Cancellation ends the wait at once with the last answer.
 */
export async function requestChangeWaiting(
  facade: WriteFacade,
  capability: string,
  input: object,
  options: WaitOptions,
): Promise<ChangeResult> {
  const start = options.clock();
  const waitUntil = start + Math.min(options.waitSeconds * 1000, CALL_BUDGET_MS);
  let result = await facade.requestChange(capability, input);
  while (options.awaitAnswer !== null && !options.signal.aborted) {
    const pending = awaitedRequest(result);
    if (pending === null || options.clock() >= waitUntil) break;
    options.onWait?.(options.clock() - start, pending);
    if (!(await options.awaitAnswer(pending, waitUntil, options.signal)) || options.signal.aborted) break;
    const executes = pending.kind === PendingRequestKind.CONFIRMATION && result.status === OperationStatus.AWAITING_CONFIRMATION;
    if (executes && start + CALL_BUDGET_MS - options.clock() < EXECUTION_RESERVE_MS) break;
    result = await facade.requestChange(capability, input);
  }
  return result;
}

/** What a write tool's handler uses of the SDK's request context: cancellation, the client's progress token, notifications. */
export interface WaitingCallContext {
  readonly mcpReq: {
    readonly signal: AbortSignal;
    readonly _meta?: { readonly progressToken?: string | number | undefined } | undefined;
    readonly notify: (notification: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void>;
  };
}

/**
 * One write tool call: requestChangeWaiting with the call's cancellation and, when the client asked for progress
 * (a progressToken), a progress notification as each wait begins — a failed notification never fails the call.
 * `change` is the operation's input only: wait_seconds is never part of it.
 */
export function requestChangeForCall(
  facade: WriteFacade,
  capability: string,
  change: object,
  waitSeconds: number | undefined,
  awaitAnswer: AwaitAnswer | null,
  ctx: WaitingCallContext,
): Promise<ChangeResult> {
  const token = ctx.mcpReq._meta?.progressToken;
  const total = waitSeconds ?? 0;
  return requestChangeWaiting(facade, capability, change, {
    waitSeconds: total,
    awaitAnswer,
    signal: ctx.mcpReq.signal,
    clock: Date.now,
    ...(token === undefined
      ? {}
      : {
          onWait: (elapsedMs: number, pending: PendingRequest) => {
            const message = `waiting for the operator's ${pending.kind}`;
            ctx.mcpReq
              .notify({
                method: 'notifications/progress',
                params: { progressToken: token, progress: Math.floor(elapsedMs / 1000), total, message },
              })
              .catch(() => undefined);
          },
        }),
  });
}
