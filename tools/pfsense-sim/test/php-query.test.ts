// The simulator's queries follow pfrest's PHP, not JavaScript: the query string is typed first
// (URLContentHandler::infer_type), filters compare loosely (QueryFilters/*.inc), sort_by/sort_order are validated
// (Endpoint::validate_sort_*), the sort is PHP's standard comparison, and reverse comes after paging
// (Model::query). pfsense-mcp relies on these to decide which filters it may send upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';
import { api, raw, type Envelope } from './helpers.js';

const PATH = '/api/v2/firewall/rules';
const rows = [
  { descr: 'first', port: '443', tag: 'alpha', nums: [1, 2], on: true },
  { descr: '', port: '0443', tag: 'alphabet', nums: [10], on: false },
  { descr: 'third', port: '10', tag: 'beta', nums: [], on: false },
  { descr: 'fourth', port: '9', tag: 'gamma', nums: [2], on: true },
];

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ data: { [PATH]: rows } });
});
afterAll(() => sim.close());

async function ids(query: string, headers: Record<string, string> = {}): Promise<number[]> {
  const { env } = await api(sim.url, sim.apiKey).get(`${PATH}${query}`, headers);
  return (env.data as { id: number }[]).map((r) => r.id);
}

describe('pfrest PHP query semantics', () => {
  it('types query-string values: true/false/null and digits stop being text', async () => {
    // "first" == true in PHP: every non-empty text equals true.
    expect(await ids('?descr=true')).toEqual([0, 2, 3]);
    expect(await ids('?on=false')).toEqual([1, 2]);
    // 443 is an integer; PHP compares the numeric texts "443" and "0443" with it as numbers.
    expect(await ids('?port=443')).toEqual([0, 1]);
    expect(await ids('?port__contains=443')).toEqual([0, 1]);
    // A JSON body is not typed: the text "443" equals only "443"... and "0443", both numeric strings.
    const res = await raw(`${sim.url}${PATH}`, {
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
      body: '{"descr":"true"}',
    });
    expect(((res.json as Envelope).data as unknown[]).length).toBe(0);
  });

  it('in: a list value is in_array, a text value is a substring search of the field in the value', async () => {
    expect(await ids('?tag__in[]=alpha&tag__in[]=beta')).toEqual([0, 2]);
    expect(await ids('?tag__in=alphabet')).toEqual([0, 1]);
  });

  it('contains on a list is in_array; startswith/endswith read the first/last element', async () => {
    expect(await ids('?nums__contains=2')).toEqual([0, 3]);
    expect(await ids('?nums__startswith=1')).toEqual([0, 1]);
    expect(await ids('?nums__endswith=2')).toEqual([0, 3]);
  });

  it('lt/gt compare numeric values only', async () => {
    expect(await ids('?port__lt=100')).toEqual([2, 3]);
    expect(await ids('?tag__gt=0')).toEqual([]);
  });

  it('sorts with PHP comparison (numeric texts as numbers), keeping ids', async () => {
    expect(await ids('?sort_by=port')).toEqual([3, 2, 0, 1]);
    expect(await ids('?sort_by=port&sort_order=SORT_DESC')).toEqual([0, 1, 2, 3]);
    expect(await ids('?sort_by=tag&sort_order=SORT_DESC&limit=2&offset=1')).toEqual([2, 1]);
  });

  it('refuses sort_by that is not a model field (id included) and an unknown sort_order', async () => {
    const c = api(sim.url, sim.apiKey);
    for (const query of ['?sort_by=nope', '?sort_by=id']) {
      const { status, env } = await c.get(`${PATH}${query}`);
      expect([status, env.response_id]).toEqual([400, 'ENDPOINT_SORT_BY_FIELD_NON_EXISTENT_FIELD']);
    }
    const { status, env } = await c.get(`${PATH}?sort_by=tag&sort_order=up`);
    expect([status, env.response_id]).toEqual([400, 'ENDPOINT_SORT_ORDER_FIELD_UNKNOWN_SORT_ORDER']);
  });

  it('reverses after paging', async () => {
    expect(await ids('?limit=2&reverse=true')).toEqual([1, 0]);
  });
});
