// fields, filter, sort_by and sort_order through a real MCP client (the v2 SDK Client, in memory, against the
// server factory over the real HTTP transport and the simulator): every secret, withheld and identifying field is
// refused on every list tool in each of the three places, questions are answered with one call, and the errors
// name the field and the nearest valid one.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { READ_CATALOGUE, SCAN_PAGE_SIZE } from '@pfsense-mcp/pfsense-read';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERAS } from './support/clients.js';
import { errorOf, startHarness, type Harness } from './support/in-process-server.js';

const LISTS = READ_CATALOGUE.filter((t) => t.plural);
type Row = Record<string, unknown>;

function rowsOf(result: CallToolResult): Row[] {
  expect(result.isError ?? false, JSON.stringify(result.content).slice(0, 300)).toBe(false);
  return (result.structuredContent as { data: Row[] }).data;
}

describe.each(ERAS)('list tools answer questions (%s era)', (era) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ era });
  });
  afterAll(() => h.close());

  it('refuses every withheld field and every identifying field without the flag, in fields, filter and sort_by, on every list tool', async () => {
    let refusals = 0;
    for (const tool of LISTS) {
      const attempts: [string, string][] = [
        ...tool.withheldFields.map((f) => [f, 'withheld'] as [string, string]),
        ...tool.identifyingFields.map((f) => [f, f.includes('.') ? 'not a field' : 'identifying'] as [string, string]),
      ];
      for (const [field, why] of attempts) {
        for (const args of [{ fields: [field] }, { filter: [{ field, op: 'eq', value: 'x' }] }, { sort_by: field }]) {
          const result = await h.client.callTool({ name: tool.name, arguments: args });
          const error = errorOf(result);
          expect(error.code, `${tool.name} ${JSON.stringify(args)}`).toBe('INVALID_INPUT');
          // A field is named for what it is; an identifying path inside an embedded model is no field of the list.
          const detail = String(error['detail']);
          if (why === 'not a field') expect(detail, tool.name).toContain(`"${field}" is not a field of this tool`);
          else expect(detail, tool.name).toContain(`"${field}" is ${why}`);
          refusals += 1;
        }
      }
    }
    // 61 list tools; the catalogue's withheld and identifying fields of list tools, each tried three ways.
    expect(refusals).toBeGreaterThan(300);
    // None of them reached the appliance: the simulator saw no GET for a refused call.
    expect(h.logs.join('')).not.toContain('"outcome":"ok"');
  });

  it('with include_identifying_metadata, an identifying field is selectable, filterable and sortable', async () => {
    const rows = rowsOf(
      await h.client.callTool({
        name: 'pfsense_get_firewall_rules',
        arguments: {
          include_identifying_metadata: true,
          fields: ['destination'],
          filter: [{ field: 'destination', op: 'eq', value: 'wan:ip' }],
          sort_by: 'destination',
        },
      }),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toEqual({ id: row['id'], destination: 'wan:ip' });
  });

  it('answers "which rules block traffic on WAN?" in one call, the same answer as paging every full row', async () => {
    const full: Row[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await h.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { limit: 5, offset } });
      full.push(...rowsOf(page));
      offset = (page.structuredContent as { next_offset: number | null }).next_offset;
    }
    const expected = full
      .filter((r) => r['type'] === 'block' && (r['interface'] as string[]).includes('WAN'))
      .map((r) => [r['id'], r['descr']]);
    const answer = rowsOf(
      await h.client.callTool({
        name: 'pfsense_get_firewall_rules',
        arguments: {
          fields: ['descr'],
          filter: [
            { field: 'type', op: 'eq', value: 'block' },
            { field: 'interface', op: 'contains', value: 'WAN' },
          ],
        },
      }),
    );
    expect(answer.map((r) => [r['id'], r['descr']])).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    expect(answer.every((r) => Object.keys(r).join() === 'id,descr')).toBe(true);
  });

  it('filters the server applies itself (in) page exactly, sorted as pfrest sorts', async () => {
    const args = {
      fields: ['name', 'status'],
      filter: [{ field: 'name', op: 'in', value: ['unbound', 'dhcpd', 'sshd', 'acme'] }],
      sort_by: 'name',
    };
    const all = rowsOf(await h.client.callTool({ name: 'pfsense_get_service_status', arguments: args }));
    expect(all.map((r) => r['name'])).toEqual(['acme', 'dhcpd', 'sshd', 'unbound']);
    const paged: Row[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await h.client.callTool({ name: 'pfsense_get_service_status', arguments: { ...args, limit: 3, offset } });
      paged.push(...rowsOf(page));
      offset = (page.structuredContent as { next_offset: number | null }).next_offset;
    }
    expect(paged).toEqual(all);
  });

  it('names an unknown field and the nearest valid one, and a wrong op, without echoing a value', async () => {
    const unknown = errorOf(await h.client.callTool({ name: 'pfsense_get_firewall_rules', arguments: { fields: ['destinaton_port'] } }));
    expect(unknown.code).toBe('INVALID_INPUT');
    expect(unknown['detail']).toContain('"destinaton_port" is not a field of this tool; nearest valid: destination_port');
    const op = errorOf(
      await h.client.callTool({
        name: 'pfsense_get_firewall_rules',
        arguments: { filter: [{ field: 'descr', op: 'regex', value: 'planted-value-0123' }] },
      }),
    );
    expect(op['detail']).toContain('must be one of eq, ne, contains, startswith, endswith, in, lt, lte, gt, gte');
    expect(JSON.stringify(op)).not.toContain('planted-value-0123');
  });
});

describe('a filter the server applies over more than 10,000 rows', () => {
  let h: Harness;
  beforeAll(async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => ({ name: `svc${i}`, description: '', enabled: true, status: true }));
    h = await startHarness({ sim: { data: { '/api/v2/status/services': rows } } });
  });
  afterAll(() => h.close());

  it('fails with SCAN_LIMIT_EXCEEDED instead of a partial answer; the same question pfrest filters succeeds', async () => {
    const scan = await h.client.callTool({
      name: 'pfsense_get_service_status',
      arguments: { filter: [{ field: 'name', op: 'in', value: ['nope'] }] },
    });
    expect(errorOf(scan).code).toBe('SCAN_LIMIT_EXCEEDED');
    const upstream = await h.client.callTool({
      name: 'pfsense_get_service_status',
      arguments: { filter: [{ field: 'name', op: 'eq', value: 'svc10000' }] },
    });
    expect(rowsOf(upstream)).toHaveLength(1);
    expect(SCAN_PAGE_SIZE).toBe(500);
  });
});
