// Real processes: several coordinator processes racing one signed authorization (exactly one contract); two
// racing two authorizations for one alias under the real default limits (one contract, the other refused by
// containment with its authorization NOT consumed); a process SIGKILLed just before the creation transaction
// (nothing consumed: the retry succeeds) and inside it after the consumption committed (the authorization is
// burned). The simulator runs here, in the parent; the children reach it over loopback and open the same
// store files.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeArtifact } from '@pfsense-mcp/authorization';
import type { PendingAuthorizationRequest, PlanAuthorizationV2 } from '@pfsense-mcp/authorization';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { DEFAULT_RATE_LIMITS } from '@pfsense-mcp/policy';
import { OperationStatus } from '../src/index.js';
import { LOOSE_RATE_LIMITS } from '@pfsense-mcp/test-support';
import { child, sim, useCoordinatorWorld, world } from './support/coordinator-suite.js';
import { childConfigOf, startChild } from './support/child-process.js';
import { TLS_MODE, makeWorld, patchCount, putInbox, readOutbox, signAuthorization } from './support/world.js';
import type { World } from './support/world.js';

useCoordinatorWorld({ child: true });

const input = { alias_name: 'LAN_SERVERS', description: 'Servers (raced)' };
const RACERS = 6;

async function signedRequest(): Promise<{ request: PendingAuthorizationRequest; authz: PlanAuthorizationV2 }> {
  const r = await world.driver.requestChange('ALIAS_WRITE', input);
  expect(r.status).toBe(OperationStatus.REQUESTED);
  const request = readOutbox(world, r.pendingRequest?.file as string) as PendingAuthorizationRequest;
  return { request, authz: signAuthorization(world, r.pendingRequest?.file as string) as PlanAuthorizationV2 };
}

/**
 * A signed authorization in the inbox, and a child that takes it and is SIGKILLed at `crashAt` of the creation
 * transaction; `restart` reopens the server on the same files (the test cleans the restarted world up).
 */
async function crashInCreate(crashAt: 'before-begin' | 'after-write-before-commit') {
  const { authz } = await signedRequest();
  putInbox(world, 'authorization.json', authz);
  const c = startChild(child.script, {
    ...childConfigOf(world, sim, TLS_MODE, LOOSE_RATE_LIMITS),
    op: 'request',
    input,
    crashAt,
    crashOps: ['create'],
  });
  c.process.stdin?.end();
  const result = await c.done;
  const restart = (): Promise<World> => {
    world.store.close();
    world.consumption.close();
    return makeWorld(sim, { reopen: { dir: world.dir, keys: world.keys, masterKey: world.masterKey }, audit: 'store' });
  };
  return { authz, result, restart };
}

describe('coordinator processes', () => {
  it(`${RACERS} processes racing one authorization: exactly one contract, the others refused as a replay`, async () => {
    const { request, authz } = await signedRequest();
    const config = {
      ...childConfigOf(world, sim, TLS_MODE, LOOSE_RATE_LIMITS),
      op: 'authorize',
      authorizationText: encodeArtifact(authz),
      preparedIntent: request.payload.execution_intent,
      stepId: request.payload.step_id,
      waitForGo: true,
    };
    const racers = Array.from({ length: RACERS }, () => startChild(child.script, config));
    await Promise.all(racers.map((c) => c.waitFor((l) => l.ready === true)));
    for (const c of racers) c.process.stdin?.end('go\n');
    const results = await Promise.all(racers.map((c) => c.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const outcomes = results.map((r) => r.lines.at(-1) ?? {});
    const winners = outcomes.filter((o) => typeof o.contract === 'string');
    const losers = outcomes.filter((o) => o.refused !== undefined);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(RACERS - 1);
    expect(losers.every((o) => o.refused === 'CoordinatorRefusalError')).toBe(true);

    const contracts = world.store.list();
    expect(contracts.map((c) => c.contract_id)).toEqual([winners[0]?.contract]);
    expect(contracts[0]).toMatchObject({ state: RecoveryState.PREPARED, provenance: { authorization_id: authz.payload.authorization_id } });
    expect(world.consumption.isConsumed(authz.payload.authorization_id)).toBe(true);
    // each loser left a value-free ANOMALY/REPLAY row in the store's chained audit (the default sink)
    const refusals = world.store.listAuditEvents({ limit: 1000 }).filter((e) => e.kind === 'refusal');
    expect(refusals.map((e) => `${e.outcome_class}:${e.event}`)).toEqual(Array.from({ length: RACERS - 1 }, () => 'ANOMALY:REPLAY'));
    expect(world.store.verifyAuditChain()).toEqual({ ok: true });
    expect(patchCount(sim)).toBe(0);
  }, 60_000);

  it('SIGKILL after the gates, before the creation transaction: nothing consumed, the same authorization works after a restart', async () => {
    const { authz, result, restart } = await crashInCreate('before-begin');
    expect(result.signal).toBe('SIGKILL');

    const restarted = await restart();
    try {
      expect(restarted.store.list()).toEqual([]);
      expect(restarted.consumption.isConsumed(authz.payload.authorization_id)).toBe(false);
      const retry = await restarted.driver.requestChange('ALIAS_WRITE', input);
      expect(retry.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
      expect(restarted.store.load(retry.contractId as string)).toMatchObject({
        state: RecoveryState.PREPARED,
        provenance: { authorization_id: authz.payload.authorization_id },
      });
      expect(restarted.consumption.isConsumed(authz.payload.authorization_id)).toBe(true);
      expect(restarted.store.listAuditEvents({ limit: 1000 }).filter((e) => e.kind === 'refusal')).toEqual([]);
    } finally {
      restarted.cleanup();
    }
  }, 60_000);

  it('two processes, two authorizations for one alias, real default limits: one contract; the other refused by containment with nothing consumed', async () => {
    const strict = await makeWorld(sim, { limits: 'default', audit: 'store' });
    try {
      const signed: { description: string; id: string }[] = [];
      for (const description of ['Servers (left)', 'Servers (right)']) {
        const r = await strict.driver.requestChange('ALIAS_WRITE', { alias_name: 'LAN_SERVERS', description });
        expect(r.status).toBe(OperationStatus.REQUESTED);
        const authz = signAuthorization(strict, r.pendingRequest?.file as string) as PlanAuthorizationV2;
        putInbox(strict, `${description.includes('left') ? 'left' : 'right'}.json`, authz);
        signed.push({ description, id: authz.payload.authorization_id });
      }
      // Both pass every gate including the containment pre-check and hold just before the creation transaction;
      // then they are let in one after the other, each on the other's event (held, then done) — never on time or on
      // who wins the write lock under load: the first creates the contract, the second repeats containment inside
      // its transaction and is refused there, still before any consumption.
      const releaseFiles = signed.map((_, i) => join(strict.dir, `release-${i}`));
      const racers = signed.map((s, i) =>
        startChild(child.script, {
          ...childConfigOf(strict, sim, TLS_MODE, { ...DEFAULT_RATE_LIMITS }),
          op: 'request',
          input: { alias_name: 'LAN_SERVERS', description: s.description },
          holdAt: 'before-begin',
          holdOps: ['create'],
          releaseFile: releaseFiles[i],
        }),
      );
      for (const r of racers) r.process.stdin?.end();
      await Promise.all(racers.map((r) => r.waitFor((l) => l.held === true)));
      const results = [];
      for (const [i, r] of racers.entries()) {
        writeFileSync(releaseFiles[i] as string, '');
        results.push(await r.done);
      }
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const outcomes = results.map((r) => r.lines.at(-1) ?? {});
      expect(outcomes.map((o) => o.status).sort()).toEqual([OperationStatus.AWAITING_CONFIRMATION, OperationStatus.REFUSED]);

      const winner = outcomes.findIndex((o) => o.status === OperationStatus.AWAITING_CONFIRMATION);
      const won = signed[winner] as { id: string };
      const lost = signed[1 - winner] as { id: string };
      expect(strict.store.list().map((c) => c.provenance.authorization_id)).toEqual([won.id]);
      expect(strict.consumption.isConsumed(won.id)).toBe(true);
      expect(strict.consumption.isConsumed(lost.id)).toBe(false);
      const refusals = strict.store.listAuditEvents({ limit: 1000 }).filter((e) => e.kind === 'refusal');
      expect(refusals.map((e) => `${e.outcome_class}:${e.event}`)).toEqual(['STALE:CONTAINMENT']);
      expect(strict.store.verifyAuditChain()).toEqual({ ok: true });
      expect(patchCount(sim)).toBe(0);
    } finally {
      strict.cleanup();
    }
    // A bound for a stuck child, never a wait: two children start and open the stores, seconds each under load.
  }, 180_000);

  it('SIGKILL inside the creation transaction after the consumption committed: authorization burned, no contract, a retry is refused', async () => {
    // The child finds the authorization in the inbox and passes every gate; inside the creation
    // transaction tryConsume commits (its own file); the crash hook kills it before the contract commits.
    const { authz, result, restart } = await crashInCreate('after-write-before-commit');
    expect(result.signal).toBe('SIGKILL');
    expect(result.lines).toEqual([]);

    // The server restarts: everything reopened from the files (chain and anchor verified at open).
    const restarted = await restart();
    try {
      expect(restarted.store.list()).toEqual([]);
      expect(restarted.consumption.isConsumed(authz.payload.authorization_id)).toBe(true);
      const retry = await restarted.driver.requestChange('ALIAS_WRITE', input);
      expect(retry.status).toBe(OperationStatus.REFUSED);
      expect(restarted.store.list()).toEqual([]);
      expect(restarted.store.listAuditEvents({ limit: 1000 }).map((e) => `${e.kind}:${e.outcome_class}:${e.event}`)).toEqual([
        'refusal:ANOMALY:REPLAY',
      ]);
      expect(restarted.store.verifyAuditChain()).toEqual({ ok: true });
      // asked again: still refused, still no contract; the burned file is left for the operator
      expect((await restarted.driver.requestChange('ALIAS_WRITE', input)).status).toBe(OperationStatus.REFUSED);
      expect(restarted.store.list()).toEqual([]);
      expect(existsSync(join(restarted.inbox, 'authorization.json'))).toBe(true);
      expect(patchCount(sim)).toBe(0);
    } finally {
      restarted.cleanup();
    }
  }, 60_000);
});
