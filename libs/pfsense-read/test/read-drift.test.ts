// Type drift in READ projections: a field whose upstream JSON type differs from the model is coerced only when
// that is lossless, otherwise nulled and named in `drift`; the call still succeeds. Structure (the list, its
// items, a singular object) still fails closed.
import { describe, expect, it } from 'vitest';
import { PfrestResponseError, RestApiClient, findReadTool, runReadTool, truncateReadResult } from '../src/index.js';
import type { PluralReadToolResult, ReadToolDefinition } from '../src/index.js';
import { FakeTransport, envelope } from './fake-transport.js';

function tool(name: string): ReadToolDefinition {
  const t = findReadTool(name);
  if (t === undefined) throw new Error(`no tool ${name}`);
  return t;
}

async function read(name: string, data: unknown, input: Record<string, unknown> = {}) {
  const t = tool(name);
  const result = await runReadTool(new RestApiClient(new FakeTransport(() => envelope(data))), t, input);
  expect(t.outputSchema.safeParse(result).success, 'the result fits the output schema').toBe(true);
  return result as PluralReadToolResult & { drift?: readonly string[] };
}

const VLAN = 'pfsense_get_interface_vlans'; // if: string, tag: number, vlanif: string, pcp: number, descr: string
const vlan = (over: Record<string, unknown>) => ({ id: 0, if: 'igb0', tag: 10, vlanif: 'igb0.10', pcp: 0, descr: 'office', ...over });

describe('lossless coercions', () => {
  it('a VLAN whose pcp arrives as the string "0" reads as the number 0, with no drift', async () => {
    const result = await read(VLAN, [vlan({ pcp: '0' })]);
    expect(result.data).toEqual([vlan({ pcp: 0 })]);
    expect(result).not.toHaveProperty('drift');
  });

  it.each([
    ['"42" → 42', '42', 42],
    ['"-7" → -7', '-7', -7],
    ['"9007199254740991" → max safe integer', '9007199254740991', 9007199254740991],
  ])('an integer-valued string in a number field: %s', async (_why, upstream, expected) => {
    const result = await read(VLAN, [vlan({ tag: upstream })]);
    expect((result.data[0] as { tag: unknown }).tag).toBe(expected);
    expect(result.drift).toBeUndefined();
  });

  it.each([
    ['12 → "12"', 12, '12'],
    ['0 → "0"', 0, '0'],
    ['-3 → "-3"', -3, '-3'],
  ])('an integer in a string field: %s', async (_why, upstream, expected) => {
    const result = await read(VLAN, [vlan({ descr: upstream })]);
    expect((result.data[0] as { descr: unknown }).descr).toBe(expected);
    expect(result.drift).toBeUndefined();
  });

  it('elements of a list field are coerced one by one', async () => {
    const result = await read('pfsense_get_firewall_aliases', [{ id: 0, name: 'ports', type: 'port', address: [443, '80'], detail: [1] }], {
      include_identifying_metadata: true,
    });
    expect(result.data[0]).toMatchObject({ address: ['443', '80'], detail: ['1'] });
    expect(result.drift).toBeUndefined();
  });
});

describe('anything else is drift: the field is null and named, the call succeeds', () => {
  it.each([
    ['an empty string for a number', { pcp: '' }, 'pcp'],
    ['a float string for a number', { pcp: '1.5' }, 'pcp'],
    ['a zero-padded string for a number', { tag: '007' }, 'tag'],
    ['an exponent string for a number', { tag: '1e3' }, 'tag'],
    ['a hex string for a number', { tag: '0x10' }, 'tag'],
    ['a padded string for a number', { tag: ' 10' }, 'tag'],
    ['an unsafe integer string for a number', { tag: '9007199254740993' }, 'tag'],
    ['a boolean for a number', { pcp: true }, 'pcp'],
    ['an object for a string', { descr: { a: 'SENTINEL-VALUE' } }, 'descr'],
    ['an array for a string', { vlanif: ['SENTINEL-VALUE'] }, 'vlanif'],
    ['a float for a string', { descr: 1.5 }, 'descr'],
    ['a boolean for a string', { descr: false }, 'descr'],
  ])('%s', async (_why, over, field) => {
    const result = await read(VLAN, [vlan(over)]);
    expect((result.data[0] as Record<string, unknown>)[field]).toBeNull();
    expect(result.drift).toEqual([field]);
    expect(JSON.stringify(result)).not.toContain('SENTINEL');
    // the rest of the item is intact
    expect(result.data[0]).toMatchObject({ if: 'igb0' });
  });

  it('no boolean is parsed from text or numbers', async () => {
    for (const upstream of ['true', 'false', '1', 1, 0, 'yes', '']) {
      const result = await read('pfsense_get_carp_status', { enable: upstream, maintenance_mode: false });
      expect(result.data).toEqual({ enable: null, maintenance_mode: false });
      expect(result.drift).toEqual(['enable']);
    }
  });

  it('a list field that is not a list, or holds one misfit element, is null as a whole', async () => {
    const result = await read(
      'pfsense_get_firewall_aliases',
      [
        { id: 0, name: 'a', address: 'SENTINEL-1.2.3.4' },
        { id: 1, name: 'b', address: ['10.0.0.1', { x: 1 }], detail: ['ok'] },
      ],
      { include_identifying_metadata: true },
    );
    expect(result.data.map((i) => (i as { address: unknown }).address)).toEqual([null, null]);
    expect((result.data[1] as { detail: unknown }).detail).toEqual(['ok']);
    expect(result.drift).toEqual(['address']);
  });

  it('embedded models: a misfit inside is named parent.field; a non-list or non-object item nulls the embedded list', async () => {
    const result = await read('pfsense_get_dns_resolver_host_overrides', [
      { id: 0, host: 'a', aliases: [{ id: 0, host: 7, domain: { bad: true }, descr: 'x' }] },
      { id: 1, host: 'b', aliases: { host: 'x' } },
      { id: 2, host: 'c', aliases: ['x'] },
    ]);
    const aliases = result.data.map((i) => (i as { aliases: unknown }).aliases);
    expect(aliases[0]).toEqual([{ id: 0, host: '7', domain: null, descr: 'x' }]);
    expect(aliases[1]).toBeNull();
    expect(aliases[2]).toBeNull();
    expect(result.drift).toEqual(['aliases', 'aliases.domain']);
  });

  it('drift names are sorted, deduplicated across items and carry no index or value', async () => {
    const result = await read(VLAN, [vlan({ tag: 'SENTINEL-a' }), vlan({ pcp: 'SENTINEL-b' }), vlan({ tag: {} })]);
    expect(result.drift).toEqual(['pcp', 'tag']);
    expect(JSON.stringify(result)).not.toContain('SENTINEL');
  });

  it('an identifying field that drifts is named whatever the flag, and stays null', async () => {
    const data = [{ id: 0, name: 'a', type: 'host', address: 'SENTINEL-not-a-list' }];
    for (const flag of [false, true]) {
      const result = await read('pfsense_get_firewall_aliases', data, { include_identifying_metadata: flag });
      expect(result.drift).toEqual(['address']);
      expect((result.data[0] as { address: unknown }).address).toBeNull();
    }
  });

  it('a drifted id is null and named', async () => {
    const result = await read(VLAN, [vlan({ id: { x: 1 } })]);
    expect(result.data[0]).toMatchObject({ id: null, if: 'igb0' });
    expect(result.drift).toEqual(['id']);
  });

  it('a singular tool reports drift the same way', async () => {
    const result = await read('pfsense_get_system_version', { version: 281, base: '15', patch: [], buildtime: 'x' });
    expect(result.data).toEqual({ version: '281', base: '15', patch: null, buildtime: 'x' });
    expect(result.drift).toEqual(['patch']);
  });

  it('truncateReadResult keeps the drift of the read', async () => {
    const full = await read(VLAN, [vlan({}), vlan({ pcp: 'x' }), vlan({})]);
    const cut = truncateReadResult(full, 1);
    expect(cut.drift).toEqual(['pcp']);
    expect(tool(VLAN).outputSchema.safeParse(cut).success).toBe(true);
  });

  it('structure still fails closed: a non-object item is UNEXPECTED_SHAPE, not drift', async () => {
    const t = tool(VLAN);
    const client = new RestApiClient(new FakeTransport(() => envelope([vlan({}), 'SENTINEL'])));
    const error = await runReadTool(client, t, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PfrestResponseError);
    expect(error).toMatchObject({ code: 'UNEXPECTED_SHAPE', dataPath: '$[1]' });
  });
});
