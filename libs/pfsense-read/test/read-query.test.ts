// fields, filter, sort_by and sort_order on list tools: what is refused and how, which filters go to
// pfrest as query parameters, and how the server pages when it applies a filter itself.
import { describe, expect, it } from 'vitest';
import {
  MAX_SCAN_ROWS,
  ReadScanLimitError,
  ReadToolInputError,
  RestApiClient,
  SCAN_PAGE_SIZE,
  findReadTool,
  runReadTool,
  type PluralReadToolResult,
  type ReadToolDefinition,
} from '../src/index.js';
import { FakeTransport, envelope, type RecordedCall } from './fake-transport.js';

function tool(name: string): ReadToolDefinition {
  const t = findReadTool(name);
  if (t === undefined) throw new Error(`no tool ${name}`);
  return t;
}

const RULES = tool('pfsense_get_firewall_rules');
const ALIASES = tool('pfsense_get_firewall_aliases');
const USERS = tool('pfsense_get_users');
const MAPPINGS = tool('pfsense_get_dhcp_static_mappings');

/** A fake appliance holding `rows` that pages them by limit/offset and applies no filter (the server's own path). */
function pagingClient(rows: readonly Record<string, unknown>[]): { client: RestApiClient; transport: FakeTransport } {
  const transport = new FakeTransport((call: RecordedCall) => {
    const q = call.options?.query ?? {};
    const offset = Number(q['offset'] ?? 0);
    const limit = Number(q['limit'] ?? 0);
    return envelope(rows.map((r, id) => ({ id, ...r })).slice(offset, limit === 0 ? undefined : offset + limit));
  });
  return { client: new RestApiClient(transport), transport };
}

async function refusal(t: ReadToolDefinition, input: unknown): Promise<string> {
  const { client, transport } = pagingClient([]);
  const error = await runReadTool(client, t, input).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ReadToolInputError);
  expect(transport.calls).toHaveLength(0);
  return (error as ReadToolInputError).summary;
}

describe('input checks', () => {
  it('names an unknown field and the nearest valid one', async () => {
    expect(await refusal(RULES, { fields: ['type', 'destinaton_port'] })).toBe(
      'fields.1: "destinaton_port" is not a field of this tool; nearest valid: destination_port',
    );
    expect(await refusal(RULES, { filter: [{ field: 'typ', op: 'eq', value: 'block' }] })).toBe(
      'filter.0.field: "typ" is not a field of this tool; nearest valid: type',
    );
    expect(await refusal(RULES, { sort_by: 'descrr' })).toBe('sort_by: "descrr" is not a field of this tool; nearest valid: descr');
  });

  it('refuses a withheld field in fields, filter and sort_by alike, naming it as withheld', async () => {
    for (const input of [
      { fields: ['password'] },
      { filter: [{ field: 'password', op: 'startswith', value: '$2y' }] },
      { sort_by: 'password' },
    ]) {
      expect(await refusal(USERS, input)).toMatch(/"password" is withheld \(never returned\); nearest valid: \w+$/);
    }
  });

  it('accepts an identifying field only with include_identifying_metadata', async () => {
    expect(await refusal(RULES, { filter: [{ field: 'destination', op: 'eq', value: 'any' }] })).toBe(
      'filter.0.field: "destination" is identifying: set include_identifying_metadata to true',
    );
    const { client } = pagingClient([]);
    await expect(
      runReadTool(client, RULES, { include_identifying_metadata: true, filter: [{ field: 'destination', op: 'eq', value: 'any' }] }),
    ).resolves.toMatchObject({ count: 0 });
  });

  it('checks the op set, the count, the shape and the value type, never echoing a value', async () => {
    const secretish = 'value-that-must-not-be-echoed';
    expect(await refusal(RULES, { filter: [{ field: 'descr', op: 'regex', value: secretish }] })).toBe(
      'filter.0.op: must be one of eq, ne, contains, startswith, endswith, in, lt, lte, gt, gte',
    );
    expect(await refusal(RULES, { filter: [{ field: 'disabled', op: 'eq', value: secretish }] })).toBe(
      'filter.0: "disabled" value must be true or false',
    );
    expect(await refusal(RULES, { filter: [{ field: 'disabled', op: 'contains', value: true }] })).toBe(
      'filter.0: "disabled" takes op eq, ne',
    );
    expect(await refusal(RULES, { filter: [{ field: 'descr', op: 'eq', value: secretish, extra: 1 }] })).toBe(
      'filter.0: each filter is exactly {field, op, value}',
    );
    expect(await refusal(RULES, { filter: [{ field: 'descr', op: 'in', value: secretish }] })).toBe(
      'filter.0: "descr" value of in must be a list of 1 to 32 values',
    );
    const nine = Array.from({ length: 9 }, () => ({ field: 'descr', op: 'contains', value: 'x' }));
    expect(await refusal(RULES, { filter: nine })).toBe('filter: at most 8 filters');
    expect(await refusal(RULES, { sort_by: 'descr', sort_order: 'up' })).toBe('sort_order: must be asc or desc');
    expect(await refusal(RULES, { sort_order: 'desc' })).toBe('sort_order: needs sort_by');
    expect(await refusal(RULES, { sort_by: 'interface' })).toBe('sort_by: "interface" cannot be used in sort_by; nearest valid: tracker');
    expect(await refusal(RULES, { fields: ['no such\nname'] })).toBe('fields.0: is not a field name');
    for (const input of [{ filter: [{ field: 'descr', op: 'eq', value: secretish }], sort_by: 'nope' }]) {
      expect(await refusal(RULES, input)).not.toContain(secretish);
    }
  });

  it('a singular tool takes none of them', async () => {
    await expect(runReadTool(pagingClient([]).client, tool('pfsense_get_system_version'), { fields: ['version'] })).rejects.toBeInstanceOf(
      ReadToolInputError,
    );
  });
});

describe('what goes to pfrest', () => {
  it('sends exact filters and the sort as pfrest query parameters in one GET', async () => {
    const { client, transport } = pagingClient([]);
    await runReadTool(client, RULES, {
      limit: 10,
      offset: 20,
      filter: [
        { field: 'type', op: 'eq', value: 'block' },
        { field: 'interface', op: 'contains', value: 'WAN' },
        { field: 'disabled', op: 'ne', value: true },
        { field: 'tracker', op: 'gte', value: 1700000000 },
        { field: 'descr', op: 'startswith', value: 'Default' },
        { field: 'id', op: 'lt', value: 50 },
      ],
      sort_by: 'descr',
      sort_order: 'desc',
    });
    expect(transport.calls.map((c) => c.options?.query)).toEqual([
      {
        type__exact: 'block',
        interface__contains: 'WAN',
        disabled__except: 'true',
        tracker__gte: 1700000000,
        descr__startswith: 'Default',
        id__lt: 50,
        sort_by: 'descr',
        sort_order: 'SORT_DESC',
        limit: 10,
        offset: 20,
      },
    ]);
  });

  it('keeps to the server what pfrest would compare loosely: in, retyped text, numbers on text fields', async () => {
    const cases: Record<string, unknown>[] = [
      { field: 'type', op: 'in', value: ['block', 'reject'] },
      { field: 'descr', op: 'eq', value: 'true' },
      { field: 'descr', op: 'eq', value: '443' },
      { field: 'descr', op: 'eq', value: '1e3' },
      { field: 'descr', op: 'contains', value: '0443' },
      { field: 'descr', op: 'contains', value: '1.5' },
      { field: 'destination_port', op: 'eq', value: 443 },
      { field: 'destination_port', op: 'eq', value: '443' },
      { field: 'interface', op: 'contains', value: '1' },
    ];
    for (const filter of cases) {
      const { client, transport } = pagingClient([]);
      await runReadTool(client, RULES, { filter: [filter] });
      expect(transport.calls[0]?.options?.query, JSON.stringify(filter)).toEqual({ limit: SCAN_PAGE_SIZE, offset: 0 });
    }
    // Text that PHP keeps as text is exact upstream, digits included where strval gives them back.
    const { client, transport } = pagingClient([]);
    await runReadTool(client, RULES, { filter: [{ field: 'descr', op: 'contains', value: '443' }] });
    expect(transport.calls[0]?.options?.query).toEqual({ descr__contains: '443', limit: 100, offset: 0 });
  });
});

describe('filters applied in the server', () => {
  const rules = Array.from({ length: 1200 }, (_, i) => ({ type: ['pass', 'block', 'reject'][i % 3], descr: `rule ${i}` }));

  it('pages the upstream collection, filters, then applies offset and limit exactly', async () => {
    const { client, transport } = pagingClient(rules);
    const input = { filter: [{ field: 'type', op: 'in', value: ['block', 'reject'] }], fields: ['type'], limit: 5, offset: 3 };
    const result = (await runReadTool(client, RULES, input)) as PluralReadToolResult;
    expect(result.data).toEqual([
      { id: 5, type: 'reject' },
      { id: 7, type: 'block' },
      { id: 8, type: 'reject' },
      { id: 10, type: 'block' },
      { id: 11, type: 'reject' },
    ]);
    expect(result).toMatchObject({ count: 5, limit: 5, offset: 3, next_offset: 8, truncated: false });
    // One page was enough to fill offset + limit and see one more match.
    expect(transport.calls.map((c) => c.options?.query)).toEqual([{ limit: SCAN_PAGE_SIZE, offset: 0 }]);
    expect(RULES.outputSchema.safeParse(result).success).toBe(true);
    expect(RULES.conformsToOutputSchema(result)).toBe(true);
  });

  it('reads to the end when fewer match, and then says no more follow', async () => {
    const { client, transport } = pagingClient(rules);
    const input = { filter: [{ field: 'descr', op: 'in', value: ['rule 1', 'rule 1199'] }] };
    const result = (await runReadTool(client, RULES, input)) as PluralReadToolResult;
    expect(result.data.map((r) => (r as { id: number }).id)).toEqual([1, 1199]);
    expect(result.next_offset).toBeNull();
    expect(transport.calls.map((c) => c.options?.query?.['offset'])).toEqual([0, 500, 1000]);
  });

  it(`fails closed past ${MAX_SCAN_ROWS} upstream rows`, async () => {
    const many = Array.from({ length: MAX_SCAN_ROWS + 1 }, () => ({ type: 'pass' }));
    const { client, transport } = pagingClient(many);
    await expect(runReadTool(client, RULES, { filter: [{ field: 'type', op: 'in', value: ['block'] }] })).rejects.toBeInstanceOf(
      ReadScanLimitError,
    );
    expect(transport.calls).toHaveLength(MAX_SCAN_ROWS / SCAN_PAGE_SIZE + 1);
    // Exactly the bound is fine: the probe past it comes back empty.
    const exact = pagingClient(many.slice(1));
    await expect(runReadTool(exact.client, RULES, { filter: [{ field: 'type', op: 'in', value: ['block'] }] })).resolves.toMatchObject({
      count: 0,
    });
  });
});

describe('fields', () => {
  it('returns the ids and exactly the named fields, in model order; parent_id stays on child rows', async () => {
    const { client } = pagingClient([{ name: 'web', type: 'host', descr: 'servers', address: ['10.0.0.1'] }]);
    const result = await runReadTool(client, ALIASES, { fields: ['descr', 'name', 'id', 'name'] });
    expect((result as PluralReadToolResult).data).toEqual([{ id: 0, name: 'web', descr: 'servers' }]);
    expect(ALIASES.conformsToOutputSchema(result)).toBe(true);
    expect(ALIASES.outputSchema.safeParse(result).success).toBe(true);

    const mappings = pagingClient([{ parent_id: 'lan', ipaddr: '10.0.5.7', mac: 'aa' }]);
    const rows = await runReadTool(mappings.client, MAPPINGS, { fields: ['ipaddr'] });
    expect((rows as PluralReadToolResult).data).toEqual([{ id: 0, parent_id: 'lan', ipaddr: '10.0.5.7' }]);
  });

  it('an identifying field named in fields is refused without the flag and shown with it', async () => {
    await refusal(ALIASES, { fields: ['address'] });
    const { client } = pagingClient([{ name: 'web', address: ['10.0.0.1'] }]);
    const result = await runReadTool(client, ALIASES, { fields: ['address'], include_identifying_metadata: true });
    expect((result as PluralReadToolResult).data).toEqual([{ id: 0, address: ['10.0.0.1'] }]);
  });
});
