// End to end through the operation driver, signed with the REAL signer CLI: a forward whose response is lost
// → RECONCILIATION → the executor's read-only observation → a server-signed pending reconciliation request
// in the outbox → the operator's signed evidence (APPLIED or NOT_APPLIED) → resumeReconciliation → VERIFIED
// or FAILED, with zero sends while reconciling; and a ROLLBACK_FAILED reservation released by a signed release.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArtifact, verifyPendingRequest } from '@pfsense-mcp/authorization';
import type { PendingReconciliationRequest } from '@pfsense-mcp/authorization';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { CoordinatorRefusalError, OperationStatus } from '../src/index.js';
import type { ChangeResult } from '../src/index.js';
import { ring, sim, useCoordinatorWorld, world } from './support/coordinator-suite.js';
import { reviewAndSign } from './support/signer-cli.js';
import {
  ALIAS_PATH,
  NETGATE_ID,
  TLS_MODE,
  adminSetDescription,
  aliasNow,
  patchCount,
  readOutbox,
  serverAuthorities,
} from './support/world.js';

useCoordinatorWorld({ signer: true });

const input = { alias_name: 'LAN_SERVERS', description: 'Servers (reconciled)' };
/** Every `refused` has one shape: it names no operation or contract (the store and the audit do). */
const REFUSED = { status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null };
const sends = () => world.writeProxy.sendCount;
const nonGetReads = () => world.reads.calls.filter((c) => c.method !== 'GET').length;

/** request → sign (CLI) → PREPARED → sign the confirmation (CLI): the next call hands over to the executor. */
async function confirmedInInbox(): Promise<ChangeResult> {
  const r1 = await world.driver.requestChange('ALIAS_WRITE', input);
  reviewAndSign(ring, 'plan-authorization', join(world.outbox, r1.pendingRequest?.file as string), world.inbox);
  const r2 = await world.driver.requestChange('ALIAS_WRITE', input);
  expect(r2.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
  reviewAndSign(ring, 'confirmation', join(world.outbox, r2.pendingRequest?.file as string), world.inbox);
  return r2;
}

/** The forward's response is lost (per the fault): RECONCILIATION, then the pending reconciliation request. */
async function lostForward(
  fault: 'drop-response-after-apply' | 'reset-before-apply',
): Promise<{ contractId: string; requestFile: string }> {
  const r2 = await confirmedInInbox();
  sim.control.setFault({ route: ALIAS_PATH, method: 'PATCH', kind: fault, times: 1 });
  const r3 = await world.driver.requestChange('ALIAS_WRITE', input);
  expect(r3).toMatchObject({ status: OperationStatus.RECONCILIATION_REQUIRED, contractId: r2.contractId });
  const contractId = r2.contractId as string;
  expect(world.store.load(contractId).state).toBe(RecoveryState.RECONCILIATION);
  expect(patchCount(sim)).toBe(1);
  const sendsBefore = sends();
  const readsBefore = world.reads.calls.length;

  // Asked again: the executor's read-only observation, and a server-signed pending request in the outbox.
  const r4 = await world.driver.requestChange('ALIAS_WRITE', input);
  expect(r4.status).toBe(OperationStatus.RECONCILIATION_REQUIRED);
  const requestFile = r4.pendingRequest?.file as string;
  expect(requestFile).toMatch(/^reconciliation-request\./);
  const request = verifyPendingRequest(readOutbox(world, requestFile), {
    serverAuthorities: serverAuthorities(world.keys),
    nowMs: Date.now(),
  }) as PendingReconciliationRequest;
  const observation = await world.driver.observeReconciliationTarget(contractId);
  expect(request.payload).toMatchObject({
    contract_id: contractId,
    state_version: observation.stateVersion,
    origin: 'EXECUTING',
    observed_fingerprint: observation.observedFingerprint,
  });
  expectBoundToContract(request.payload, contractId);
  // Version 3: the config-history corroboration the contract recorded with the send (a lost response after
  // apply left exactly pfrest's one alias-update revision; a reset before apply left none), and no pf table for
  // the description (it applies no filter).
  expect(request.version).toBe(3);
  const history = request.version === 3 ? request.payload.config_history : undefined;
  expect(request.version === 3 ? request.payload.observed_pf_table : undefined).toBeNull();
  expect(history).toEqual(
    fault === 'drop-response-after-apply'
      ? {
          class: 'ONE',
          reason: null,
          new_count: 1,
          new_times: [expect.any(Number)],
          change_note: 'Modified Firewall Alias via API',
          descriptions_digest: observation.configHistory?.descriptions_digest,
        }
      : { class: 'NONE', reason: null, new_count: 0, new_times: [], change_note: null, descriptions_digest: null },
  );
  // asking again writes nothing new; nothing was sent while observing
  expect((await world.driver.requestChange('ALIAS_WRITE', input)).pendingRequest).toEqual({ kind: 'reconciliation', file: requestFile });
  expect(sends()).toBe(sendsBefore);
  expect(world.reads.calls.length).toBeGreaterThan(readsBefore);
  return { contractId, requestFile };
}

/** A reconciliation or release request names the contract's appliance, target fingerprint and intent digest. */
function expectBoundToContract(payload: Record<string, unknown> | object, contractId: string): void {
  const c = world.store.load(contractId);
  expect(payload).toMatchObject({
    appliance: { tls_mode: TLS_MODE, appliance_id: NETGATE_ID },
    target_fingerprint: c.target_fingerprint,
    intent_digest: c.intent_digest,
  });
}

/** What the signer's review showed and recomputed: the appliance and the contract's digests. */
function expectReviewShowsContract(review: Record<string, unknown>, contractId: string): void {
  const c = world.store.load(contractId);
  expect(review.appliance).toMatchObject({ tls_mode: TLS_MODE, appliance_id: NETGATE_ID });
  expect(review.digests).toMatchObject({ target_fingerprint: c.target_fingerprint, intent: c.intent_digest });
}

describe('reconciliation end to end', () => {
  it('response lost after apply → operator signs APPLIED (CLI) → VERIFIED, zero sends while reconciling', async () => {
    const { contractId, requestFile } = await lostForward('drop-response-after-apply');
    expect((await aliasNow(sim, 'LAN_SERVERS'))?.descr).toBe(input.description);
    const sendsBefore = sends();
    const patchesBefore = patchCount(sim);
    const signed = reviewAndSign(ring, 'reconciliation', join(world.outbox, requestFile), world.inbox, 'APPLIED');
    expect(signed.json?.kind).toBe('pfsense-mcp/reconciliation');
    expectReviewShowsContract(signed.review, contractId);

    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r).toEqual({ status: OperationStatus.VERIFIED, operationId: r.operationId, contractId, pendingRequest: null });
    const c = world.store.load(contractId);
    expect(c.state).toBe(RecoveryState.VERIFIED);
    expect(world.store.holdsReservation(contractId)).toBe(false);
    expect(sends()).toBe(sendsBefore);
    expect(patchCount(sim)).toBe(patchesBefore);
    expect(nonGetReads()).toBe(0);
    // asked again: verified, nothing sent
    expect((await world.driver.requestChange('ALIAS_WRITE', input)).status).toBe(OperationStatus.VERIFIED);
    expect(sends()).toBe(sendsBefore);
    // the same evidence offered again is refused: it is bound to the RECONCILIATION state version
    const version = c.state_version;
    expect(() => world.gatekeeper.resumeReconciliation(parseArtifact(readFileSync(signed.file)))).toThrow(CoordinatorRefusalError);
    expect(world.store.load(contractId).state_version).toBe(version);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'RECONCILIATION', contractId });
    // and the resolved contract can be rolled back as usual
    expect((await world.driver.rollback(contractId)).state).toBe(RecoveryState.ROLLED_BACK);
    expect((await aliasNow(sim, 'LAN_SERVERS'))?.descr).toBe('Servers');
  });

  it('connection lost before apply → operator signs NOT_APPLIED (CLI) → FAILED (closed), zero sends', async () => {
    const { contractId, requestFile } = await lostForward('reset-before-apply');
    expect((await aliasNow(sim, 'LAN_SERVERS'))?.descr).toBe('Servers');
    const sendsBefore = sends();
    reviewAndSign(ring, 'reconciliation', join(world.outbox, requestFile), world.inbox, 'NOT_APPLIED');
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r).toEqual(REFUSED);
    expect(world.store.load(contractId).state).toBe(RecoveryState.FAILED);
    expect(world.store.holdsReservation(contractId)).toBe(false);
    expect(sends()).toBe(sendsBefore);
    expect(nonGetReads()).toBe(0);
    // FAILED is closed without effect: asking again starts a new attempt
    const again = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(again.status).toBe(OperationStatus.REQUESTED);
    expect(sends()).toBe(sendsBefore);
  });
});

describe('ROLLBACK_FAILED release', () => {
  it('a rollback refused because the target changed → ROLLBACK_FAILED (reservation held) → signed release (CLI) → released', async () => {
    await confirmedInInbox();
    const r3 = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r3.status).toBe(OperationStatus.VERIFIED);
    const contractId = r3.contractId as string;
    // someone edits the alias after the change: the rollback must not overwrite it
    await adminSetDescription(sim, 0, 'edited by someone else');
    const patchesBefore = patchCount(sim);
    const rolled = await world.driver.rollback(contractId);
    expect(rolled.state).toBe(RecoveryState.ROLLBACK_FAILED);
    expect(patchCount(sim)).toBe(patchesBefore);
    expect(world.store.holdsReservation(contractId)).toBe(true);

    const r4 = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r4).toMatchObject({ status: OperationStatus.RECONCILIATION_REQUIRED, contractId });
    const releaseRequest = r4.pendingRequest?.file as string;
    expect(releaseRequest).toMatch(/^release-request\./);
    expectBoundToContract(readOutbox(world, releaseRequest).payload, contractId);
    const sendsBefore = sends();
    const signed = reviewAndSign(ring, 'reconciliation', join(world.outbox, releaseRequest), world.inbox);
    expectReviewShowsContract(signed.review, contractId);
    const r5 = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r5).toEqual(REFUSED);
    const c = world.store.load(contractId);
    expect(c.state).toBe(RecoveryState.ROLLBACK_FAILED);
    expect(c.reservation_release).not.toBeNull();
    expect(world.store.holdsReservation(contractId)).toBe(false);
    expect(sends()).toBe(sendsBefore);
    expect((await aliasNow(sim, 'LAN_SERVERS'))?.descr).toBe('edited by someone else');
  });
});
