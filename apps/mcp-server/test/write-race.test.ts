// pfrest checks the identity too, end to end: the real McpServer and SDK Client, the write runtime built from a
// write directory, the simulator over loopback. An alias BEFORE the target is deleted after the executor's
// re-read and while its one PATCH is on the wire (held by the simulator's latency fault), so the PATCH's id now
// names the next alias. The request carries the target's unchanged name, so pfrest (and the simulator) refuse it:
// zero effect on every alias, the contract FAILED, the transition audited.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { useInProcessWriteWorld } from './support/in-process-write-world.js';
import { signIntoInbox } from './support/sign-into-inbox.js';
import type { TestWriteDirectory } from './support/test-write-directory.js';
import type { WriteHarness } from './support/write-harness.js';
import { callWrite } from './support/write-result.js';
import { ALIAS_PATH, ALIASES, ALIASES_PATH } from './support/write-simulator.js';

const world = useInProcessWriteWorld();
let w: TestWriteDirectory;
let h: WriteHarness;
beforeAll(async () => {
  w = await world.writeDir();
  h = await world.harness(w);
});

async function aliases(): Promise<{ id: number; name: string; descr: string }[]> {
  const r = await fetch(`${world.sim.url}${ALIASES_PATH}`, { headers: { 'X-API-Key': world.sim.apiKey } });
  return ((await r.json()) as { data: { id: number; name: string; descr: string }[] }).data;
}

describe('an earlier alias deleted between the re-read and the send', () => {
  it('the PATCH names WEB_PORTS, id 1 is now DMZ_HOSTS: pfrest refuses it; nothing changes anywhere; FAILED and audited', async () => {
    const args = { alias_name: 'WEB_PORTS', description: 'Web ports, raced' };
    const r1 = await callWrite(h.client, args);
    signIntoInbox(w, r1.pending_request as string);
    const r2 = await callWrite(h.client, args);
    expect(r2.status).toBe('awaiting_confirmation');
    signIntoInbox(w, r2.pending_request as string);

    // Hold the one PATCH in the simulator (it is counted on arrival, handled after the delay).
    world.sim.control.resetCounters();
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'latency', ms: 1500, times: 1 });
    const call = callWrite(h.client, args);
    await vi.waitFor(() => expect(world.sim.control.count(ALIAS_PATH, 'PATCH')).toBe(1), { timeout: 20_000, interval: 10 });
    const del = await fetch(`${world.sim.url}${ALIAS_PATH}?id=0`, { method: 'DELETE', headers: { 'X-API-Key': world.sim.apiKey } });
    expect(del.status).toBe(200);
    const r3 = await call;

    // FAILED is closed without effect: the uniform refusal (asking again would start a new attempt).
    expect(r3.status).toBe('refused');
    expect(world.sim.control.count(ALIAS_PATH, 'PATCH')).toBe(1);
    const after = await aliases();
    expect(after.map(({ name, descr }) => ({ name, descr }))).toEqual(ALIASES.slice(1).map(({ name, descr }) => ({ name, descr })));

    const listed = (await h.client.callTool({ name: 'pfsense_get_write_operations', arguments: { operation_id: r2.operation_id } }))
      .structuredContent as {
      data: { contract_state: string; status: string }[];
    };
    expect(listed.data.map((o) => [o.contract_state, o.status])).toEqual([['FAILED', 'refused']]);

    const store = await SqliteRecoveryContractStore.open({
      directory: w.layout.storeDir,
      masterKey: w.masterKey,
      clock: Date.now,
      anchor: { file: w.layout.contractsAnchorFile },
    });
    try {
      const trail = store
        .listAuditEvents({ contractId: r2.contract_id as string, limit: 100 })
        .map((e) => `${e.from_state ?? '-'}>${e.to_state}:${e.outcome_class ?? '-'}`);
      expect(trail.slice(-2)).toEqual(['PREPARED>EXECUTING:-', 'EXECUTING>FAILED:REJECTED_4XX']);
      expect(store.verifyAuditChain()).toEqual({ ok: true });
    } finally {
      store.close();
    }
  });
});
