// The whole offline chain against the simulator, through the operation driver only (as the MCP tool will
// call it): request → pending authorization → sign (the REAL signer CLI) → PREPARED → pending confirmation →
// sign (CLI) → VERIFIED → rollback, with re-invocation at every step; and a tampered pending request given
// to the signer is refused.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applianceBindingDigest, createApplianceBinding, createPlanAuthorizationV2, planDigestOf } from '@pfsense-mcp/authorization';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { AliasDescriptionAdapter } from '@pfsense-mcp/adapters';
import { CoordinatorInputError, OperationStatus, attemptStepId, operationIdOf, prepareExecutionIntent } from '../src/index.js';
import type { WriteFacade } from '../src/index.js';
import { ring, sim, useCoordinatorWorld, world } from './support/coordinator-suite.js';
import { reviewAndSign, runSigner } from './support/signer-cli.js';
import { ALIASES, HOUR, NETGATE_ID, TLS_MODE, aliasNow, patchCount, putInbox, readOutbox } from './support/world.js';
import type { World } from './support/world.js';

useCoordinatorWorld({ signer: true });

const nonGet = (w: World) => w.reads.calls.filter((c) => c.method !== 'GET').length;

describe('alias description chain', () => {
  it('goes request → sign → PREPARED → confirm → VERIFIED → rollback, resuming at every step', async () => {
    // Through the one interface the write path is held by (what the MCP tools get).
    const facade: WriteFacade = world.driver;
    const input = { alias_name: 'LAN_SERVERS', description: 'Servers (rack 2)' };

    // 1. requested, with a server-signed pending authorization request in the outbox
    const r1 = await facade.requestChange('ALIAS_WRITE', input);
    expect(r1.status).toBe(OperationStatus.REQUESTED);
    expect(r1.operationId).toMatch(/^op-[0-9a-f]{64}$/);
    expect(r1.contractId).toBeNull();
    const authRequest = r1.pendingRequest?.file as string;
    const request = readOutbox(world, authRequest);
    expect(request.kind).toBe('pfsense-mcp/authorization-request');

    // asking again resumes the same operation: same id, same pending file, nothing new written
    const r1b = await facade.requestChange('ALIAS_WRITE', input);
    expect(r1b).toEqual(r1);
    expect(readdirSync(world.outbox)).toEqual([authRequest]);

    // 2. the operator reviews and signs with the signer CLI (its output goes into the server's inbox);
    // the next call creates the PREPARED contract and asks for confirmation
    const signedAuth = reviewAndSign(ring, 'plan-authorization', join(world.outbox, authRequest), world.inbox);
    expect(signedAuth.json?.kind).toBe('pfsense-mcp/plan-authorization');
    const r2 = await facade.requestChange('ALIAS_WRITE', input);
    expect(r2.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    expect(r2.operationId).toBe(r1.operationId);
    const contractId = r2.contractId as string;
    expect(world.store.load(contractId).state).toBe(RecoveryState.PREPARED);
    expect(readOutbox(world, r2.pendingRequest?.file as string).kind).toBe('pfsense-mcp/confirmation-request');
    expect(world.ledger.calls).toBe(1);

    // resuming from the contract's durable state: no second contract, no second consumption
    const r2b = await facade.requestChange('ALIAS_WRITE', input);
    expect(r2b).toEqual(r2);
    expect(world.store.list()).toHaveLength(1);
    expect(world.ledger.calls).toBe(1);
    expect(patchCount(sim)).toBe(0);
    expect(nonGet(world)).toBe(0);

    // 3. the operator confirms with the CLI; the next call hands the contract to the executor: one PATCH, VERIFIED
    const signedConfirmation = reviewAndSign(ring, 'confirmation', join(world.outbox, r2.pendingRequest?.file as string), world.inbox);
    expect(signedConfirmation.json?.kind).toBe('pfsense-mcp/confirmation');
    const r3 = await facade.requestChange('ALIAS_WRITE', input);
    expect(r3).toEqual({ status: OperationStatus.VERIFIED, operationId: r1.operationId, contractId, pendingRequest: null });
    expect(patchCount(sim)).toBe(1);
    expect((await aliasNow(sim, 'LAN_SERVERS'))?.descr).toBe('Servers (rack 2)');

    // asked again after the change: verified (not the no-op refusal), and nothing is sent
    const r3b = await facade.requestChange('ALIAS_WRITE', input);
    expect(r3b.status).toBe(OperationStatus.VERIFIED);
    expect(patchCount(sim)).toBe(1);

    // 4. rollback through the gatekeeper → ROLLED_BACK; the alias is as before
    const rolled = await world.driver.rollback(contractId);
    expect(rolled.state).toBe(RecoveryState.ROLLED_BACK);
    expect(patchCount(sim)).toBe(2);
    expect((await aliasNow(sim, 'LAN_SERVERS'))?.descr).toBe('Servers');

    // asking again after the rollback starts a new attempt (a new plan, a new pending request)
    const r4 = await facade.requestChange('ALIAS_WRITE', input);
    expect(r4.status).toBe(OperationStatus.REQUESTED);
    expect(r4.operationId).toBe(r1.operationId);
    expect(r4.pendingRequest?.file).not.toBe(authRequest);
    expect(world.audit.events()).toEqual([]);
  });

  it('the signer refuses a tampered pending request (exit 4) and signs nothing; the untampered one passes review', async () => {
    const r = await world.driver.requestChange('ALIAS_WRITE', { alias_name: 'DMZ_HOSTS', description: 'DMZ (web only)' });
    const original = join(world.outbox, r.pendingRequest?.file as string);
    const text = readFileSync(original, 'utf8');
    expect(runSigner(['review', original, '--server-key', ring.files['server-request'].pub, '--json']).status).toBe(0);
    // An attacker on the way to the operator edits what the operator will see (the new description).
    const tampered = join(ring.dir, 'tampered-request.json');
    expect(text).toContain('DMZ (web only)');
    writeFileSync(tampered, text.replace('DMZ (web only)', 'DMZ (all open)'), { mode: 0o600, flag: 'wx' });
    const review = runSigner(['review', tampered, '--server-key', ring.files['server-request'].pub, '--json']);
    expect(review.status).toBe(4);
    expect(review.json?.ok).toBe(false);
    expect(review.stdout).not.toContain('all open');
    const sign = runSigner([
      'sign',
      tampered,
      '--key',
      ring.files['plan-authorization'].key,
      '--server-key',
      ring.files['server-request'].pub,
      '--out',
      world.inbox,
      '--approve',
      'yes',
      '--json',
    ]);
    expect(sign.status).toBe(4);
    expect(readdirSync(world.inbox)).toEqual([]);
    expect(world.store.list()).toEqual([]);
  });

  it('accepts an authorization placed in the inbox before the first request, through the same gates', async () => {
    const input = { alias_name: 'WEB_PORTS', description: 'Web' };
    const binding = createApplianceBinding({ baseUrl: sim.url, tlsMode: TLS_MODE, applianceId: NETGATE_ID });
    const bindingDigest = applianceBindingDigest(binding);
    const pre = { id: 1, ...(ALIASES[1] as (typeof ALIASES)[number]) };
    const prepared = prepareExecutionIntent(
      AliasDescriptionAdapter,
      pre as never,
      { operation: 'set_firewall_alias_description_v1', raw_target_hint: { alias_name: 'WEB_PORTS' }, new_description: 'Web' },
      bindingDigest,
    );
    const operationId = operationIdOf(bindingDigest, input);
    const stepId = attemptStepId(AliasDescriptionAdapter.stepPrefix, 1);
    const authorization = createPlanAuthorizationV2(
      {
        planDigest: planDigestOf({ operationId, steps: [{ step_id: stepId, execution_intent_digest: prepared.executionIntentDigest }] }),
        steps: [{ step_id: stepId, execution_intent_digest: prepared.executionIntentDigest }],
        riskClass: 'low',
        // Pre-signed: the operator names this server's request key (its server-request.pub).
        requestKeyId: world.keys.server.keyId,
        issuedAt: world.clock.now,
        expiresAt: world.clock.now + HOUR,
      },
      world.keys.authorization,
    );
    putInbox(world, 'pre-signed.json', authorization);
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    expect(r.operationId).toBe(operationId);
    // no authorization request was needed: only the confirmation request is in the outbox
    expect(readdirSync(world.outbox)).toEqual([r.pendingRequest?.file]);
    expect(world.store.load(r.contractId as string).provenance.authorization_id).toBe(
      authorization.kind === 'pfsense-mcp/plan-authorization' ? authorization.payload.authorization_id : '',
    );
  });

  it('refuses a no-op and names the argument of invalid input; an unknown alias is an input error', async () => {
    const noop = await world.driver.requestChange('ALIAS_WRITE', { alias_name: 'LAN_SERVERS', description: 'Servers' });
    expect(noop.status).toBe(OperationStatus.REFUSED);
    const cases: [Record<string, unknown>, string][] = [
      [{ alias_name: 'LAN_SERVERS', description: 'x'.repeat(1025) }, 'description'],
      [{ alias_name: 'LAN_SERVERS', description: 'bell\u0007' }, 'description'],
      [{ alias_name: 'LAN SERVERS', description: 'ok' }, 'alias_name'],
      [{ alias_name: 42, description: 'ok' }, 'alias_name'],
      [{ alias_name: 'LAN_SERVERS', description: 'ok', extra: 1 }, 'input'],
    ];
    for (const [input, argument] of cases) {
      const error = await world.driver.requestChange('ALIAS_WRITE', input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CoordinatorInputError);
      expect((error as CoordinatorInputError).argument).toBe(argument);
      expect((error as Error).message).not.toContain('bell');
    }
    const unknown = await world.driver
      .requestChange('ALIAS_WRITE', { alias_name: 'NO_SUCH_ALIAS', description: 'x' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(CoordinatorInputError);
    expect((unknown as CoordinatorInputError).argument).toBe('alias_name');
    expect((unknown as CoordinatorInputError).code).toBe('UNKNOWN_TARGET');
    expect(readdirSync(world.outbox)).toEqual([]);
    expect(nonGet(world)).toBe(0);
  });
});
