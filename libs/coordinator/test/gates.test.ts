// Gatekeeper gate order and every refusal: a spy on the read transport proves no GET before the
// pure checks pass, a counting ledger proves no tryConsume on a failed gate, and the store proves no contract.
import { describe, expect, it } from 'vitest';
import { createPlanAuthorizationV2, planDigestOf } from '@pfsense-mcp/authorization';
import type { Artifact, PendingAuthorizationRequest, PlanAuthorizationV2, SigningKey } from '@pfsense-mcp/authorization';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { CoordinatorRefusalError, OperationStatus } from '../src/index.js';
import { sim, useCoordinatorWorld, world } from './support/coordinator-suite.js';
import {
  HOUR,
  STATUS_PATH,
  adminSetDescription,
  makeWorld,
  patchCount,
  putInbox,
  readOutbox,
  signAuthorization,
  signConfirmation,
  startTestSimulator,
} from './support/world.js';

useCoordinatorWorld();

interface Requested {
  readonly request: PendingAuthorizationRequest;
  readonly file: string;
}

/** A real pending authorization request for LAN_SERVERS, from the driver (its reads are then forgotten). */
async function requested(description = 'Servers (new)', aliasName = 'LAN_SERVERS'): Promise<Requested> {
  const r = await world.driver.requestChange('ALIAS_WRITE', { alias_name: aliasName, description });
  expect(r.status).toBe(OperationStatus.REQUESTED);
  const file = r.pendingRequest?.file as string;
  world.reads.calls.length = 0;
  return { request: readOutbox(world, file) as PendingAuthorizationRequest, file };
}

function attempt(req: Requested, authorization: unknown, stepId = req.request.payload.step_id) {
  const alias = (req.request.payload.execution_intent.payload.natural_target as { alias_name: string }).alias_name;
  return world.gatekeeper.authorizeAndCreate({
    fresh: world.freshRead(alias),
    authorization,
    preparedIntent: req.request.payload.execution_intent,
    stepId,
  });
}

function signWith(
  req: Requested,
  key: SigningKey,
  overrides: Partial<{ planDigest: string; stepDigest: string; expiresAt: number; requestKeyId: string }> = {},
): PlanAuthorizationV2 {
  const p = req.request.payload;
  return createPlanAuthorizationV2(
    {
      planDigest: overrides.planDigest ?? p.plan_digest,
      steps: [{ step_id: p.step_id, execution_intent_digest: overrides.stepDigest ?? p.execution_intent_digest }],
      riskClass: 'low',
      requestKeyId: overrides.requestKeyId ?? world.keys.server.keyId,
      issuedAt: world.clock.now - 1000,
      expiresAt: overrides.expiresAt ?? world.clock.now + HOUR,
    },
    key,
  );
}

/** The refusal is uniform, nothing was read, consumed or created, and the audit has one value-free class. */
async function expectPureRefusal(promise: Promise<unknown>, gets: 'none' | 'some' = 'none', refusalClass: 'ANOMALY' | 'STALE' = 'ANOMALY') {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CoordinatorRefusalError);
  expect((error as Error).message).toBe('refused');
  if (gets === 'none') expect(world.reads.calls).toEqual([]);
  expect(world.reads.calls.every((c) => c.method === 'GET')).toBe(true);
  expect(world.ledger.calls).toBe(0);
  expect(world.store.list()).toEqual([]);
  const events = world.audit.events();
  expect(events.at(-1)?.refusalClass).toBe(refusalClass);
  expect(JSON.stringify(events)).not.toContain('Servers');
}

describe('authorizeAndCreate gate order', () => {
  it('passes every gate in order and creates one PREPARED contract with provenance', async () => {
    const req = await requested();
    const authz = signAuthorization(world, req.file) as PlanAuthorizationV2;
    const contract = await attempt(req, authz);
    expect(contract.state).toBe(RecoveryState.PREPARED);
    expect(contract.provenance).toMatchObject({
      authorization_id: authz.payload.authorization_id,
      plan_digest: req.request.payload.plan_digest,
      step_id: req.request.payload.step_id,
      execution_intent_digest: req.request.payload.execution_intent_digest,
    });
    expect(contract.expires_at).toBeLessThanOrEqual(authz.payload.expires_at);
    // freshness read: the appliance id and the alias, GET only
    expect(world.reads.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v2/status/system', 'GET /api/v2/firewall/aliases']);
    expect(world.ledger.calls).toBe(1);
  });

  it('refuses a key of the wrong role (a confirmation key, the server request key)', async () => {
    const req = await requested();
    await expectPureRefusal(attempt(req, signWith(req, world.keys.confirmation)));
    await expectPureRefusal(attempt(req, signWith(req, world.keys.server)));
  });

  it('refuses an unpinned and an inactive authority', async () => {
    const req = await requested();
    await expectPureRefusal(attempt(req, signWith(req, world.keys.stranger)));
    await expectPureRefusal(attempt(req, signWith(req, world.keys.retired)));
  });

  it('refuses an algorithm downgrade before any signature work', async () => {
    const req = await requested();
    const good = signWith(req, world.keys.authorization);
    for (const algorithm of ['none', 'HS256', 'ed25519']) {
      await expectPureRefusal(attempt(req, { ...good, payload: { ...good.payload, algorithm } }));
    }
  });

  it('refuses a tampered payload (signature no longer verifies)', async () => {
    const req = await requested();
    const good = signWith(req, world.keys.authorization);
    await expectPureRefusal(attempt(req, { ...good, payload: { ...good.payload, expires_at: good.payload.expires_at + 1 } }));
  });

  it('refuses an expired authorization', async () => {
    const req = await requested();
    const authz = signWith(req, world.keys.authorization, { expiresAt: world.clock.now + 1000 });
    world.clock.now += 1000;
    await expectPureRefusal(attempt(req, authz));
  });

  it('refuses a wrong step and an execution-intent digest mismatch', async () => {
    const req = await requested();
    await expectPureRefusal(attempt(req, signWith(req, world.keys.authorization), 'alias-description.attempt-2'));
    await expectPureRefusal(attempt(req, signWith(req, world.keys.authorization, { stepDigest: 'f'.repeat(64) })));
    await expectPureRefusal(attempt(req, signWith(req, world.keys.authorization, { planDigest: 'e'.repeat(64) })));
  });

  it("refuses an authorization answering another server's request key, before any read", async () => {
    const req = await requested();
    // Same operator key, same plan and intent — but signed for a request of another write directory's server.
    await expectPureRefusal(attempt(req, signWith(req, world.keys.authorization, { requestKeyId: world.keys.stranger.keyId })));
    expect(world.audit.events().at(-1)?.gate).toBe('BINDING');
  });

  it('refuses anything that is not a PlanAuthorizationV2 (a pending request, garbage)', async () => {
    const req = await requested();
    await expectPureRefusal(attempt(req, req.request));
    await expectPureRefusal(attempt(req, { kind: 'pfsense-mcp/plan-authorization', version: 1 }));
    await expectPureRefusal(attempt(req, null));
  });

  it("refuses another appliance's binding at the freshness gate (ANOMALY), without consuming", async () => {
    const req = await requested();
    const p = req.request.payload;
    const other = { ...p.execution_intent, payload: { ...p.execution_intent.payload, appliance_binding_digest: 'b'.repeat(64) } };
    const { executionIntentDigest } = await import('@pfsense-mcp/authorization');
    const otherDigest = executionIntentDigest(other);
    const { operationIdOf } = await import('../src/index.js');
    const opId = operationIdOf('b'.repeat(64), { alias_name: 'LAN_SERVERS', description: 'Servers (new)' });
    const steps = [{ step_id: p.step_id, execution_intent_digest: otherDigest }];
    const authz = createPlanAuthorizationV2(
      {
        planDigest: planDigestOf({ operationId: opId, steps }),
        steps,
        riskClass: 'low',
        requestKeyId: world.keys.server.keyId,
        issuedAt: world.clock.now,
        expiresAt: world.clock.now + HOUR,
      },
      world.keys.authorization,
    );
    const error = await world.gatekeeper
      .authorizeAndCreate({ fresh: world.freshRead('LAN_SERVERS'), authorization: authz, preparedIntent: other, stepId: p.step_id })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(CoordinatorRefusalError);
    // Gate 5 asks for the call's one read pass (binding and target together), then compares the binding.
    expect(world.reads.calls.map((c) => c.path)).toEqual(['/api/v2/status/system', '/api/v2/firewall/aliases']);
    expect(world.ledger.calls).toBe(0);
    expect(world.store.list()).toEqual([]);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'APPLIANCE_BINDING' });
  });

  it('refuses a target changed since signing as STALE, and the same authorization succeeds once it is as signed again', async () => {
    const req = await requested();
    const authz = signAuthorization(world, req.file);
    await adminSetDescription(sim, 0, 'someone else');
    await expectPureRefusal(attempt(req, authz), 'some', 'STALE');
    expect(world.audit.events().at(-1)?.gate).toBe('FRESHNESS');
    await adminSetDescription(sim, 0, 'Servers');
    const contract = await attempt(req, authz);
    expect(contract.state).toBe(RecoveryState.PREPARED);
  });

  it('refuses when the freshness read fails (I/O), without consuming', async () => {
    const req = await requested();
    const authz = signAuthorization(world, req.file);
    sim.control.setFault({ route: '/api/v2/firewall/aliases', method: 'GET', kind: 'reset-before-apply' });
    await expectPureRefusal(attempt(req, authz), 'some', 'STALE');
    sim.control.clearFaults();
    expect((await attempt(req, authz)).state).toBe(RecoveryState.PREPARED);
  });

  it('refuses a replay of a consumed authorization (ANOMALY), with still exactly one contract', async () => {
    const req = await requested();
    const authz = signAuthorization(world, req.file);
    await attempt(req, authz);
    const error = await attempt(req, authz).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CoordinatorRefusalError);
    expect(world.store.list()).toHaveLength(1);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'REPLAY' });
  });

  it('refuses when the profile does not grant ALIAS_WRITE, before anything else', async () => {
    const req = await requested();
    const authz = signAuthorization(world, req.file);
    const { Profile } = await import('@pfsense-mcp/policy');
    const auditor = await makeWorld(sim, { profile: Profile.AUDITOR, keys: world.keys });
    try {
      const error = await auditor.gatekeeper
        .authorizeAndCreate({
          fresh: auditor.freshRead('LAN_SERVERS'),
          authorization: authz,
          preparedIntent: req.request.payload.execution_intent,
          stepId: req.request.payload.step_id,
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(CoordinatorRefusalError);
      expect(auditor.reads.calls).toEqual([]);
      expect(auditor.ledger.calls).toBe(0);
      expect(auditor.audit.events().at(-1)?.gate).toBe('CAPABILITY');
    } finally {
      auditor.cleanup();
    }
  });
});

describe('the driver: one refusal shape, and the audit class of a failed appliance read', () => {
  const REFUSED = { status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null };
  const input = { alias_name: 'LAN_SERVERS', description: 'Servers (new)' };

  it('refuses with the same shape at the capability gate, after the operation id is known, and at the inbox', async () => {
    const { Profile } = await import('@pfsense-mcp/policy');
    const auditor = await makeWorld(sim, { profile: Profile.AUDITOR, keys: world.keys });
    try {
      expect(await auditor.driver.requestChange('ALIAS_WRITE', input)).toEqual(REFUSED);
      expect(auditor.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'CAPABILITY' });
    } finally {
      auditor.cleanup();
    }
    // a later gate (the operation id is computable): the requested description is already the current one
    expect(await world.driver.requestChange('ALIAS_WRITE', { alias_name: 'LAN_SERVERS', description: 'Servers' })).toEqual(REFUSED);
    // the inbox gate: a malformed artifact named for this call's plan fails the call closed
    const { writeFileSync } = await import('node:fs');
    const pending = (await world.driver.requestChange('ALIAS_WRITE', input)).pendingRequest?.file as string;
    writeFileSync(`${world.inbox}/plan-authorization.${pending.split('.')[3]}.json`, '{', { mode: 0o600 });
    expect(await world.driver.requestChange('ALIAS_WRITE', input)).toEqual(REFUSED);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'INBOX' });
  });

  it('audits a failed appliance read (I/O) as STALE — in the driver and at the freshness gate — never as ANOMALY', async () => {
    sim.control.setFault({ route: STATUS_PATH, method: 'GET', kind: 'reset-before-apply' });
    expect(await world.driver.requestChange('ALIAS_WRITE', input)).toEqual(REFUSED);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'STALE', gate: 'FRESHNESS' });
    sim.control.clearFaults();
    const req = await requested();
    const authz = signAuthorization(world, req.file);
    sim.control.setFault({ route: STATUS_PATH, method: 'GET', kind: 'reset-before-apply' });
    await expectPureRefusal(attempt(req, authz), 'some', 'STALE');
    expect(world.audit.events().at(-1)?.gate).toBe('FRESHNESS');
    expect(world.audit.events().some((e) => e.gate === 'APPLIANCE_BINDING')).toBe(false);
  });

  it('audits an appliance without a usable id as ANOMALY / APPLIANCE_BINDING, with the same refusal shape', async () => {
    const noId = await startTestSimulator({ [STATUS_PATH]: { platform: 'Netgate 4200' }, '/api/v2/system/hasync': { pfhostid: '' } });
    const w = await makeWorld(noId, { keys: world.keys });
    try {
      expect(await w.driver.requestChange('ALIAS_WRITE', input)).toEqual(REFUSED);
      expect(w.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'APPLIANCE_BINDING' });
    } finally {
      w.cleanup();
      await noId.close();
    }
  });
});

describe('confirmAndHandoff', () => {
  it('refuses a confirmation for a swapped contract id: nothing confirmed, nothing sent', async () => {
    const a = await requested('A side', 'LAN_SERVERS');
    const b = await requested('B side', 'WEB_PORTS');
    const ca = await attempt(a, signAuthorization(world, a.file));
    const cb = await attempt(b, signAuthorization(world, b.file));
    // the driver writes the confirmation requests when asked again
    const ra = await world.driver.requestChange('ALIAS_WRITE', { alias_name: 'LAN_SERVERS', description: 'A side' });
    expect(ra.contractId).toBe(ca.contract_id);
    const evidenceForA: Artifact = signConfirmation(world, ra.pendingRequest?.file as string);
    const before = patchCount(sim);
    const error = await world.gatekeeper.confirmAndHandoff(cb.contract_id, evidenceForA, b.request.payload.execution_intent).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CoordinatorRefusalError);
    expect(world.store.load(cb.contract_id)).toMatchObject({ state: 'PREPARED', confirmation: null });
    expect(patchCount(sim)).toBe(before);
    // and A's evidence with B's intent is refused too (the intent is bound by provenance)
    const error2 = await world.gatekeeper.confirmAndHandoff(ca.contract_id, evidenceForA, b.request.payload.execution_intent).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error2).toBeInstanceOf(CoordinatorRefusalError);
    expect(world.store.load(ca.contract_id).confirmation).toBeNull();
    // the right pairing executes once; a second handoff is refused
    const done = await world.gatekeeper.confirmAndHandoff(ca.contract_id, evidenceForA, a.request.payload.execution_intent);
    expect(done.state).toBe(RecoveryState.VERIFIED);
    expect(patchCount(sim)).toBe(before + 1);
    const again = await world.gatekeeper.confirmAndHandoff(ca.contract_id, evidenceForA, a.request.payload.execution_intent).then(
      () => null,
      (e: unknown) => e,
    );
    expect(again).toBeInstanceOf(CoordinatorRefusalError);
    expect(patchCount(sim)).toBe(before + 1);
    putInbox(world, 'unused.json', evidenceForA);
  });
});

describe('the default refusal audit is the store chain (docs/DESIGN.md §6: a value-free class)', () => {
  it('STALE and ANOMALY refusals become chained refusal rows in the store, with no value in them', async () => {
    const chained = await makeWorld(sim, { audit: 'store' });
    try {
      const r = await chained.driver.requestChange('ALIAS_WRITE', { alias_name: 'LAN_SERVERS', description: 'Servers (chained)' });
      const request = readOutbox(chained, r.pendingRequest?.file as string) as PendingAuthorizationRequest;
      const authz = signAuthorization(chained, r.pendingRequest?.file as string) as PlanAuthorizationV2;
      const attemptHere = () =>
        chained.gatekeeper.authorizeAndCreate({
          fresh: chained.freshRead('LAN_SERVERS'),
          authorization: authz,
          preparedIntent: request.payload.execution_intent,
          stepId: request.payload.step_id,
        });
      expect(chained.store.listAuditEvents({ limit: 1000 })).toEqual([]);

      // STALE: the target changed since signing
      await adminSetDescription(sim, 0, 'someone else');
      await expect(attemptHere()).rejects.toBeInstanceOf(CoordinatorRefusalError);
      // ANOMALY: a wrong-role key (pure gate), then a replay after the target is back and one contract exists
      const wrongRole = signWith({ request, file: r.pendingRequest?.file as string }, chained.keys.confirmation);
      await expect(
        chained.gatekeeper.authorizeAndCreate({
          fresh: chained.freshRead('LAN_SERVERS'),
          authorization: wrongRole,
          preparedIntent: request.payload.execution_intent,
          stepId: request.payload.step_id,
        }),
      ).rejects.toBeInstanceOf(CoordinatorRefusalError);
      await adminSetDescription(sim, 0, 'Servers');
      const contract = await attemptHere();
      await expect(attemptHere()).rejects.toBeInstanceOf(CoordinatorRefusalError);

      const refusals = chained.store.listAuditEvents({ limit: 1000 }).filter((e) => e.kind === 'refusal');
      expect(refusals.map((e) => [e.outcome_class, e.event])).toEqual([
        ['STALE', 'FRESHNESS'],
        ['ANOMALY', 'SIGNATURE'],
        ['ANOMALY', 'REPLAY'],
      ]);
      expect(
        refusals.every((e) => e.operation_id === r.operationId && e.contract_id === '' && /^[0-9a-f]{64}$/.test(e.evidence_digest ?? '')),
      ).toBe(true);
      // the rows are in the same chain as the contract's own rows, which still verifies (also at a reopen)
      expect(chained.store.listAuditEvents({ contractId: contract.contract_id }).length).toBeGreaterThan(0);
      expect(chained.store.verifyAuditChain()).toEqual({ ok: true });
      const text = JSON.stringify(chained.store.listAuditEvents({ limit: 1000 }));
      for (const value of ['Servers', 'someone else', 'LAN_SERVERS', authz.payload.authorization_id]) expect(text).not.toContain(value);
      expect(chained.audit.events()).toEqual([]);
    } finally {
      chained.cleanup();
    }
  });
});
