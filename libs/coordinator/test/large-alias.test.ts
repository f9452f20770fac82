// Aliases as large as pfSense keeps them: a 20,000-member alias at the authorization library's byte bound
// goes request → review/sign (the REAL signer CLI) → PREPARED → confirm → VERIFIED against the simulator,
// through the same read path the product uses; one member more, or more bytes, is refused before anything
// is written, with a value-free refusal row in the store's chained audit.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALIAS_MEMBERS, MAX_ALIAS_STATE_BYTES, MAX_ARTIFACT_BYTES } from '@pfsense-mcp/authorization';
import { canonicalBytes } from '@pfsense-mcp/canonical';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { DEFAULT_MAX_RESPONSE_BYTES } from '@pfsense-mcp/transports';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { OperationStatus } from '../src/index.js';
import { assertSignerBuilt, operatorKeyring, reviewAndSign, runSigner } from './support/signer-cli.js';
import type { OperatorKeyring } from './support/signer-cli.js';
import { ALIASES, ALIASES_PATH, aliasNow, makeWorld, patchCount, startTestSimulator } from './support/world.js';
import type { World } from './support/world.js';

/** The product's own response cap (8 MiB): the at-bound alias must pass the read path as the product builds it. */
const RESPONSE_CAP = DEFAULT_MAX_RESPONSE_BYTES;

/** A blocklist-like alias: `members` hosts, each detail padded so a member takes `memberBytes` of canonical JSON. */
function bigAlias(name: string, members: number, memberBytes: number) {
  const address = Array.from({ length: members }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  const detail = address.map((a, i) => {
    const base = `Entry added Mon, 01 Dec 2026 12:00:00 +0000 #${i}`;
    // address + detail + 6 bytes of JSON (two pairs of quotes, two commas) per member
    const room = memberBytes - 6 - a.length - base.length;
    return `${base}${room > 0 ? ` ${'x'.repeat(room - 1)}` : ''}`;
  });
  return { name, type: 'host', descr: 'Blocklist', address, detail };
}

const AT_BOUND = bigAlias('BLOCKLIST', MAX_ALIAS_MEMBERS, 200);
const ONE_MORE = bigAlias('BLOCKLIST_PLUS', MAX_ALIAS_MEMBERS + 1, 60);
const TOO_MANY_BYTES = bigAlias('BLOCKLIST_FAT', MAX_ALIAS_MEMBERS, 240);

// Two appliances: one listing the at-bound alias (a page of the listing stays under the product's cap), one
// listing the aliases beyond the bounds.
let sim: RunningSimulator;
let beyond: RunningSimulator;
let ring: OperatorKeyring;
let world: World | undefined;

beforeAll(async () => {
  assertSignerBuilt();
  [ring, sim, beyond] = await Promise.all([
    operatorKeyring(),
    startTestSimulator({ [ALIASES_PATH]: [...ALIASES, AT_BOUND] }),
    startTestSimulator({ [ALIASES_PATH]: [...ALIASES, ONE_MORE, TOO_MANY_BYTES] }),
  ]);
}, 60_000);
afterAll(async () => {
  ring.remove();
  await Promise.all([sim.close(), beyond.close()]);
});
afterEach(() => {
  world?.cleanup();
  world = undefined;
});

describe('an alias of MAX_ALIAS_MEMBERS members at the byte bound', () => {
  it('states its bounds: 20,000 members, 4 MiB per alias state, files of two states plus 128 KiB', () => {
    expect(MAX_ALIAS_MEMBERS).toBeGreaterThanOrEqual(20_000);
    expect(MAX_ARTIFACT_BYTES).toBe(2 * MAX_ALIAS_STATE_BYTES + 128 * 1024);
    // The fixture really is at the bound: within 5 % of the byte limit, and the fat one beyond it.
    const { name, type, descr, address, detail } = AT_BOUND;
    const bytes = canonicalBytes(
      { name, type, descr, address, detail },
      { maxArrayLength: MAX_ALIAS_MEMBERS, maxBytes: 2 * MAX_ALIAS_STATE_BYTES },
    ).length;
    expect(bytes).toBeLessThanOrEqual(MAX_ALIAS_STATE_BYTES);
    expect(bytes).toBeGreaterThan(MAX_ALIAS_STATE_BYTES * 0.95);
  });

  it('goes request → review → sign → PREPARED → confirm → VERIFIED, the members untouched', async () => {
    sim.control.resetData();
    sim.control.resetCounters();
    world = await makeWorld(sim, { keys: ring.keys, maxResponseBytes: RESPONSE_CAP, audit: 'store' });
    const input = { alias_name: 'BLOCKLIST', description: 'Blocklist (reviewed)' };

    const r1 = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r1.status).toBe(OperationStatus.REQUESTED);
    const requestFile = join(world.outbox, r1.pendingRequest?.file as string);

    // The operator's review stays readable: a count and a digest, not 20,000 lines; --members lists them all.
    const shown = runSigner(['review', requestFile, '--server-key', ring.files['server-request'].pub]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/^ {2}members {7}20000 {3}\(too many to list here: --members lists them\)$/m);
    expect(shown.stdout).toMatch(/^ {2}member digest [0-9a-f]{16}…$/m);
    expect(shown.stdout.split('\n').length).toBeLessThan(45);
    for (const row of shown.stdout.split('\n')) expect([...row].length).toBeLessThanOrEqual(80);
    const listed = runSigner(['review', requestFile, '--server-key', ring.files['server-request'].pub, '--members']);
    expect(listed.status).toBe(0);
    const memberRows = listed.stdout.split('\n').filter((row) => /^ {4}#\d+ /.test(row));
    expect(memberRows).toHaveLength(MAX_ALIAS_MEMBERS);
    expect(memberRows[0]).toContain(`"${AT_BOUND.address[0]}"`);
    expect(memberRows[MAX_ALIAS_MEMBERS - 1]).toContain(`#${MAX_ALIAS_MEMBERS}`);

    const signedAuth = reviewAndSign(ring, 'plan-authorization', requestFile, world.inbox);
    expect(signedAuth.json?.kind).toBe('pfsense-mcp/plan-authorization');
    const r2 = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r2.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    expect(world.store.load(r2.contractId as string).state).toBe(RecoveryState.PREPARED);

    reviewAndSign(ring, 'confirmation', join(world.outbox, r2.pendingRequest?.file as string), world.inbox);
    const r3 = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r3.status).toBe(OperationStatus.VERIFIED);
    expect(patchCount(sim)).toBe(1);
    const after = await aliasNow(sim, 'BLOCKLIST', RESPONSE_CAP);
    expect(after?.descr).toBe('Blocklist (reviewed)');
    expect(after?.address).toEqual(AT_BOUND.address);
    expect(after?.detail).toEqual(AT_BOUND.detail);
    expect(world.store.listAuditEvents({ limit: 1000 }).filter((e) => e.kind === 'refusal')).toEqual([]);
  }, 120_000);

  it.each([
    ['one member more', ONE_MORE.name],
    ['more bytes than an alias state may have', TOO_MANY_BYTES.name],
  ])(
    'refuses an alias with %s before anything is written, audited STALE / SIZE_LIMIT without a value',
    async (_what, aliasName) => {
      beyond.control.resetData();
      world = await makeWorld(beyond, { keys: ring.keys, maxResponseBytes: 16 * 1024 * 1024, audit: 'store' });
      const r = await world.driver.requestChange('ALIAS_WRITE', { alias_name: aliasName, description: 'Too big to sign' });
      expect(r).toEqual({ status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null });
      expect(readdirSync(world.outbox)).toEqual([]);
      const refusals = world.store.listAuditEvents({ limit: 1000 }).filter((e) => e.kind === 'refusal');
      expect(refusals.map((e) => [e.outcome_class, e.event])).toEqual([['STALE', 'SIZE_LIMIT']]);
      expect(refusals[0]?.operation_id).toMatch(/^op-[0-9a-f]{64}$/);
      expect(world.store.verifyAuditChain()).toEqual({ ok: true });
      const text = JSON.stringify(world.store.listAuditEvents({ limit: 1000 }));
      for (const value of [aliasName, 'Too big to sign', 'Entry added']) expect(text).not.toContain(value);
      expect(world.store.list()).toEqual([]);
    },
    60_000,
  );
});
