// The READ tool pfsense_get_diagnostics_config_history_revisions over the simulator's config history, which
// now grows with every alias write (docs/DESIGN.md §4): the newest revision comes first with pfrest's fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/in-process-server.js';

const TOOL = 'pfsense_get_diagnostics_config_history_revisions';
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ sim: { seed: 'office' } });
});
afterAll(async () => {
  await h.close();
});

describe(TOOL, () => {
  it('lists the revisions newest first, including one an alias write just left', async () => {
    const read = async (): Promise<{ id: number; time: number; description: string; version: string; filesize: number }[]> => {
      const result = await h.client.callTool({ name: TOOL, arguments: {} });
      expect(result.isError).toBeFalsy();
      return (result.structuredContent as { data: { id: number; time: number; description: string; version: string; filesize: number }[] })
        .data;
    };
    const before = await read();
    expect(before.length).toBeGreaterThan(0);
    const res = await fetch(`${h.sim.url}/api/v2/firewall/alias`, {
      method: 'POST',
      headers: { 'x-api-key': h.sim.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'TOOL_CHECK', type: 'port', address: ['443'] }),
    });
    expect(res.status).toBe(200);
    const after = await read();
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ id: 0, description: expect.stringMatching(/Added Firewall Alias via API$/) });
    expect(after.slice(1).map((r) => r.time)).toEqual(before.map((r) => r.time));
  });
});
