// Containment (the store's rate / blast-radius PREPARE decision) is decided before the authorization is
// consumed: a refusal consumes nothing, is audited STALE / CONTAINMENT in the store's chain, and the same
// signed authorization passes once the window has passed while it is current. The store runs the
// product's DEFAULT_RATE_LIMITS (no override): the 60 s target cooldown and one PREPARED contract per target.
import { describe, expect, it } from 'vitest';
import type { PendingAuthorizationRequest, PlanAuthorizationV2 } from '@pfsense-mcp/authorization';
import { DEFAULT_RATE_LIMITS } from '@pfsense-mcp/policy';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { CoordinatorRefusalError, OperationStatus } from '../src/index.js';
import type { ChangeResult } from '../src/index.js';
import { sim, useCoordinatorWorld, world } from './support/coordinator-suite.js';
import { aliasNow, patchCount, putInbox, readOutbox, signAuthorization, signConfirmation } from './support/world.js';

useCoordinatorWorld({ world: { limits: 'default', audit: 'store' } });

const COOLDOWN_MS = DEFAULT_RATE_LIMITS.targetCooldownMs;
const REFUSED = { status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null };

function ask(description: string, aliasName = 'LAN_SERVERS'): Promise<ChangeResult> {
  return world.driver.requestChange('ALIAS_WRITE', { alias_name: aliasName, description });
}

/** requested → the operator signs the pending authorization → it is in the inbox (not yet used). */
async function signedInInbox(
  description: string,
  fileName: string,
): Promise<{ authz: PlanAuthorizationV2; request: PendingAuthorizationRequest }> {
  const r = await ask(description);
  expect(r.status).toBe(OperationStatus.REQUESTED);
  const authz = signAuthorization(world, r.pendingRequest?.file as string) as PlanAuthorizationV2;
  putInbox(world, fileName, authz);
  return { authz, request: readOutbox(world, r.pendingRequest?.file as string) as PendingAuthorizationRequest };
}

/** The chained refusal rows of the store's audit, as class:gate. */
function refusals(): string[] {
  return world.store
    .listAuditEvents({ limit: 1000 })
    .filter((e) => e.kind === 'refusal')
    .map((e) => `${e.outcome_class}:${e.event}`);
}

describe('containment is decided before consumption (real default limits)', () => {
  it('inside the 60 s cooldown after a verified change: refused STALE/CONTAINMENT, nothing consumed; the same authorization works once the cooldown has passed', async () => {
    // A full change on LAN_SERVERS to VERIFIED starts the target's cooldown.
    await signedInInbox('Servers (first)', 'first.json');
    const prepared = await ask('Servers (first)');
    expect(prepared.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    putInbox(world, 'first-confirmation.json', signConfirmation(world, prepared.pendingRequest?.file as string));
    expect((await ask('Servers (first)')).status).toBe(OperationStatus.VERIFIED);
    expect(patchCount(sim)).toBe(1);
    // The one refusal that says something: when the cooldown the verified change started ends.
    const cooled = { ...REFUSED, retryAt: world.clock.now + COOLDOWN_MS };

    // A second change on the same alias, signed at once.
    const { authz } = await signedInInbox('Servers (second)', 'second.json');
    const id = authz.payload.authorization_id;
    const tryConsumeCalls = world.ledger.calls;
    expect(await ask('Servers (second)')).toEqual(cooled);
    expect(refusals()).toEqual(['STALE:CONTAINMENT']);
    expect(world.consumption.isConsumed(id)).toBe(false);
    expect(world.ledger.calls).toBe(tryConsumeCalls);
    expect(world.store.list()).toHaveLength(1);

    // Still inside the window (1 ms short): refused again, still not consumed.
    world.clock.now += COOLDOWN_MS - 1;
    expect(await ask('Servers (second)')).toEqual(cooled);
    expect(refusals()).toEqual(['STALE:CONTAINMENT', 'STALE:CONTAINMENT']);
    expect(world.consumption.isConsumed(id)).toBe(false);

    // The window has passed and the authorization is still current: the same file in the inbox is used.
    world.clock.now += 1;
    const second = await ask('Servers (second)');
    expect(second.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    expect(world.consumption.isConsumed(id)).toBe(true);
    // the consumption gate is given the authorization's issued_at (refused if before an accepted restore)
    expect(world.ledger.lastIssuedAt).toBe(authz.payload.issued_at);
    expect(world.store.load(second.contractId as string)).toMatchObject({
      state: RecoveryState.PREPARED,
      provenance: { authorization_id: id },
    });
    putInbox(world, 'second-confirmation.json', signConfirmation(world, second.pendingRequest?.file as string));
    expect((await ask('Servers (second)')).status).toBe(OperationStatus.VERIFIED);
    expect((await aliasNow(sim, 'LAN_SERVERS'))?.descr).toBe('Servers (second)');
    expect(patchCount(sim)).toBe(2);
    expect(world.store.verifyAuditChain()).toEqual({ ok: true });
  });

  it('a second PREPARED contract on the same alias: refused STALE/CONTAINMENT, nothing consumed; the same authorization works once the first has expired', async () => {
    // The operator's signer checks requests against real time: X is asked for half an hour ago.
    const HALF_HOUR = 30 * 60_000;
    world.clock.now -= HALF_HOUR;
    await signedInInbox('Servers (X)', 'x.json');
    const x = await ask('Servers (X)');
    expect(x.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    const xContract = world.store.load(x.contractId as string);

    // Later, another change of the same alias is asked for and signed while X is still PREPARED.
    world.clock.now += HALF_HOUR;
    const { authz, request } = await signedInInbox('Servers (Y)', 'y.json');
    const id = authz.payload.authorization_id;
    expect(await ask('Servers (Y)')).toEqual(REFUSED);
    expect(refusals()).toEqual(['STALE:CONTAINMENT']);
    expect(world.consumption.isConsumed(id)).toBe(false);
    expect(world.store.list().map((c) => c.contract_id)).toEqual([xContract.contract_id]);

    // The gatekeeper directly, with the same authorization: the same refusal, tryConsume never called.
    const calls = world.ledger.calls;
    const direct = await world.gatekeeper
      .authorizeAndCreate({
        fresh: world.freshRead('LAN_SERVERS'),
        authorization: authz,
        preparedIntent: request.payload.execution_intent,
        stepId: request.payload.step_id,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(direct).toBeInstanceOf(CoordinatorRefusalError);
    expect(world.ledger.calls).toBe(calls);
    expect(world.consumption.isConsumed(id)).toBe(false);

    // X expires unconfirmed (no cooldown for EXPIRED); Y's authorization, still current, now creates Y.
    world.clock.now = xContract.expires_at;
    expect(authz.payload.expires_at).toBeGreaterThan(world.clock.now);
    const y = await ask('Servers (Y)');
    expect(y.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    expect(world.store.load(xContract.contract_id).state).toBe(RecoveryState.EXPIRED);
    expect(world.store.load(y.contractId as string)).toMatchObject({ state: RecoveryState.PREPARED, provenance: { authorization_id: id } });
    expect(world.consumption.isConsumed(id)).toBe(true);
    expect(patchCount(sim)).toBe(0);
  });

  it('a replay of a consumed authorization inside the cooldown is still a replay (ANOMALY/REPLAY), not containment', async () => {
    const r = await ask('Servers (replayed)');
    const request = readOutbox(world, r.pendingRequest?.file as string) as PendingAuthorizationRequest;
    const authz = signAuthorization(world, r.pendingRequest?.file as string) as PlanAuthorizationV2;
    const attempt = () =>
      world.gatekeeper.authorizeAndCreate({
        fresh: world.freshRead('LAN_SERVERS'),
        authorization: authz,
        preparedIntent: request.payload.execution_intent,
        stepId: request.payload.step_id,
      });
    const contract = await attempt();
    // the first contract is PREPARED on the target: the replay meets the outstanding-PREPARED limit too
    await expect(attempt()).rejects.toBeInstanceOf(CoordinatorRefusalError);
    expect(refusals()).toEqual(['ANOMALY:REPLAY']);
    expect(world.store.list().map((c) => c.contract_id)).toEqual([contract.contract_id]);
  });
});
