// The budget of a call that waits (tools/wait-for-answer.ts, docs/DESIGN.md §6), on a controlled clock: the facade
// and the waiter are small stand-ins that record what they were asked (the MCP server is not involved here).
import { describe, expect, it } from 'vitest';
import { OperationStatus, PendingRequestKind } from '@pfsense-mcp/coordinator';
import type { ChangeResult, PendingRequest, WriteFacade } from '@pfsense-mcp/coordinator';
import { CALL_BUDGET_MS, EXECUTION_RESERVE_MS, requestChangeWaiting } from '../src/index.js';

const AUTH: PendingRequest = { kind: PendingRequestKind.AUTHORIZATION, file: 'authorization-request.x.json' };
const CONF: PendingRequest = { kind: PendingRequestKind.CONFIRMATION, file: 'confirmation-request.c1.json' };

function result(status: ChangeResult['status'], pendingRequest: PendingRequest | null): ChangeResult {
  return { status, operationId: 'op-1', contractId: null, pendingRequest } as ChangeResult;
}

/** A facade answering `answers` in turn, counting its calls. */
function facadeOf(answers: readonly ChangeResult[]): WriteFacade & { calls: number } {
  const f = {
    calls: 0,
    requestChange: async () => answers[Math.min(f.calls++, answers.length - 1)] as ChangeResult,
    listWriteOperations: () => ({ operations: [], total: 0 }),
    artifactCounts: () => ({ inboxFiles: 0, outboxFiles: 0, pileUp: false }),
  };
  return f;
}

describe('requestChangeWaiting', () => {
  it('wait_seconds 0 is one facade call, whatever the status', async () => {
    const facade = facadeOf([result(OperationStatus.REQUESTED, AUTH)]);
    let waited = 0;
    const r = await requestChangeWaiting(
      facade,
      'ALIAS_WRITE',
      {},
      {
        waitSeconds: 0,
        awaitAnswer: async () => ((waited += 1), true),
        signal: new AbortController().signal,
        clock: () => 0,
      },
    );
    expect(r.status).toBe('requested');
    expect(facade.calls).toBe(1);
    expect(waited).toBe(0);
  });

  it('an authorization and then a confirmation arriving: one call goes on to verified', async () => {
    const facade = facadeOf([
      result(OperationStatus.REQUESTED, AUTH),
      result(OperationStatus.AWAITING_CONFIRMATION, CONF),
      result(OperationStatus.VERIFIED, null),
    ]);
    let now = 0;
    const waitedFor: string[] = [];
    const r = await requestChangeWaiting(
      facade,
      'ALIAS_WRITE',
      {},
      {
        waitSeconds: 20,
        awaitAnswer: async (pending, until) => {
          expect(until).toBe(20_000);
          waitedFor.push(pending.kind);
          now += 1_000;
          return true;
        },
        signal: new AbortController().signal,
        clock: () => now,
      },
    );
    expect(r.status).toBe('verified');
    expect(waitedFor).toEqual(['authorization', 'confirmation']);
    expect(facade.calls).toBe(3);
  });

  it('a confirmation found with less than the execution reserve left is not executed by this call', async () => {
    const facade = facadeOf([result(OperationStatus.AWAITING_CONFIRMATION, CONF), result(OperationStatus.VERIFIED, null)]);
    let now = 0;
    const r = await requestChangeWaiting(
      facade,
      'ALIAS_WRITE',
      {},
      {
        waitSeconds: 50,
        awaitAnswer: async () => {
          now = CALL_BUDGET_MS - EXECUTION_RESERVE_MS + 1;
          return true;
        },
        signal: new AbortController().signal,
        clock: () => now,
      },
    );
    expect(r.status).toBe('awaiting_confirmation');
    expect(facade.calls).toBe(1);
  });

  it('with exactly the reserve left it executes; the wait never reaches past the budget', async () => {
    const facade = facadeOf([result(OperationStatus.AWAITING_CONFIRMATION, CONF), result(OperationStatus.VERIFIED, null)]);
    let now = 0;
    const untils: number[] = [];
    const r = await requestChangeWaiting(
      facade,
      'ALIAS_WRITE',
      {},
      {
        waitSeconds: 50,
        awaitAnswer: async (_p, until) => {
          untils.push(until);
          now = CALL_BUDGET_MS - EXECUTION_RESERVE_MS;
          return true;
        },
        signal: new AbortController().signal,
        clock: () => now,
      },
    );
    expect(r.status).toBe('verified');
    expect(untils).toEqual([CALL_BUDGET_MS]);
  });

  it('a wait that ends without an answer, or a cancelled one, answers the last status without another call', async () => {
    for (const cancel of [false, true]) {
      const facade = facadeOf([result(OperationStatus.REQUESTED, AUTH), result(OperationStatus.VERIFIED, null)]);
      const controller = new AbortController();
      const r = await requestChangeWaiting(
        facade,
        'ALIAS_WRITE',
        {},
        {
          waitSeconds: 10,
          awaitAnswer: async () => {
            if (cancel) controller.abort();
            return cancel;
          },
          signal: controller.signal,
          clock: () => 0,
        },
      );
      expect(r.status).toBe('requested');
      expect(facade.calls).toBe(1);
    }
  });

  it('nothing is awaited for a reconciliation, a release or a closed status', async () => {
    for (const answer of [
      result(OperationStatus.RECONCILIATION_REQUIRED, { kind: PendingRequestKind.RECONCILIATION, file: 'r.json' }),
      result(OperationStatus.REFUSED, null),
      result(OperationStatus.VERIFIED, null),
    ]) {
      const facade = facadeOf([answer]);
      let waited = 0;
      await requestChangeWaiting(
        facade,
        'ALIAS_WRITE',
        {},
        {
          waitSeconds: 50,
          awaitAnswer: async () => ((waited += 1), true),
          signal: new AbortController().signal,
          clock: () => 0,
        },
      );
      expect(waited).toBe(0);
      expect(facade.calls).toBe(1);
    }
  });
});
