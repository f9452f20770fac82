import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGenerator } from '@pfsense-mcp/test-support';
import { describe, expect, it } from 'vitest';
import { PFREST_VERSION, READ_CATALOGUE, READ_MODELS, READ_TOOL_GROUPS } from '../src/index.js';
import type { FieldKind } from '../src/index.js';
import { MODELS_JSON, TOOL_ENDPOINTS, TOOL_REFERENCE_MD } from './vendored-pfrest.js';

const SERVER_OWN_TOOL = 'pfsense_mcp_info';
// Plural endpoints that take `limit` here too; here every list is bounded (README "Inputs").
const LIMIT_ADDED = ['pfsense_get_firewall_rules', 'pfsense_get_gateway_status', 'pfsense_get_gateways', 'pfsense_get_interfaces'];

const KIND_OF_TYPE: Readonly<Record<string, string>> = {
  BooleanField: 'boolean',
  IntegerField: 'number',
  UnixTimeField: 'number',
  FloatField: 'number',
  StringField: 'string',
  Base64Field: 'string',
  DateTimeField: 'string',
  UIDField: 'string',
  PortField: 'scalar',
  InterfaceField: 'scalar',
  SpecialNetworkField: 'scalar',
  FilterAddressField: 'scalar',
  ForeignModelField: 'scalar',
  KeyLenField: 'scalar',
};

function referenceTools(): Map<string, string> {
  const out = new Map<string, string>();
  let group = '';
  for (const line of TOOL_REFERENCE_MD.split('\n')) {
    const g = /^## (.+)$/.exec(line);
    if (g?.[1] !== undefined) group = g[1].trim();
    const t = /^### `([a-z0-9_]+)`/.exec(line);
    if (t?.[1] !== undefined) out.set(t[1], group);
  }
  return out;
}

describe('READ catalogue matches vendor/pfrest/tool-endpoints.json', () => {
  const expected = Object.entries(TOOL_ENDPOINTS).filter(([name]) => name !== SERVER_OWN_TOOL);

  it('has exactly the 94 pfREST tools, once each, sorted by name', () => {
    const names = READ_CATALOGUE.map((t) => t.name);
    expect(names).toHaveLength(94);
    expect(new Set(names).size).toBe(94);
    expect(names).toEqual(expected.map(([n]) => n).sort());
    expect(names).toEqual([...names].sort());
  });

  it.each(expected)('%s: path, capability, inputs, plurality and model', (name, te) => {
    const tool = READ_CATALOGUE.find((t) => t.name === name);
    expect(tool).toBeDefined();
    if (tool === undefined) return;
    expect(tool.path).toBe(te.path);
    expect(tool.capability).toBe(te.capability);
    const pathInfo = MODELS_JSON.paths[te.path as string];
    expect(tool.model).toBe(pathInfo?.model);
    expect(tool.plural).toBe(pathInfo?.many);

    const inputs = Object.keys(tool.inputSchema.shape).sort();
    const reference = new Set(te.inputs);
    const wanted = new Set(te.inputs);
    if (tool.plural) {
      // Every list tool pages, and selects, filters and sorts (libs/pfsense-read/README.md, Inputs), whatever the reference listed.
      for (const added of ['limit', 'offset', 'fields', 'filter', 'sort_by', 'sort_order']) wanted.add(added);
      if (!reference.has('limit')) expect(LIMIT_ADDED).toContain(name);
    } else {
      expect(reference.has('limit')).toBe(false);
    }
    expect(inputs).toEqual([...wanted].sort());
    expect(tool.supportsIdentifyingMetadata).toBe(reference.has('include_identifying_metadata'));
  });

  it('the tools that gained limit are exactly the plural ones the reference left unbounded', () => {
    const unbounded = expected
      .filter(([, te]) => MODELS_JSON.paths[te.path as string]?.many === true && !te.inputs.includes('limit'))
      .map(([n]) => n);
    expect(unbounded.sort()).toEqual([...LIMIT_ADDED].sort());
  });
});

describe('READ catalogue matches vendor/pfrest/tool-reference.md', () => {
  const api = referenceTools();

  it("names every tool of tool-reference.md, in the same group (the server's own tool is not in it)", () => {
    expect(api.has(SERVER_OWN_TOOL)).toBe(false);
    expect([...api.keys()].sort()).toEqual(READ_CATALOGUE.map((t) => t.name));
    for (const tool of READ_CATALOGUE) expect(tool.group, tool.name).toBe(api.get(tool.name));
  });

  it('groups are the tool-reference.md sections, in order, and each tool has a title and description', () => {
    const sections = [...new Set(api.values())];
    expect(READ_TOOL_GROUPS).toEqual(sections);
    for (const tool of READ_CATALOGUE) {
      expect(tool.title.length).toBeGreaterThan(2);
      expect(tool.description.length).toBeGreaterThan(20);
    }
    expect(PFREST_VERSION).toBe('2.10.0');
  });
});

describe('READ_MODELS field kinds match models.json', () => {
  it.each(Object.entries(READ_MODELS))('%s', (model, spec) => {
    const source = MODELS_JSON.models[model];
    expect(source).toBeDefined();
    expect(spec.many).toBe(source?.many);
    const byName = new Map((source?.fields ?? []).map((f) => [f.name, f]));
    for (const [name, kind] of Object.entries(spec.fields) as [string, FieldKind][]) {
      const f = byName.get(name);
      expect(f, `${model}.${name}`).toBeDefined();
      if (f === undefined) continue;
      if (f.type === 'NestedModelField') {
        expect(kind).toEqual({ model: f.model, many: f.many });
      } else {
        expect(kind, `${model}.${name}`).toBe(`${KIND_OF_TYPE[f.type]}${f.many ? '[]' : ''}`);
      }
    }
  });
});

describe('scripts/generate-catalogue.mjs', () => {
  it('regenerating into a temp dir reproduces the committed file(s) byte for byte', () => {
    for (const [file, generated] of runGenerator(join(import.meta.dirname, '..', 'scripts', 'generate-catalogue.mjs'), [
      'read-models.ts',
      'read-catalogue-data.ts',
    ])) {
      expect(generated, `${file} differs from its generator's output: re-run the generator`).toBe(
        readFileSync(join(import.meta.dirname, '..', 'src', file), 'utf8'),
      );
    }
  });
});
