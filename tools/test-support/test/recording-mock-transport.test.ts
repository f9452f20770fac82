import { describe, expect, it } from 'vitest';
import { TransportConnectionError } from '@pfsense-mcp/transports';
import { MockScriptExhaustedError, RecordingMockTransport } from '../src/index.js';

describe('RecordingMockTransport', () => {
  it('replays the queue, then the handler, and records every call frozen', async () => {
    const failure = new TransportConnectionError('CONNECTION_RESET', true);
    const mock = new RecordingMockTransport({
      replies: [{ status: 200, headers: { 'X-A': '1' }, body: '{"a":1}' }, { error: failure }],
      handler: (call) => ({ status: 404, body: call.path }),
    });
    const first = await mock.request('GET', '/one', { query: { limit: 5 } });
    expect(first).toEqual({ status: 200, headers: { 'x-a': '1' }, body: '{"a":1}' });
    expect(Object.isFrozen(first)).toBe(true);
    await expect(mock.request('PATCH', '/two', { body: '{"b":2}' })).rejects.toBe(failure);
    expect(await mock.request('DELETE', '/three')).toEqual({ status: 404, headers: {}, body: '/three' });
    const { calls } = mock;
    expect(calls).toEqual([
      { index: 0, method: 'GET', path: '/one', query: { limit: 5 }, body: null },
      { index: 1, method: 'PATCH', path: '/two', query: null, body: '{"b":2}' },
      { index: 2, method: 'DELETE', path: '/three', query: null, body: null },
    ]);
    expect(Object.isFrozen(calls) && calls.every((c) => Object.isFrozen(c) && (c.query === null || Object.isFrozen(c.query)))).toBe(true);
    expect(mock.callCount).toBe(3);
  });

  it('throws MockScriptExhaustedError when nothing is scripted, and still records the call', async () => {
    const mock = new RecordingMockTransport().enqueue({ status: 204 });
    await mock.request('GET', '/a');
    await expect(mock.request('GET', '/b')).rejects.toBeInstanceOf(MockScriptExhaustedError);
    expect(mock.calls.map((c) => c.path)).toEqual(['/a', '/b']);
    expect(mock.pendingReplies).toBe(0);
  });

  it('supports async handlers and refuses malformed replies', async () => {
    const mock = new RecordingMockTransport({ handler: async () => ({ status: 99 }) });
    await expect(mock.request('GET', '/a')).rejects.toThrow(/status/);
    expect(() => new RecordingMockTransport({ replies: [{ status: 200, body: 5 as unknown as string }] })).toThrow(TypeError);
    expect(() => new RecordingMockTransport({ replies: [{ error: 'boom' as unknown as Error }] })).toThrow(TypeError);
  });
});
