// The model-facing part of tools/list (each tool's name, description and input schema) for the full auditor
// surface stays ≤ 48 KB (docs/DESIGN.md §8; `npm run bench -- --only tool-surface` prints it per profile and
// toolset), without losing what a model needs: every description says what the tool returns and what it withholds.
import type { Tool } from '@modelcontextprotocol/client';
import { READ_CATALOGUE } from '@pfsense-mcp/pfsense-read';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFO_TOOL_NAME, buildReadClient, createMcpServer } from '../src/index.js';
import { connectFactory } from './support/in-process-server.js';

const LIMIT_BYTES = 48 * 1024;
let tools: Tool[];
let close: () => Promise<void>;

beforeAll(async () => {
  const handle = buildReadClient(
    {
      url: 'https://127.0.0.1',
      apiKeyFile: '/unused',
      caFile: null,
      profile: 'auditor',
      allowedTools: null,
      toolsets: null,
      logLevel: 'silent',
      allowHttpLoopback: false,
    },
    'unused-key',
  );
  const { factory } = createMcpServer({ profile: 'auditor', allowedTools: null, client: handle.client });
  const connected = await connectFactory(factory);
  tools = (await connected.client.listTools()).tools;
  close = async () => {
    await connected.close();
    handle.close();
  };
});
afterAll(() => close());

describe('model-facing tool surface (auditor)', () => {
  it(`is at most ${LIMIT_BYTES} bytes for all 95 tools`, () => {
    expect(tools).toHaveLength(95);
    const view = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const bytes = Buffer.byteLength(JSON.stringify(view), 'utf8');
    expect(bytes).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  it('every description opens with a full sentence saying what the tool returns', () => {
    for (const tool of tools) {
      const description = tool.description ?? '';
      const first = description.split(/(?<=\.)\s/)[0] ?? '';
      expect(first, tool.name).toMatch(/^(Return|List|Get|Report)s? .{10,}\.$/);
      expect(first.split(' ').length, tool.name).toBeGreaterThanOrEqual(5);
    }
  });

  it.each(READ_CATALOGUE.map((t) => [t.name, t] as const))('%s names every field it withholds', (name, def) => {
    const description = tools.find((t) => t.name === name)?.description ?? '';
    // A sentence ends at a period followed by a space or the end (field paths like conns.common_name contain dots).
    const sentence = (prefix: string) => new RegExp(`${prefix}(.*?)\\.(?: |$)`).exec(description)?.[1] ?? null;
    const identifying = sentence('Withheld unless include_identifying_metadata is true: ');
    const never = sentence('Never returned: ');
    expect(identifying === null ? [] : identifying.split(', ')).toEqual(def.identifyingFields);
    expect(never === null ? [] : never.split(', ')).toEqual(def.withheldFields);
    if (identifying === null && never === null) expect(description).toMatch(/ No field is withheld\.$/);
    else expect(description).not.toContain('No field is withheld');
  });

  it('input schemas stay strict and typed: unknown arguments refused, bounds and defaults stated', () => {
    for (const tool of tools) {
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object', additionalProperties: false });
      const def = READ_CATALOGUE.find((t) => t.name === tool.name);
      if (def?.plural === true) {
        expect(tool.inputSchema.properties).toMatchObject({
          limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
          offset: { type: 'integer', minimum: 0, default: 0 },
        });
        // Plain types, described once in the server's instructions and checked by the server: no per-tool enum of
        // field names, which would multiply the surface.
        expect(tool.inputSchema.properties).toMatchObject({
          fields: { type: 'array', items: { type: 'string' } },
          filter: { type: 'array', items: { type: 'object' } },
          sort_by: { type: 'string' },
          sort_order: { type: 'string' },
        });
        expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('enum');
      }
      if (def?.supportsIdentifyingMetadata === true) {
        expect(tool.inputSchema.properties).toMatchObject({ include_identifying_metadata: { type: 'boolean', default: false } });
      }
    }
    expect(tools.find((t) => t.name === INFO_TOOL_NAME)?.inputSchema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });
});
