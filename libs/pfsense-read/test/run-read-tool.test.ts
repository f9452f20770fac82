import { describe, expect, it } from 'vitest';
import {
  PfrestResponseError,
  READ_CATALOGUE,
  ReadToolInputError,
  RestApiClient,
  findReadTool,
  runReadTool,
  truncateReadResult,
} from '../src/index.js';
import type { PluralReadToolResult, ReadToolDefinition } from '../src/index.js';
import { FakeTransport, envelope } from './fake-transport.js';

function tool(name: string): ReadToolDefinition {
  const t = findReadTool(name);
  if (t === undefined) throw new Error(`no tool ${name}`);
  return t;
}

function clientReturning(data: unknown): { client: RestApiClient; transport: FakeTransport } {
  const transport = new FakeTransport(() => envelope(data));
  return { client: new RestApiClient(transport), transport };
}

describe('runReadTool', () => {
  it('reads a plural tool with limit/offset only and returns the documented plural shape', async () => {
    const { client, transport } = clientReturning([
      { id: 0, name: 'web', type: 'host', descr: 'servers', address: ['10.0.0.1'], detail: ['a'], extra: 'dropped' },
    ]);
    const t = tool('pfsense_get_firewall_aliases');
    const result = await runReadTool(client, t, { limit: 5, offset: 2 });
    expect(transport.calls).toEqual([{ method: 'GET', path: '/api/v2/firewall/aliases', options: { query: { limit: 5, offset: 2 } } }]);
    expect(result).toEqual({
      data: [{ id: 0, name: 'web', type: 'host', descr: 'servers', address: null, detail: null }],
      count: 1,
      limit: 5,
      offset: 2,
      next_offset: null,
      truncated: false,
    });
    expect(Object.isFrozen(result)).toBe(true);
    expect(t.outputSchema.safeParse(result).success).toBe(true);
  });

  it('applies defaults (limit 100, offset 0) and sets next_offset on a full page', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ id: i, name: `a${i}` }));
    const { client, transport } = clientReturning(rows);
    const result = (await runReadTool(client, tool('pfsense_get_firewall_aliases'), { limit: 3 })) as PluralReadToolResult;
    expect(transport.calls[0]?.options?.query).toEqual({ limit: 3, offset: 0 });
    expect(result.next_offset).toBe(3);
    const again = await runReadTool(clientReturning([]).client, tool('pfsense_get_firewall_aliases'), {});
    expect(again).toMatchObject({ limit: 100, offset: 0, count: 0, next_offset: null });
  });

  it('reads a singular tool with no query and returns { data }', async () => {
    const { client, transport } = clientReturning({ version: '2.8.1', base: '15', patch: '0', buildtime: 'x', junk: 1 });
    const t = tool('pfsense_get_system_version');
    const result = await runReadTool(client, t, {});
    expect(transport.calls).toEqual([{ method: 'GET', path: '/api/v2/system/version', options: undefined }]);
    expect(result).toEqual({ data: { version: '2.8.1', base: '15', patch: '0', buildtime: 'x' } });
    expect(t.outputSchema.safeParse(result).success).toBe(true);
    expect(await runReadTool(client, t, undefined)).toEqual(result);
  });

  it.each([
    [{ limit: 0 }],
    [{ limit: 1001 }],
    [{ limit: 1.5 }],
    [{ limit: '10' }],
    [{ offset: -1 }],
    [{ offset: 2_000_000_000 }],
    [{ filter: 'x' }],
    [{ name__contains: 'a' }],
    [{ include_identifying_metadata: 'yes' }],
    [{ include_identifying_metadata: 1 }],
    ['limit=1'],
    [[1]],
    [null],
  ])('refuses input %j before any upstream call', async (input) => {
    const { client, transport } = clientReturning([]);
    const error = await runReadTool(client, tool('pfsense_get_firewall_aliases'), input).catch((e: unknown) => e);
    if (input === null) {
      // null is treated as "no arguments" (MCP clients send no arguments object for argument-less calls)
      expect(error).not.toBeInstanceOf(Error);
      return;
    }
    expect(error).toBeInstanceOf(ReadToolInputError);
    expect((error as ReadToolInputError).code).toBe('INVALID_INPUT');
    expect(transport.calls).toEqual([]);
  });

  it('refuses limit/offset on singular tools and the flag on tools without identifying fields', async () => {
    const { client, transport } = clientReturning({});
    await expect(runReadTool(client, tool('pfsense_get_system_version'), { limit: 1 })).rejects.toBeInstanceOf(ReadToolInputError);
    await expect(runReadTool(client, tool('pfsense_get_system_tunables'), { include_identifying_metadata: true })).rejects.toBeInstanceOf(
      ReadToolInputError,
    );
    expect(transport.calls).toEqual([]);
  });

  it('input errors name the argument, never echo the value', async () => {
    const { client } = clientReturning([]);
    const e = (await runReadTool(client, tool('pfsense_get_firewall_aliases'), {
      limit: 'SENTINEL-VALUE',
    }).catch((x: unknown) => x)) as ReadToolInputError;
    expect(e.issues).toEqual([{ path: 'limit', issue: 'invalid_type' }]);
    expect(e.message).not.toContain('SENTINEL');
  });

  it('refuses a tool object that is not a catalogue entry', async () => {
    const { client } = clientReturning([]);
    const forged = { ...tool('pfsense_get_firewall_aliases'), path: '/api/v2/system/restapi/settings' };
    await expect(runReadTool(client, forged, {})).rejects.toThrow(/READ_CATALOGUE/);
  });

  it.each([
    ['plural data is an object', 'pfsense_get_firewall_aliases', { name: 'a' }, '$'],
    ['an item is not an object', 'pfsense_get_firewall_aliases', ['x'], '$[0]'],
    ['a later item is an array', 'pfsense_get_firewall_aliases', [{ name: 'a' }, ['SENTINEL']], '$[1]'],
    ['singular data is an array', 'pfsense_get_system_version', [], '$'],
    ['singular data is a string', 'pfsense_get_system_version', 'SENTINEL', '$'],
    ['singular data is null', 'pfsense_get_system_version', null, '$'],
  ])('a structurally wrong response (%s) is a sanitized UNEXPECTED_SHAPE', async (_why, name, data, path) => {
    const { client } = clientReturning(data);
    const e = (await runReadTool(client, tool(name), {}).catch((x: unknown) => x)) as PfrestResponseError;
    expect(e).toBeInstanceOf(PfrestResponseError);
    expect([e.code, e.dataPath]).toEqual(['UNEXPECTED_SHAPE', path]);
    expect(e.message).not.toContain('SENTINEL');
  });

  it('fails closed when upstream returns more items than limit', async () => {
    const { client } = clientReturning([{}, {}, {}]);
    await expect(runReadTool(client, tool('pfsense_get_firewall_aliases'), { limit: 2 })).rejects.toMatchObject({
      code: 'UNEXPECTED_SHAPE',
    });
  });

  it('truncateReadResult keeps a valid, explicitly truncated result', async () => {
    const rows = Array.from({ length: 4 }, (_, i) => ({ id: i, name: `a${i}` }));
    const t = tool('pfsense_get_firewall_aliases');
    const full = (await runReadTool(clientReturning(rows).client, t, { limit: 10, offset: 20 })) as PluralReadToolResult;
    const cut = truncateReadResult(full, 1);
    expect(cut).toMatchObject({ count: 1, limit: 10, offset: 20, next_offset: 21, truncated: true });
    expect(cut.data).toHaveLength(1);
    expect(t.outputSchema.safeParse(cut).success).toBe(true);
    expect(() => truncateReadResult(full, 4)).toThrow(RangeError);
  });

  it('every catalogue entry is frozen and has a top-level zod object output schema', () => {
    expect(Object.isFrozen(READ_CATALOGUE)).toBe(true);
    for (const t of READ_CATALOGUE) {
      expect(Object.isFrozen(t)).toBe(true);
      expect(t.outputSchema.def.type).toBe('object');
      expect(t.inputSchema.def.type).toBe('object');
    }
  });
});
