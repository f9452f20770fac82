// Every READ tool against the pfrest simulator over real loopback HTTP (the transports library's HTTP
// transport): responses shaped like pfrest's are accepted, each result validates against the tool's advertised
// output schema, and secrets planted upstream never come back.
import { createHttpTransport } from '@pfsense-mcp/transports';
import type { HttpTransport } from '@pfsense-mcp/transports';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_CATALOGUE, RestApiClient, runReadTool } from '../src/index.js';
import { SECRET_SENTINEL, buildFixture } from './upstream-fixture.js';

interface Harness {
  readonly sim: RunningSimulator;
  readonly transport: HttpTransport;
  readonly client: RestApiClient;
}

async function startHarness(data?: Readonly<Record<string, unknown>>): Promise<Harness> {
  const sim = await startSimulator(data === undefined ? {} : { data });
  const transport = createHttpTransport({
    baseUrl: sim.url,
    authHeader: { name: 'X-API-Key', value: sim.apiKey },
    allowHttpLoopback: true,
  });
  return { sim, transport, client: new RestApiClient(transport) };
}

async function stopHarness(h: Harness | undefined): Promise<void> {
  h?.transport.close();
  await h?.sim.close();
}

describe('against the simulator with its demo data', () => {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => stopHarness(h));

  it('every tool returns a result its outputSchema accepts (with and without the flag)', async () => {
    const client = (h as Harness).client;
    for (const tool of READ_CATALOGUE) {
      const inputs: Record<string, unknown>[] = [tool.plural ? { limit: 1000 } : {}];
      if (tool.supportsIdentifyingMetadata) inputs.push({ ...inputs[0], include_identifying_metadata: true });
      for (const input of inputs) {
        const result = await runReadTool(client, tool, input);
        const check = tool.outputSchema.safeParse(result);
        expect(check.success, `${tool.name} ${JSON.stringify(check.error?.issues[0] ?? null)}`).toBe(true);
      }
    }
  });

  it('readAllPages walks a collection page by page', async () => {
    const client = new RestApiClient((h as Harness).transport, { pageSize: 1 });
    const all = await client.readAllPages('/api/v2/firewall/aliases');
    const one = await (h as Harness).client.read('/api/v2/firewall/aliases', { limit: 1000 });
    expect(all).toEqual(one.data);
  });

  it('an unknown path is a sanitized UPSTREAM_ERROR', async () => {
    await expect((h as Harness).client.read('/api/v2/no_such_endpoint')).rejects.toMatchObject({
      name: 'PfrestResponseError',
      code: 'UPSTREAM_ERROR',
      httpStatus: 404,
    });
  });
});

describe('against the simulator serving a sentinel in every secret field', () => {
  let h: Harness | undefined;
  beforeAll(async () => {
    const data: Record<string, unknown> = {};
    for (const tool of READ_CATALOGUE) {
      const { item } = buildFixture(tool.model);
      data[tool.path] = tool.plural ? [item, item] : item;
    }
    h = await startHarness(data);
  });
  afterAll(() => stopHarness(h));

  it('no tool output contains a planted secret, with or without the flag', async () => {
    const client = (h as Harness).client;
    // The secrets really are on the wire (otherwise this test could not fail).
    const raw = await client.read('/api/v2/users', { limit: 10 });
    expect(JSON.stringify(raw.data)).toContain(`${SECRET_SENTINEL}-User.password`);
    let outputs = 0;
    for (const tool of READ_CATALOGUE) {
      const flags = tool.supportsIdentifyingMetadata ? [false, true] : [false];
      for (const flag of flags) {
        const input = tool.supportsIdentifyingMetadata ? { include_identifying_metadata: flag } : {};
        const result = await runReadTool(client, tool, input);
        expect(JSON.stringify(result), tool.name).not.toContain(SECRET_SENTINEL);
        expect(tool.outputSchema.safeParse(result).success, tool.name).toBe(true);
        outputs += 1;
      }
    }
    expect(outputs).toBe(READ_CATALOGUE.length + READ_CATALOGUE.filter((t) => t.supportsIdentifyingMetadata).length);
  });
});
