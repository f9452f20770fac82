// `admin rollback` racing the MCP write tool on one alias, with real processes: the BUILT server (default rate
// limits, write_protected) has a confirmed contract B for an alias whose earlier change A is VERIFIED; the BUILT
// admin program rolls A back while the client runs B. Exactly one of them gets the alias's reservation (the
// simulator holds the winner's PATCH with a latency fault, so the other arrives while it is in flight); the other
// is refused cleanly, the store verifies, and the simulator saw exactly one PATCH. Then `admin status` shows the
// live rate windows the race left (cooldown remaining, window counts used/limit), by digest prefix only. The
// loser's next call is defined too: closed as stale, never left holding the alias (admin first).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDriver } from './support/admin-driver.js';
import type { ConnectedServer } from './support/built-server.js';
import { ALIAS_PATH, useBuiltWriteWorld } from './support/built-write-world.js';
import { approve, type HostSetup } from './support/host-setup.js';
import { runAdmin as admin, runAdminAsync } from './support/run-admin.js';
import { until } from './support/until.js';

const HOLD_MS = 2_500;
// Many process starts per test (server, signer, admin): seconds each on a loaded machine.
const PROCESS_TEST_TIMEOUT_MS = 240_000;

const world = useBuiltWriteWorld([
  { name: 'RACE_ADMIN_FIRST', type: 'host', descr: 'one', address: ['10.0.0.1'], detail: ['a'] },
  { name: 'RACE_CLIENT_FIRST', type: 'host', descr: 'two', address: ['10.0.0.2'], detail: ['b'] },
]);
const call = world.call;

/** `admin rollback` as a real child, asynchronously (the simulator lives in this process and must keep answering). */
const rollback = (h: HostSetup, contractId: string) =>
  runAdminAsync(['rollback', '--dir', h.dir, contractId, '--json'], world.applianceEnv());

const patches = world.patches;
const hold = () => world.sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: 'latency', ms: HOLD_MS, times: 1 });

interface Raced {
  readonly h: HostSetup;
  readonly server: ConnectedServer;
  /** VERIFIED on the alias. */
  readonly a: string;
  /** PREPARED and confirmed on the same alias: the client's next call runs it. */
  readonly bArgs: Record<string, unknown>;
  readonly b: string;
}

/**
 * A VERIFIED on the alias 70 s "ago" — by the library write path in this process with its clock that far back
 * (beyond the default 60 s cooldown, within the signatures' 120 s clock skew) — then the built server, with its
 * default limits, prepares B on the same alias (its fingerprint is the state A left) and B is confirmed.
 */
async function raced(alias: string): Promise<Raced> {
  const h = world.host();
  const outbox = (name: string | null) => join(h.dir, 'outbox', name ?? '');
  const earlier = await openDriver(h.dir, world.sim, { clockOffsetMs: -70_000 });
  const aDescription = `A on ${alias}`;
  let a: string;
  try {
    approve(h, outbox((await earlier.request(alias, aDescription)).pendingRequest?.file ?? null), 'plan-authorization');
    const aPrepared = await earlier.request(alias, aDescription);
    expect(aPrepared.status).toBe('awaiting_confirmation');
    approve(h, outbox(aPrepared.pendingRequest?.file ?? null), 'confirmation');
    const aRun = await earlier.request(alias, aDescription);
    expect(aRun.status).toBe('verified');
    a = aRun.contractId ?? '';
  } finally {
    earlier.close();
  }
  const server = await world.serve(h);
  const bArgs = { alias_name: alias, description: `B on ${alias}` };
  approve(h, (await call(server, bArgs)).pending_request ?? '', 'plan-authorization');
  const bPrepared = await call(server, bArgs);
  expect(bPrepared.status).toBe('awaiting_confirmation');
  approve(h, bPrepared.pending_request ?? '', 'confirmation');
  return { h, server, a, bArgs, b: bPrepared.contract_id ?? '' };
}

function statusJson(h: HostSetup): Record<string, unknown> {
  const r = admin(['status', '--dir', h.dir, '--all', '--json']);
  expect(r.status, r.stderr).toBe(0);
  return r.json;
}

const stateOf = (json: Record<string, unknown>, id: string) =>
  (json['contracts'] as Array<Record<string, unknown>>).find((c) => c['contract_id'] === id)?.['state'];

describe('admin rollback racing the MCP tool on one alias', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('admin first: its rollback holds the reservation, the client asking for B meanwhile is refused cleanly; one PATCH; status shows the windows', async () => {
    const r = await raced('RACE_ADMIN_FIRST');
    const before = patches();
    hold();
    const rolling = rollback(r.h, r.a);
    await until(() => patches() === before + 1, 60_000);
    const b = await call(r.server, r.bArgs);
    const done = await rolling;
    world.sim.control.clearFaults();
    expect(done.json).toMatchObject({ ok: true, state: 'ROLLED_BACK' });
    expect(b.status).toBe('refused');
    expect(patches()).toBe(before + 1);
    const json = statusJson(r.h);
    expect(stateOf(json, r.a)).toBe('ROLLED_BACK');
    expect(stateOf(json, r.b)).toBe('PREPARED');
    expect(admin_verify(r.h)).toBe(0);

    // The live windows: A's rollback started the alias's cooldown again; two PREPAREs counted for the alias and the capability.
    const target = (json['contracts'] as Array<Record<string, unknown>>).find((c) => c['contract_id'] === r.a)?.['target'];
    const windows = json['rate_windows'] as Record<string, unknown>;
    const cooldowns = windows['target_cooldowns'] as Array<{ target: string; remaining_ms: number }>;
    expect(cooldowns.map((c) => c.target)).toEqual([target]);
    expect(cooldowns[0]?.remaining_ms).toBeGreaterThan(0);
    expect(cooldowns[0]?.remaining_ms).toBeLessThanOrEqual(60_000);
    expect(windows['target_windows']).toEqual([{ target, used: 2, limit: 10 }]);
    expect(windows['capability_windows']).toEqual([{ capability: 'ALIAS_WRITE', used: 2, limit: 60 }]);
    expect(windows).toMatchObject({
      in_flight: { used: 0, limit: 1 },
      reconciliation: { used: 0, lockout_at: 3 },
      clock_regression: false,
    });
    const text = admin(['status', '--dir', r.h.dir]).stdout;
    expect(text).toMatch(new RegExp(`cooldown target ${String(target)}… \\d+s left`));
    expect(text).toContain('prepares this 60 min: ALIAS_WRITE 2/60');
    for (const out of [text, JSON.stringify(json)]) {
      expect(out).not.toContain('RACE_ADMIN_FIRST');
      expect(out).not.toContain('B on');
    }

    // The outcome of the race for the loser, defined: B was prepared against the state A left, which the rollback
    // undid. Asked again, B is not retried against another state: the executor finds its precondition stale and
    // closes it (FAILED, `refused`, nothing sent) — so it holds no PREPARED slot on the alias, and the next attempt
    // starts cleanly as a new request.
    const again = await call(r.server, r.bArgs);
    expect(again.status).toBe('refused');
    expect(patches()).toBe(before + 1);
    const after = statusJson(r.h);
    expect(stateOf(after, r.b)).toBe('FAILED');
    const next = await call(r.server, { alias_name: 'RACE_ADMIN_FIRST', description: 'C after the race' });
    expect(next.status).toBe('requested');
    expect(admin_verify(r.h)).toBe(0);
  });

  it('client first: B holds the reservation, the admin rollback of A meanwhile is refused cleanly and A stays VERIFIED; one PATCH', async () => {
    const r = await raced('RACE_CLIENT_FIRST');
    const before = patches();
    hold();
    const b = call(r.server, r.bArgs);
    await until(() => patches() === before + 1);
    const refused = await rollback(r.h, r.a);
    expect((await b).status).toBe('verified');
    world.sim.control.clearFaults();
    expect(refused.status).toBe(1);
    expect(refused.json['error']).toMatchObject({ code: 'REFUSED' });
    expect(patches()).toBe(before + 1);
    const json = statusJson(r.h);
    expect(stateOf(json, r.a)).toBe('VERIFIED');
    expect(stateOf(json, r.b)).toBe('VERIFIED');
    expect(admin_verify(r.h)).toBe(0);
  });
});

function admin_verify(h: HostSetup): number | null {
  return admin(['audit', 'verify', '--dir', h.dir]).status;
}
