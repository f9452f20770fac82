// The write through an exchange folder, end to end with the BUILT programs: `admin init --exchange`, the signer's
// `keygen --role operator` and `approve`, `admin trust --bundle`, the SDK Client spawning the built server over stdio,
// and the simulator over loopback. Human actions are counted (support/exchange-host.ts): a verified change takes
// exactly two `approve` invocations and two typed codes — no `admin inbox add`, no copy of a request or an answer.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALIASES_PATH, useBuiltWriteWorld } from './support/built-write-world.js';
import { approveOnOperator, setUpExchangeHost } from './support/exchange-host.js';
import { simRequest } from './support/sim-request.js';
import { until } from './support/until.js';
import { WRITE_TOOL, type WriteResult } from './support/write-result.js';

// Process starts (admin, signer, server) on a loaded machine: the bound is on them, not on anything the product waits for.
const PROCESS_TEST_TIMEOUT_MS = 180_000;

const world = useBuiltWriteWorld([{ name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] }]);

async function descr(name: string): Promise<unknown> {
  const r = await simRequest(world.sim.url, world.sim.apiKey, 'GET', ALIASES_PATH);
  return (r.json as { data: { name: string; descr: string }[] }).data.find((a) => a.name === name)?.descr;
}

describe('one change in one sitting through the exchange folder', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('host setup in 6 actions; a verified change in 2 approve runs and 2 typed codes; a waiting call returns verified soon after the approve', async () => {
    const host = setUpExchangeHost();
    world.defer(() => host.cleanup());
    expect(host.actions).toEqual([
      'admin init --exchange',
      'keygen --role operator',
      'copy operator.pub to the host',
      'admin trust --bundle',
      'copy server-request.pub to the operator',
      'client environment',
    ]);
    expect(host.environment).toMatchObject({ PFSENSE_WRITE_DIR: host.dir, PFSENSE_WRITE_EXCHANGE_DIR: host.exchange });
    const server = await world.connect({ ...world.applianceEnv(), ...host.environment });
    const setup = host.actions.length;

    const args = { alias_name: 'LAN_SERVERS', description: 'Servers — approved in one sitting' };
    const requested = await world.call(server, args);
    expect(requested.status).toBe('requested');
    const requests = readdirSync(join(host.exchange, 'requests'));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^auth-[0-9a-f]{8}\.json$/);
    expect(requested.next_step).toContain('pfsense-mcp-signer approve');

    const first = await approveOnOperator(host);
    expect(first.status, first.stderr).toBe(0);
    expect(first.typed).toHaveLength(1);
    expect(readdirSync(join(host.exchange, 'answers'))).toEqual([requests[0]?.replace('.json', '.signed.json')]);

    // The AI calls again with the same arguments and a wait: the authorization is picked up, the confirmation
    // request appears, and the call waits for it (progress notifications, since the client gave a progressToken).
    const progress: string[] = [];
    const waiting = server.client.callTool(
      { name: WRITE_TOOL, arguments: { ...args, wait_seconds: 20 } },
      { timeout: 120_000, onprogress: (p) => progress.push(String(p.message ?? '')) },
    );
    let resolvedAt = 0;
    void waiting.then(() => (resolvedAt = Date.now()));
    await until(() => readdirSync(join(host.exchange, 'requests')).some((n) => n.startsWith('conf-')), 60_000);
    await until(() => progress.some((m) => m.includes('confirmation')), 60_000);
    const second = await approveOnOperator(host);
    expect(second.status, second.stderr).toBe(0);
    expect(second.typed).toHaveLength(1);
    const result = (await waiting) as { structuredContent?: WriteResult; isError?: boolean };
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'verified', operation_id: requested.operation_id });
    // "within 5 s of the operator's approve": the call was woken by the file-system event, not by a timeout.
    expect(resolvedAt - second.endedAt).toBeLessThan(5_000);
    expect(await descr('LAN_SERVERS')).toBe(args.description);
    expect(world.patches()).toBe(1);

    // Exactly four human actions for the change; no `admin inbox add`, no copy of a request or an answer.
    expect(host.actions.slice(setup)).toEqual(['approve', 'type the code', 'approve', 'type the code']);
    // The server installed both answers in its inbox and deleted nothing of the exchange folder.
    expect(readdirSync(join(host.dir, 'inbox')).sort()).toEqual([
      expect.stringMatching(/^confirmation\./),
      expect.stringMatching(/^plan-authorization\./),
    ]);
    expect(readdirSync(join(host.exchange, 'requests'))).toHaveLength(2);
    expect(readdirSync(join(host.exchange, 'answers'))).toHaveLength(2);
    // A second approve finds nothing left to answer.
    const third = await approveOnOperator(host);
    expect(third.typed).toHaveLength(0);
    expect(third.stdout).toContain('nothing to approve');
  });
});
