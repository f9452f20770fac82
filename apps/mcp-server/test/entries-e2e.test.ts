// Block and unblock end to end with the BUILT programs: the server spawned by the SDK Client over stdio with
// PFSENSE_WRITE_CAPABILITIES=alias_entries and an exchange folder, the real signer's `approve` (its entries review
// on the operator's side), and the simulator over loopback (pf tables, pending subsystems, PATCH counters).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALIAS_PATH, useBuiltWriteWorld } from './support/built-write-world.js';
import { runBuilt } from './support/built-server.js';
import type { ConnectedServer } from './support/built-server.js';
import { approveBothThroughExchange, approveOnOperator, setUpExchangeHost } from './support/exchange-host.js';
import type { ExchangeHost } from './support/exchange-host.js';
import { runAdminAsync } from './support/run-admin.js';
import { simRequest } from './support/sim-request.js';
import { callWrite } from './support/write-result.js';
import type { WriteResult } from './support/write-result.js';

// Process starts (admin, signer, server) on a loaded machine: the bound is on them, not on anything the product waits for.
const PROCESS_TEST_TIMEOUT_MS = 240_000;
const ENTRIES_TOOL = 'pfsense_change_firewall_alias_entries';
const RULES_PATH = '/api/v2/firewall/rules';

// The server's default rate limits: the alias entries have no target cooldown, so block → unblock runs on one alias.
const world = useBuiltWriteWorld([
  { name: 'BLOCKLIST', type: 'host', descr: 'Blocked hosts', address: ['198.51.100.9'], detail: ['scanner'] },
  { name: 'PENDING_LIST', type: 'host', descr: 'Blocked hosts C', address: ['192.0.2.60'], detail: ['c'] },
  { name: 'LOST_LIST', type: 'host', descr: 'Blocked hosts D', address: ['192.0.2.70'], detail: ['d'] },
  { name: 'FLIP_LIST', type: 'host', descr: 'Blocked hosts E', address: ['192.0.2.80'], detail: ['e'] },
  { name: 'BAD_NETS', type: 'network', descr: 'Blocked networks', address: ['203.0.113.0/24'], detail: ['f'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
]);

const call = async (server: ConnectedServer, args: Record<string, unknown>): Promise<WriteResult> => {
  const { raw: _raw, ...result } = await callWrite(server.client, args, { timeoutMs: 120_000, tool: ENTRIES_TOOL });
  return result;
};
const patches = (): number => world.sim.control.count(ALIAS_PATH, 'PATCH');

async function table(name: string): Promise<readonly string[] | undefined> {
  const r = await simRequest(world.sim.url, world.sim.apiKey, 'GET', '/api/v2/diagnostics/tables');
  return (r.json as { data: { name: string; entries: string[] }[] }).data.find((t) => t.name === name)?.entries;
}

const approveBoth = (host: ExchangeHost, server: ConnectedServer, args: Record<string, unknown>) =>
  approveBothThroughExchange(host, (a) => call(server, a), args);

describe('block and unblock through the built server, signer and simulator', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('block → verified with the pf table holding the entry; signed rollback → table as before; block again, unblock on the same alias → verified; foreign pending → refused with zero PATCH; a port alias refused', async () => {
    // Rule 0 of the simulator blocks from BLOCKLIST; three more rules use the other aliases.
    world.sim.control.editRecord(RULES_PATH, 3, { source: 'PENDING_LIST', type: 'reject', disabled: false });
    world.sim.control.editRecord(RULES_PATH, 4, { destination_port: 'WEB_PORTS', type: 'block', disabled: false });
    const host = setUpExchangeHost();
    world.defer(() => host.cleanup());
    const server = await world.connect({ ...world.applianceEnv(), ...host.environment, PFSENSE_WRITE_CAPABILITIES: 'alias_entries' });

    const block = { alias_name: 'BLOCKLIST', add: [{ address: '203.0.113.7', detail: 'ssh brute force' }] };
    const { requested, reviews } = await approveBoth(host, server, block);
    // The operator saw the change and where the alias is used before approving.
    expect(reviews).toContain('+ 203.0.113.7  "ssh brute force"');
    expect(reviews).toMatch(/used by {7}1 rule, as the server read them at/);
    expect(reviews).toContain('block  WAN  any  "Drop known bad networks"');
    const blocked = await call(server, block);
    expect(blocked).toMatchObject({ status: 'verified', operation_id: requested.operation_id });
    expect(patches()).toBe(1);
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.9', '203.0.113.7']);

    // Undoing the block is a firewall change too: `admin rollback` writes the rollback request (outbox and exchange
    // folder) and exits 4; the operator approves it with the confirmation key; the same command then rolls back.
    const adminEnv = { ...world.applianceEnv(), ...host.environment, PFSENSE_WRITE_CAPABILITIES: 'alias_entries' };
    const rollback = () => runAdminAsync(['rollback', '--dir', host.dir, blocked.contract_id as string, '--json'], adminEnv);
    const asked = await rollback();
    expect(asked.status, asked.stderr).toBe(4);
    expect(asked.json).toMatchObject({ ok: false, state: 'VERIFIED', error: { code: 'ROLLBACK_AUTHORIZATION_REQUIRED' } });
    expect(String(asked.json['exchange_request'])).toMatch(/\/requests\/roll-[0-9a-f]{8}\.json$/);
    expect(patches()).toBe(1);
    const signed = await approveOnOperator(host);
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout).toContain('ROLLBACK request');
    expect(signed.stdout).toContain('- 203.0.113.7');
    const rolledBack = await rollback();
    expect(rolledBack.status, rolledBack.stderr).toBe(0);
    expect(rolledBack.json).toMatchObject({ ok: true, state: 'ROLLED_BACK' });
    expect(patches()).toBe(2);
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.9']);

    // Block again (another operation: the rolled-back change is the alias's history now), then unblock on the
    // same alias at once: the alias entries have no target cooldown.
    const again = await approveBoth(host, server, block);
    expect(again.requested.operation_id).not.toBe(requested.operation_id);
    expect(await call(server, block)).toMatchObject({ status: 'verified', operation_id: again.requested.operation_id });
    expect(patches()).toBe(3);
    const unblock = { alias_name: 'BLOCKLIST', remove: ['203.0.113.7'] };
    const second = await approveBoth(host, server, unblock);
    expect(second.reviews).toContain('- 203.0.113.7');
    expect(second.requested.operation_id).not.toBe(again.requested.operation_id);
    expect(await call(server, unblock)).toMatchObject({ status: 'verified', operation_id: second.requested.operation_id });
    expect(patches()).toBe(4);
    expect(await table('BLOCKLIST')).toEqual(['198.51.100.9']);

    // Something else pending on pfSense: applying would activate it too — refused, nothing sent, nothing consumed.
    const pending = { alias_name: 'PENDING_LIST', add: [{ address: '203.0.113.8' }] };
    await approveBoth(host, server, pending);
    world.sim.control.markPending('filter');
    expect(await call(server, pending)).toMatchObject({ status: 'refused', operation_id: null });
    expect(patches()).toBe(4);
    await simRequest(world.sim.url, world.sim.apiKey, 'POST', '/api/v2/firewall/apply', {});
    expect(await call(server, pending)).toMatchObject({ status: 'verified' });
    expect(patches()).toBe(5);
    expect(await table('PENDING_LIST')).toEqual(['192.0.2.60', '203.0.113.8']);

    // A port alias: refused before any request is written.
    const requestsBefore = readdirSync(join(host.exchange, 'requests')).length;
    expect(await call(server, { alias_name: 'WEB_PORTS', add: [{ address: '203.0.113.9' }] })).toMatchObject({ status: 'refused' });
    expect(readdirSync(join(host.exchange, 'requests'))).toHaveLength(requestsBefore);
    expect(patches()).toBe(5);
  });

  it('lost response → reconciliation_required, one PATCH; a rule flipped to pass after the review → refused, nothing sent; a protected entry and a /4 refused', async () => {
    world.sim.control.editRecord(RULES_PATH, 5, { source: 'LOST_LIST', type: 'block', disabled: false });
    world.sim.control.editRecord(RULES_PATH, 6, { source: 'FLIP_LIST', type: 'block', disabled: false });
    world.sim.control.editRecord(RULES_PATH, 7, { source: 'BAD_NETS', type: 'block', disabled: false });
    const host = setUpExchangeHost();
    world.defer(() => host.cleanup());
    // --check-config prints each capability's gates and checks the entries' own reads with the READ key.
    const check = await runBuilt({ ...world.applianceEnv(), ...host.environment, PFSENSE_WRITE_CAPABILITIES: 'alias_entries' }, [
      '--check-config',
    ]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(
      'alias_description (ALIAS_WRITE): not named; alias_entries (ALIAS_ENTRIES_WRITE): implemented yes, granted yes, allow-listed yes, tool offered',
    );
    for (const path of ['/api/v2/firewall/rules', '/api/v2/firewall/apply', '/api/v2/diagnostics/tables'])
      expect(check.stdout).toContain(`entries read    ok (GET ${path})`);

    const server = await world.connect({
      ...world.applianceEnv(),
      ...host.environment,
      PFSENSE_WRITE_CAPABILITIES: 'alias_entries',
      PFSENSE_WRITE_PROTECTED_NETWORKS: '10.0.0.0/8',
    });
    const before = patches();

    const lostArgs = { alias_name: 'LOST_LIST', add: [{ address: '203.0.113.10' }] };
    await approveBoth(host, server, lostArgs);
    world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply', times: 1 });
    const lost = await call(server, lostArgs);
    expect(lost.status).toBe('reconciliation_required');
    expect(lost.pending_request).toMatch(/reconciliation-request\.[^/]+\.json$/);
    // Asked again with the same arguments (the answer was lost): the same operation and its reconciliation
    // request, in the server's outbox for the operator's `sign` — never an input error, never a second PATCH.
    expect(await call(server, lostArgs)).toMatchObject({
      status: 'reconciliation_required',
      operation_id: lost.operation_id,
      pending_request: lost.pending_request,
    });
    expect(existsSync(lost.pending_request as string)).toBe(true);
    expect(patches()).toBe(before + 1);

    // The review showed a block rule; the rule turns into a pass rule before the send: stale, nothing sent.
    const flipArgs = { alias_name: 'FLIP_LIST', add: [{ address: '203.0.113.11' }] };
    await approveBoth(host, server, flipArgs);
    world.sim.control.editRecord(RULES_PATH, 6, { type: 'pass' });
    expect(await call(server, flipArgs)).toMatchObject({ status: 'refused', operation_id: null });
    expect(patches()).toBe(before + 1);

    // Refused before any request is written: an entry in a protected network, a prefix broader than /8.
    const requests = readdirSync(join(host.exchange, 'requests')).length;
    for (const args of [
      { alias_name: 'BLOCKLIST', add: [{ address: '10.1.2.3' }] },
      { alias_name: 'BAD_NETS', add: [{ address: '16.0.0.0/4' }] },
    ]) {
      expect(await call(server, args)).toMatchObject({ status: 'refused', operation_id: null });
    }
    expect(readdirSync(join(host.exchange, 'requests'))).toHaveLength(requests);
    expect(patches()).toBe(before + 1);
  });
});
