// conformsToOutputSchema (docs/DESIGN.md §8): the plain-code twin of each tool's outputSchema that lets a server skip
// walking a large result with zod. It must accept what the projection really returns (else it saves nothing) and
// must never accept what zod refuses (false only means "ask zod").
import { describe, expect, it, vi } from 'vitest';
import { READ_CATALOGUE, truncateReadResult, type PluralReadToolResult, type ReadToolDefinition } from '../src/index.js';
import { buildFixture } from './upstream-fixture.js';

const zodAccepts = (tool: ReadToolDefinition, value: unknown) => tool.outputSchema.safeParse(value).success;

function resultOf(tool: ReadToolDefinition, driftItem = false): Record<string, unknown> {
  const { item } = buildFixture(tool.model);
  const upstream = driftItem
    ? {
        ...item,
        ...Object.fromEntries(
          Object.keys(item)
            .slice(3, 4)
            .map((k) => [k, { odd: true }]),
        ),
      }
    : item;
  const projected = tool.project(tool.plural ? [upstream, upstream] : upstream, { includeIdentifyingMetadata: true });
  const drift = projected.drift.length === 0 ? {} : { drift: projected.drift };
  if (!tool.plural) return { data: projected.data, ...drift };
  return { data: projected.data, count: 2, limit: 100, offset: 0, next_offset: null, truncated: false, ...drift };
}

/** Ways to break a result that zod must refuse (each one a copy; the frozen original stays as it is). */
function mutations(tool: ReadToolDefinition, result: Record<string, unknown>): [string, unknown][] {
  const row = (tool.plural ? (result['data'] as Record<string, unknown>[])[0] : result['data']) as Record<string, unknown>;
  const keys = Object.keys(row);
  const withRow = (r: unknown) =>
    tool.plural ? { ...result, data: [r, ...(result['data'] as unknown[]).slice(1)] } : { ...result, data: r };
  const out: [string, unknown][] = [
    ['extra result key', { ...result, extra: 1 }],
    ['drift not strings', { ...result, drift: [1] }],
    ['extra row key', withRow({ ...row, extra: null })],
    ['row not an object', withRow('x')],
    ['row with a prototype', withRow(Object.assign(Object.create({ inherited: 1 }) as object, row))],
    ['missing row key', withRow(Object.fromEntries(keys.slice(1).map((k) => [k, row[k]])))],
    ['undefined field', withRow({ ...row, [keys[0] as string]: undefined })],
    ['object where a value belongs', withRow({ ...row, [keys[keys.length - 1] as string]: { x: 1 } })],
    ['NaN', withRow({ ...row, [keys[0] as string]: Number.NaN })],
    ['Infinity', withRow({ ...row, [keys[0] as string]: Number.POSITIVE_INFINITY })],
  ];
  if (tool.plural) {
    out.push(
      ['data not a list', { ...result, data: row }],
      ['count not an integer', { ...result, count: 1.5 }],
      ['limit out of range', { ...result, limit: 1001 }],
      ['negative offset', { ...result, offset: -1 }],
      ['next_offset missing', Object.fromEntries(Object.entries(result).filter(([k]) => k !== 'next_offset'))],
      ['truncated not boolean', { ...result, truncated: 'no' }],
    );
  }
  return out;
}

describe('conformsToOutputSchema', () => {
  it.each(READ_CATALOGUE.map((t) => [t.name, t] as const))('%s: accepts its real results, never what zod refuses', (_name, tool) => {
    for (const result of [resultOf(tool), resultOf(tool, true)]) {
      expect(zodAccepts(tool, result)).toBe(true);
      expect(tool.conformsToOutputSchema(result)).toBe(true);
      for (const [what, broken] of mutations(tool, result)) {
        // Never laxer than zod: whatever it accepts, zod accepts too.
        if (tool.conformsToOutputSchema(broken)) expect(zodAccepts(tool, broken), what).toBe(true);
        if (!zodAccepts(tool, broken)) expect(tool.conformsToOutputSchema(broken), what).toBe(false);
      }
    }
  });

  it('accepts a truncated list and refuses non-objects', () => {
    const tool = READ_CATALOGUE.find((t) => t.plural);
    if (tool === undefined) throw new Error('a plural tool');
    const cut = truncateReadResult(resultOf(tool) as unknown as PluralReadToolResult, 1);
    expect(tool.conformsToOutputSchema(cut)).toBe(true);
    for (const v of [null, undefined, 'x', 1, []]) expect(tool.conformsToOutputSchema(v)).toBe(false);
  });

  it("a list one tool's projection made is checked item by item under another tool's schema (and refused there)", () => {
    const plural = READ_CATALOGUE.filter((t) => t.plural);
    const a = plural.find((t) => t.name === 'pfsense_get_firewall_aliases');
    const b = plural.find((t) => t.name === 'pfsense_get_firewall_rules');
    if (a === undefined || b === undefined) throw new Error('two plural tools');
    const fromA = resultOf(a);
    expect(a.conformsToOutputSchema(fromA)).toBe(true);
    expect(b.conformsToOutputSchema(fromA)).toBe(false);
    expect(zodAccepts(b, fromA)).toBe(false);
    // The same items in a list the projection did not make are walked, and pass on their own merits.
    expect(a.conformsToOutputSchema({ ...fromA, data: [...(fromA['data'] as unknown[])] })).toBe(true);
  });

  it("accepts the projection's own list without walking its rows (the reason the twin exists)", () => {
    const tool = READ_CATALOGUE.find((t) => t.name === 'pfsense_get_firewall_rules');
    if (tool === undefined) throw new Error('the rules tool');
    const { item } = buildFixture(tool.model);
    const rows = Array.from({ length: 200 }, () => item);
    const data = tool.project(rows, { includeIdentifyingMetadata: false }).data;
    const result = { data, count: 200, limit: 1000, offset: 0, next_offset: null, truncated: false };
    // Each row check asks for the row's prototype; the result's own check asks once. A walk asks 201 times.
    const spy = vi.spyOn(Object, 'getPrototypeOf');
    try {
      expect(tool.conformsToOutputSchema(result)).toBe(true);
      expect(spy.mock.calls.length).toBeLessThan(10);
      spy.mockClear();
      // A copy of the list is not the projection's: walked row by row.
      expect(tool.conformsToOutputSchema({ ...result, data: [...(data as unknown[])] })).toBe(true);
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(200);
    } finally {
      spy.mockRestore();
    }
  });
});
