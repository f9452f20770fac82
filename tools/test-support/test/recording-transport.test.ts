import { describe, expect, it } from 'vitest';
import { RecordingMockTransport, RecordingTransport } from '../src/index.js';

describe('RecordingTransport', () => {
  it('forwards every call unchanged and records method, path and the exact body', async () => {
    const inner = new RecordingMockTransport({ handler: (call) => ({ status: 200, body: call.path }) });
    const spy = new RecordingTransport(inner);
    expect(await spy.request('GET', '/a', { query: { limit: 2 } })).toMatchObject({ status: 200, body: '/a' });
    await spy.request('PATCH', '/b', { body: '{"id":1}' });
    expect(spy.calls).toEqual([
      { method: 'GET', path: '/a', body: undefined },
      { method: 'PATCH', path: '/b', body: '{"id":1}' },
    ]);
    expect(spy.calls.every((c) => Object.isFrozen(c))).toBe(true);
    expect(inner.calls.map((c) => c.query)).toEqual([{ limit: 2 }, null]);
  });

  it('refuses an inner that is not a Transport', () => {
    expect(() => new RecordingTransport({} as never)).toThrow(TypeError);
  });
});
