// The two refusing layers under the SDK, over a stub wire: what passes, what is answered here.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { refuseBeforeInitialize } from '../src/runtime/stdio/refuse-before-initialize.js';
import { refuseDuplicateIds } from '../src/runtime/stdio/refuse-duplicate-ids.js';

const ENVELOPE = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };

function layered(wrap: (wire: Transport, onRefused: (name: string) => void) => Transport) {
  const sent: JSONRPCMessage[] = [];
  const wire: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (m: JSONRPCMessage) => void sent.push(m),
  };
  const refusals: string[] = [];
  const layer = wrap(wire, (name) => refusals.push(name));
  const passed: unknown[] = [];
  layer.onmessage = (m) => passed.push('id' in m ? m.id : (m as { method: string }).method);
  return {
    in: (m: Record<string, unknown>) => wire.onmessage?.({ jsonrpc: '2.0', ...m } as JSONRPCMessage),
    out: (m: Record<string, unknown>) => layer.send({ jsonrpc: '2.0', ...m } as JSONRPCMessage),
    sent: () =>
      sent.map((m) => [
        'id' in m ? m.id : null,
        'error' in m ? ((m.error as { data?: { code?: string } }).data?.code ?? 'error') : 'result',
      ]),
    passed,
    refusals,
  };
}

describe('refuseBeforeInitialize', () => {
  it('2025 era: refuses requests and drops notifications before initialize, answers ping itself, then lets everything pass', async () => {
    const t = layered(refuseBeforeInitialize);
    t.in({ id: 1, method: 'tools/call', params: { name: 'x' } });
    t.in({ method: 'notifications/initialized' });
    t.in({ id: 2, method: 'ping' });
    t.in({ id: 3, method: 'initialize', params: {} });
    t.in({ id: 4, method: 'tools/list' });
    await Promise.resolve();
    expect(t.sent()).toEqual([
      [1, 'NOT_INITIALIZED'],
      [2, 'result'],
    ]);
    expect(t.passed).toEqual([3, 4]);
    expect(t.refusals).toEqual(['NOT_INITIALIZED', 'NOT_INITIALIZED']);
  });

  it('2026-07-28 era: a request with an envelope claim passes; after one succeeded, a request without one passes too (the SDK answers it)', async () => {
    const t = layered(refuseBeforeInitialize);
    t.in({ id: 1, method: 'tools/list', params: ENVELOPE });
    t.in({ id: 2, method: 'tools/list' });
    await t.out({ id: 1, error: { code: -32022, message: 'unsupported' } });
    t.in({ id: 3, method: 'tools/list' });
    t.in({ id: 4, method: 'tools/list', params: ENVELOPE });
    await t.out({ id: 4, result: {} });
    t.in({ id: 5, method: 'tools/list' });
    expect(t.passed).toEqual([1, 4, 5]);
    expect(
      t
        .sent()
        .filter(([, kind]) => kind === 'NOT_INITIALIZED')
        .map(([id]) => id),
    ).toEqual([2, 3]);
  });
});

describe('refuseDuplicateIds', () => {
  it('refuses an id in progress; the id is free again after its response or its cancellation; 7 and "7" differ', async () => {
    const t = layered(refuseDuplicateIds);
    t.in({ id: 7, method: 'tools/call' });
    t.in({ id: '7', method: 'tools/call' });
    t.in({ id: 7, method: 'tools/call' });
    await Promise.resolve();
    expect(t.sent()).toEqual([[7, 'DUPLICATE_REQUEST_ID']]);
    await t.out({ id: 7, result: {} });
    t.in({ id: 7, method: 'tools/call' });
    t.in({ method: 'notifications/cancelled', params: { requestId: '7' } });
    t.in({ id: '7', method: 'tools/call' });
    expect(t.passed).toEqual([7, '7', 7, 'notifications/cancelled', '7']);
    expect(t.refusals).toEqual(['DUPLICATE_REQUEST_ID']);
  });
});
