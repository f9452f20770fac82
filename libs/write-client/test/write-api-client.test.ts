import { startSimulator } from '@pfsense-mcp/pfsense-sim';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { RecordingMockTransport } from '@pfsense-mcp/test-support';
import {
  TransportConnectionError as TransportsConnectionError,
  TransportTimeoutError as TransportsTimeoutError,
  createHttpTransport,
} from '@pfsense-mcp/transports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_WRITE_BODY_BYTES,
  ResponseTooLargeError,
  TransportConnectionError,
  TransportError,
  TransportTimeoutError,
  WriteApiClient,
  WriteEndpoints,
  WriteRefusalError,
  isWriteEndpointSymbol,
  isWriteRequestFor,
  maxBodyBytesFor,
} from '../src/index.js';
import type { HttpMethod } from '../src/index.js';

const OK = { status: 200, body: '{"code":200,"status":"ok","response_id":"SUCCESS","data":{}}' };
const request = Object.freeze({ id: 0, name: 'LAN_SERVERS', descr: 'new text', apply: false });

async function refusal(promise: Promise<unknown>): Promise<WriteRefusalError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WriteRefusalError);
  return error as WriteRefusalError;
}

describe('WriteEndpoints', () => {
  it('holds exactly two verified symbols, both PATCH /api/v2/firewall/alias', () => {
    expect(Object.keys(WriteEndpoints)).toEqual(['FIREWALL_ALIAS_PATCH', 'FIREWALL_ALIAS_ENTRIES_PATCH']);
    expect({ ...WriteEndpoints.FIREWALL_ALIAS_PATCH }).toEqual({ method: 'PATCH', path: '/api/v2/firewall/alias', verified: true });
    expect({ ...WriteEndpoints.FIREWALL_ALIAS_ENTRIES_PATCH }).toEqual({
      method: 'PATCH',
      path: '/api/v2/firewall/alias',
      verified: true,
    });
    expect(Object.isFrozen(WriteEndpoints)).toBe(true);
    expect(Object.isFrozen(WriteEndpoints.FIREWALL_ALIAS_PATCH)).toBe(true);
  });

  it('is closed: no inherited key counts as a symbol, and it cannot be extended', () => {
    expect(isWriteEndpointSymbol('FIREWALL_ALIAS_PATCH')).toBe(true);
    expect(isWriteEndpointSymbol('toString')).toBe(false);
    expect(isWriteEndpointSymbol('__proto__')).toBe(false);
    expect(() => {
      (WriteEndpoints as unknown as Record<string, unknown>).OTHER = { method: 'DELETE', path: '/api/v2/x', verified: true };
    }).toThrow(TypeError);
  });
});

describe('WriteApiClient.send refusals happen before the network', () => {
  const cases: ReadonlyArray<{ name: string; symbol: string; method: HttpMethod; body: object; code: string; endpoints?: object }> = [
    { name: 'an unknown symbol', symbol: 'FIREWALL_RULE_DELETE', method: 'PATCH', body: request, code: 'UNKNOWN_ENDPOINT' },
    { name: 'an inherited key', symbol: 'toString', method: 'PATCH', body: request, code: 'UNKNOWN_ENDPOINT' },
    { name: 'a method mismatch', symbol: 'FIREWALL_ALIAS_PATCH', method: 'PUT', body: request, code: 'METHOD_MISMATCH' },
    { name: 'a lower-case method', symbol: 'FIREWALL_ALIAS_PATCH', method: 'patch' as HttpMethod, body: request, code: 'METHOD_MISMATCH' },
    {
      name: 'an unverified entry',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: request,
      code: 'UNVERIFIED_ENDPOINT',
      endpoints: { FIREWALL_ALIAS_PATCH: { method: 'PATCH', path: '/api/v2/firewall/alias', verified: false } },
    },
    { name: 'an array body', symbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH', body: [1], code: 'INVALID_REQUEST' },
    { name: 'a float in the body', symbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH', body: { id: 0.5 }, code: 'INVALID_REQUEST' },
    { name: 'a class instance body', symbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH', body: new Date(0), code: 'INVALID_REQUEST' },
    // The closed key set of FIREWALL_ALIAS_PATCH is the write client's own: exactly {id, name, descr, apply: false}.
    {
      name: 'an extra key',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: { ...request, apply_now: true },
      code: 'INVALID_REQUEST',
    },
    {
      name: 'a missing key',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: { id: 0, name: 'LAN_SERVERS', descr: 'x' },
      code: 'INVALID_REQUEST',
    },
    {
      name: 'the pre-name shape {id, descr, apply}',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: { id: 0, descr: 'x', apply: false },
      code: 'INVALID_REQUEST',
    },
    {
      name: 'a name that is no alias name',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: { ...request, name: 'a b' },
      code: 'INVALID_REQUEST',
    },
    { name: 'an empty name', symbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH', body: { ...request, name: '' }, code: 'INVALID_REQUEST' },
    {
      name: 'a 32-character name',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: { ...request, name: 'A'.repeat(32) },
      code: 'INVALID_REQUEST',
    },
    { name: 'apply: true', symbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH', body: { ...request, apply: true }, code: 'INVALID_REQUEST' },
    { name: 'a negative id', symbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH', body: { ...request, id: -1 }, code: 'INVALID_REQUEST' },
    {
      name: 'a non-string descr',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: { ...request, descr: ['x'] },
      code: 'INVALID_REQUEST',
    },
    {
      name: 'a symbol key',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: { ...request, [Symbol('x')]: 1 },
      code: 'INVALID_REQUEST',
    },
    {
      name: 'a getter field',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      body: Object.defineProperty({ id: 0, name: 'LAN_SERVERS', apply: false }, 'descr', { get: () => 'x', enumerable: true }),
      code: 'INVALID_REQUEST',
    },
    {
      name: 'a body one byte over 16 KiB',
      symbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
      // {"apply":false,"descr":"…","id":0,"name":"LAN_SERVERS"} is 54 bytes of framing.
      body: { id: 0, name: 'LAN_SERVERS', descr: 'x'.repeat(MAX_WRITE_BODY_BYTES - 54 + 1), apply: false },
      code: 'BODY_TOO_LARGE',
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.name} with ${c.code} and zero transport calls`, async () => {
      const transport = new RecordingMockTransport({ replies: [OK] });
      const client = new WriteApiClient(transport, c.endpoints === undefined ? {} : { endpoints: c.endpoints as never });
      const error = await refusal(client.send(c.symbol, c.method, c.body));
      expect(error.code).toBe(c.code);
      expect(error.requestWritten).toBe(false);
      expect(error.name).toBe('WriteRefusalError');
      expect(transport.callCount).toBe(0);
    });
  }

  it('never echoes the body in a refusal', async () => {
    const client = new WriteApiClient(new RecordingMockTransport({ replies: [OK] }));
    const secret = 'SECRET-DESCRIPTION-'.repeat(1000);
    const error = await refusal(client.send('FIREWALL_ALIAS_PATCH', 'PATCH', { descr: secret }));
    expect(error.message).not.toContain('SECRET-DESCRIPTION');
  });

  it('sends a body of exactly 16 KiB', async () => {
    const transport = new RecordingMockTransport({ replies: [OK] });
    const client = new WriteApiClient(transport);
    await client.send('FIREWALL_ALIAS_PATCH', 'PATCH', {
      id: 0,
      name: 'LAN_SERVERS',
      descr: 'x'.repeat(MAX_WRITE_BODY_BYTES - 54),
      apply: false,
    });
    expect(Buffer.byteLength(transport.calls[0]?.body ?? '', 'utf8')).toBe(MAX_WRITE_BODY_BYTES);
  });
});

describe('WriteApiClient.send', () => {
  it('sends exactly one canonical JSON request to the table path and returns the raw response', async () => {
    const reply = { status: 200, body: '{"code":200}', headers: { 'X-Test': 'a' } };
    const transport = new RecordingMockTransport({ replies: [reply] });
    const client = new WriteApiClient(transport);
    const response = await client.send('FIREWALL_ALIAS_PATCH', 'PATCH', { id: 3, name: 'WEB_PORTS', descr: 'é\n\t', apply: false });
    expect(transport.calls).toEqual([
      {
        index: 0,
        method: 'PATCH',
        path: '/api/v2/firewall/alias',
        query: null,
        body: '{"apply":false,"descr":"é\\n\\t","id":3,"name":"WEB_PORTS"}',
      },
    ]);
    expect(response).toEqual({ status: 200, headers: { 'x-test': 'a' }, body: '{"code":200}' });
  });

  it("returns non-2xx responses unclassified (classification is the executor's)", async () => {
    const transport = new RecordingMockTransport({ replies: [{ status: 503, body: 'busy' }] });
    const response = await new WriteApiClient(transport).send('FIREWALL_ALIAS_PATCH', 'PATCH', request);
    expect(response.status).toBe(503);
    expect(response.body).toBe('busy');
  });

  it('propagates transport errors unchanged (same object, requestWritten kept)', async () => {
    const errors = [
      new TransportsTimeoutError('RESPONSE_TIMEOUT', true),
      new TransportsConnectionError('CONNECTION_REFUSED', false),
      new ResponseTooLargeError(1024),
    ];
    for (const error of errors) {
      const transport = new RecordingMockTransport({ replies: [{ error }] });
      const thrown: unknown = await new WriteApiClient(transport).send('FIREWALL_ALIAS_PATCH', 'PATCH', request).catch((e: unknown) => e);
      expect(thrown).toBe(error);
      expect(thrown).toBeInstanceOf(TransportError);
      expect(transport.callCount).toBe(1);
    }
  });

  it('re-exports the transport error classes themselves (instanceof works across the boundary)', () => {
    expect(TransportTimeoutError).toBe(TransportsTimeoutError);
    expect(TransportConnectionError).toBe(TransportsConnectionError);
  });

  it('exposes no transport and cannot be changed', () => {
    const client = new WriteApiClient(new RecordingMockTransport());
    expect(Object.isFrozen(client)).toBe(true);
    expect(Object.keys(client)).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.getPrototypeOf(client)).sort()).toEqual(['constructor', 'send']);
  });

  it('validates its constructor arguments, naming them', () => {
    expect(() => new WriteApiClient({} as never)).toThrow(/"transport"/);
    const t = new RecordingMockTransport();
    expect(() => new WriteApiClient(t, { endpoints: [] as never })).toThrow(/"options.endpoints"/);
    expect(() => new WriteApiClient(t, { endpoints: { lower: { method: 'PATCH', path: '/api/v2/a', verified: true } } as never })).toThrow(
      /symbols/,
    );
    const X = 'FIREWALL_ALIAS_PATCH';
    const path = '/api/v2/firewall/alias';
    expect(() => new WriteApiClient(t, { endpoints: { [X]: { method: 'GET', path, verified: true } } })).toThrow(/method/);
    expect(() => new WriteApiClient(t, { endpoints: { [X]: { method: 'PATCH', path: 'http://x/api', verified: true } } })).toThrow(/path/);
    expect(() => new WriteApiClient(t, { endpoints: { [X]: { method: 'PATCH', path, verified: 'yes' } } as never })).toThrow(/verified/);
    expect(() => new WriteApiClient(t, { endpoints: { [X]: { method: 'PATCH', path, verified: true, extra: 1 } } as never })).toThrow(
      /exactly the keys/,
    );
  });

  it('accepts an injected table only as a subset of WriteEndpoints: no new symbol, method or path', async () => {
    const t = new RecordingMockTransport({ replies: [OK] });
    const path = '/api/v2/firewall/alias';
    // A new symbol, even over the verified path.
    expect(() => new WriteApiClient(t, { endpoints: { FIREWALL_ALIAS_DELETE: { method: 'DELETE', path, verified: true } } })).toThrow(
      /only symbols of WriteEndpoints/,
    );
    expect(() => new WriteApiClient(t, { endpoints: { toString: { method: 'PATCH', path, verified: true } } as never })).toThrow(/symbols/);
    // The product's symbol with another method or another path.
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      expect(() => new WriteApiClient(t, { endpoints: { FIREWALL_ALIAS_PATCH: { method, path, verified: true } } })).toThrow(
        /own method PATCH/,
      );
    }
    expect(
      () =>
        new WriteApiClient(t, { endpoints: { FIREWALL_ALIAS_PATCH: { method: 'PATCH', path: '/api/v2/firewall/rule', verified: true } } }),
    ).toThrow(/own path/);
    // The same entry, or the same entry lowered to unverified, is a subset; an empty table too.
    const same = new WriteApiClient(t, { endpoints: { FIREWALL_ALIAS_PATCH: { method: 'PATCH', path, verified: true } } });
    await same.send('FIREWALL_ALIAS_PATCH', 'PATCH', request);
    expect(t.callCount).toBe(1);
    const lowered = new WriteApiClient(t, { endpoints: { FIREWALL_ALIAS_PATCH: { method: 'PATCH', path, verified: false } } });
    expect((await refusal(lowered.send('FIREWALL_ALIAS_PATCH', 'PATCH', request))).code).toBe('UNVERIFIED_ENDPOINT');
    const empty = new WriteApiClient(t, { endpoints: {} });
    expect((await refusal(empty.send('FIREWALL_ALIAS_PATCH', 'PATCH', request))).code).toBe('UNKNOWN_ENDPOINT');
    expect(t.callCount).toBe(1);
  });

  it('isWriteRequestFor: exactly {id, name, descr, apply: false} for FIREWALL_ALIAS_PATCH, nothing for other symbols', () => {
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', request)).toBe(true);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', Object.assign(Object.create(null) as object, request))).toBe(true);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', { ...request, extra: 1 })).toBe(false);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', { ...request, apply: 0 })).toBe(false);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', { ...request, id: 1.5 })).toBe(false);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', { id: 0, descr: 'x', apply: false })).toBe(false);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', { ...request, name: 7 })).toBe(false);
    expect(
      isWriteRequestFor('FIREWALL_ALIAS_PATCH', Object.defineProperty({ ...request }, 'descr', { value: 'x', enumerable: false })),
    ).toBe(false);
    expect(isWriteRequestFor('OTHER', request)).toBe(false);
    expect(isWriteRequestFor('toString', request)).toBe(false);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', [request])).toBe(false);
  });

  it("copies an injected table (later changes to the caller's object are not seen)", async () => {
    const table: Record<string, { method: HttpMethod; path: string; verified: boolean }> = {
      FIREWALL_ALIAS_PATCH: { method: 'PATCH', path: '/api/v2/firewall/alias', verified: false },
    };
    const transport = new RecordingMockTransport({ replies: [OK] });
    const client = new WriteApiClient(transport, { endpoints: table });
    (table.FIREWALL_ALIAS_PATCH as { verified: boolean }).verified = true;
    expect((await refusal(client.send('FIREWALL_ALIAS_PATCH', 'PATCH', request))).code).toBe('UNVERIFIED_ENDPOINT');
    expect(transport.callCount).toBe(0);
  });
});

describe('WriteApiClient against the simulator (loopback HTTP)', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: 'write-client-test-key-0123456789abcdef' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('patches the alias description with exactly one PATCH and apply=false', async () => {
    const transport = createHttpTransport({
      baseUrl: sim.url,
      allowHttpLoopback: true,
      authHeader: { name: 'X-API-Key', value: sim.apiKey },
    });
    sim.control.resetCounters();
    const response = await new WriteApiClient(transport).send('FIREWALL_ALIAS_PATCH', 'PATCH', {
      id: 0,
      name: 'LAN_SERVERS',
      descr: 'changed by test',
      apply: false,
    });
    expect(response.status).toBe(200);
    const envelope = JSON.parse(response.body) as { status: string; data: { id: number; descr: string } };
    expect(envelope.status).toBe('ok');
    expect(envelope.data.id).toBe(0);
    expect(envelope.data.descr).toBe('changed by test');
    expect(sim.control.counters()).toEqual({ 'PATCH /api/v2/firewall/alias': 1 });
    expect(sim.control.pendingSubsystems()).toContain('aliases');
  });
});

describe('FIREWALL_ALIAS_ENTRIES_PATCH: its own closed shape {id, name, address[], detail[], apply: true}', () => {
  const entries = Object.freeze({ id: 2, name: 'BLOCKLIST', address: ['203.0.113.7'], detail: ['blocked'], apply: true });

  it('accepts exactly the entries shape and nothing of the description shape', () => {
    expect(isWriteRequestFor('FIREWALL_ALIAS_ENTRIES_PATCH', entries)).toBe(true);
    expect(isWriteRequestFor('FIREWALL_ALIAS_ENTRIES_PATCH', { ...entries, address: [], detail: [] })).toBe(true);
    expect(isWriteRequestFor('FIREWALL_ALIAS_ENTRIES_PATCH', request)).toBe(false);
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', entries)).toBe(false);
    // The description shape is unchanged: apply stays false there.
    expect(isWriteRequestFor('FIREWALL_ALIAS_PATCH', request)).toBe(true);
  });

  for (const [name, body] of [
    ['apply: false', { ...entries, apply: false }],
    ['an extra descr', { ...entries, descr: 'x' }],
    ['misaligned lists', { ...entries, detail: [] }],
    ['a non-string entry', { ...entries, address: [7], detail: ['x'] }],
    ['a sparse list', { ...entries, address: new Array<string>(1), detail: ['x'] }],
    ['a missing detail', { id: 2, name: 'BLOCKLIST', address: ['203.0.113.7'], apply: true }],
  ] as const) {
    it(`refuses ${name} before the network`, async () => {
      expect(isWriteRequestFor('FIREWALL_ALIAS_ENTRIES_PATCH', body)).toBe(false);
      const transport = new RecordingMockTransport({ replies: [OK] });
      const error = await refusal(new WriteApiClient(transport).send('FIREWALL_ALIAS_ENTRIES_PATCH', 'PATCH', body));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(transport.callCount).toBe(0);
    });
  }

  it('sends the complete lists as canonical JSON to the alias path, larger than a description may be', async () => {
    const transport = new RecordingMockTransport({ replies: [OK, OK] });
    const client = new WriteApiClient(transport);
    await client.send('FIREWALL_ALIAS_ENTRIES_PATCH', 'PATCH', entries);
    expect(transport.calls[0]).toEqual({
      index: 0,
      method: 'PATCH',
      path: '/api/v2/firewall/alias',
      query: null,
      body: '{"address":["203.0.113.7"],"apply":true,"detail":["blocked"],"id":2,"name":"BLOCKLIST"}',
    });
    const address = Array.from({ length: 2000 }, (_, i) => `10.${Math.floor(i / 250)}.${i % 250}.1`);
    const big = { id: 2, name: 'BLOCKLIST', address, detail: address.map(() => 'entry'), apply: true };
    expect(maxBodyBytesFor('FIREWALL_ALIAS_ENTRIES_PATCH')).toBeGreaterThan(MAX_WRITE_BODY_BYTES);
    await client.send('FIREWALL_ALIAS_ENTRIES_PATCH', 'PATCH', big);
    expect(Buffer.byteLength(transport.calls[1]?.body ?? '', 'utf8')).toBeGreaterThan(MAX_WRITE_BODY_BYTES);
  });
});
