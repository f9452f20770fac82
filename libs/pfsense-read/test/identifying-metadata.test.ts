import { describe, expect, it } from 'vitest';
import { IDENTIFYING_METADATA, READ_CATALOGUE, RestApiClient, findReadTool, runReadTool } from '../src/index.js';
import type { ReadModelSpec, ReadToolDefinition } from '../src/index.js';
import { READ_MODELS } from '../src/index.js';
import { FakeTransport, envelope } from './fake-transport.js';
import { TOOL_ENDPOINTS } from './vendored-pfrest.js';
import { buildFixture } from './upstream-fixture.js';

const entries = Object.entries(IDENTIFYING_METADATA).flatMap(([tool, fields]) => fields.map((f) => [tool, f] as const));

/** The model a `field` / `nested.field` path ends in, and the final field name. */
function leaf(model: string, path: string): [string, string] {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return [model, head as string];
  const kind = (READ_MODELS[model] as ReadModelSpec).fields[head as string];
  if (typeof kind !== 'object') throw new Error(`not nested: ${model}.${path}`);
  return leaf(kind.model, rest.join('.'));
}

/** Every value at `path` across the items of a projected result. */
function valuesAt(data: unknown, path: string): unknown[] {
  const items = Array.isArray(data) ? data : [data];
  const [head, ...rest] = path.split('.');
  const values = items.map((i) => (i as Record<string, unknown>)[head as string]);
  if (rest.length === 0) return values;
  return values.flatMap((v) => (v === null ? [null] : valuesAt(v, rest.join('.'))));
}

async function run(tool: ReadToolDefinition, data: unknown, flag?: boolean) {
  const client = new RestApiClient(new FakeTransport(() => envelope(data)));
  return runReadTool(client, tool, flag === undefined ? {} : { include_identifying_metadata: flag });
}

describe('identifying-metadata table', () => {
  it('covers exactly the tools that take include_identifying_metadata in the reference', () => {
    const withFlag = Object.entries(TOOL_ENDPOINTS)
      .filter(([, te]) => te.inputs.includes('include_identifying_metadata'))
      .map(([n]) => n)
      .sort();
    expect(Object.keys(IDENTIFYING_METADATA).sort()).toEqual(withFlag);
    for (const fields of Object.values(IDENTIFYING_METADATA)) expect(fields.length).toBeGreaterThan(0);
    expect(Object.isFrozen(IDENTIFYING_METADATA)).toBe(true);
  });

  it('is what each catalogue entry withholds', () => {
    for (const tool of READ_CATALOGUE) {
      expect(tool.identifyingFields).toEqual(IDENTIFYING_METADATA[tool.name] ?? []);
    }
  });

  it.each(entries)('%s: %s is null by default and present with the flag', async (name, path) => {
    const tool = findReadTool(name) as ReadToolDefinition;
    const { item, planted } = buildFixture(tool.model);
    const [leafModel, leafField] = leaf(tool.model, path);
    const sentinel = planted.get(`${leafModel}.${leafField}`);
    expect(sentinel).toBeDefined();
    const data = tool.plural ? [item] : item;

    for (const input of [undefined, false]) {
      const hidden = (await run(tool, data, input)) as { data: unknown };
      const values = valuesAt(hidden.data, path);
      expect(values.length).toBeGreaterThan(0);
      expect(values.every((v) => v === null)).toBe(true);
      if (typeof sentinel === 'string') expect(JSON.stringify(hidden)).not.toContain(sentinel);
      if (Array.isArray(sentinel) && typeof sentinel[0] === 'string') {
        expect(JSON.stringify(hidden)).not.toContain(sentinel[0]);
      }
      expect(tool.outputSchema.safeParse(hidden).success).toBe(true);
    }

    const shown = (await run(tool, data, true)) as { data: unknown };
    expect(valuesAt(shown.data, path)).toEqual(valuesAt(shown.data, path).map(() => sentinel));
    expect(tool.outputSchema.safeParse(shown).success).toBe(true);
  });

  it('the flag does not reveal anything on tools without identifying fields (it is refused)', async () => {
    const tool = findReadTool('pfsense_get_dhcp_leases') as ReadToolDefinition;
    expect(tool.supportsIdentifyingMetadata).toBe(false);
    await expect(run(tool, [], true)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
