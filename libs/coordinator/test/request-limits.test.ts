// Request limits before anything is written, and leftovers that can never stop the write: the outbox is
// scanned by name (other operations' and expired requests are never opened), the inbox through a cache
// keyed by name + inode + mtime + size, and a relevant malformed, forged or unsafe file still fails closed.
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeArtifact } from '@pfsense-mcp/authorization';
import { OperationStatus, WRITE_REQUEST_LIMITS, authorizationRequestName, parseAuthorizationRequestName } from '../src/index.js';
import { useCoordinatorWorld, world } from './support/coordinator-suite.js';
import { HOUR, putInbox, signAuthorization } from './support/world.js';

useCoordinatorWorld();

const ask = (aliasName: string, description: string) => world.driver.requestChange('ALIAS_WRITE', { alias_name: aliasName, description });
const refusals = () => world.audit.events().map((e) => `${e.refusalClass}/${e.gate}`);
const outbox = () => readdirSync(world.outbox).sort();
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** A file named like an unexpired request of another alias, with content that would fail if it were ever opened. */
function plantForeignRequest(i: number, expiresAt: number): string {
  const name = authorizationRequestName({ aliasKey: `f${hex(i, 15)}`, operationId: `op-${hex(i, 64)}`, planPrefix: hex(i, 16), expiresAt });
  writeFileSync(join(world.outbox, name), 'not an artifact', { mode: 0o600 });
  return name;
}

describe('request limits', () => {
  it('numbers in one place', () => {
    expect(WRITE_REQUEST_LIMITS).toEqual({ perAlias: 3, outbox: 1_000, leftoverWarningFiles: 500 });
    expect(Object.isFrozen(WRITE_REQUEST_LIMITS)).toBe(true);
  });

  it('at most 3 outstanding requests per alias: the 4th is refused (STALE/REQUEST_LIMIT), nothing written; asking again for one of the 3 still answers it', async () => {
    const first = await ask('LAN_SERVERS', 'd1');
    await ask('LAN_SERVERS', 'd2');
    await ask('LAN_SERVERS', 'd3');
    expect(outbox()).toHaveLength(3);
    const fourth = await ask('LAN_SERVERS', 'd4');
    expect(fourth).toEqual({ status: OperationStatus.REFUSED, operationId: null, contractId: null, pendingRequest: null });
    expect(outbox()).toHaveLength(3);
    expect(refusals()).toEqual(['STALE/REQUEST_LIMIT']);
    expect(world.audit.events()[0]?.operationId).toMatch(/^op-[0-9a-f]{64}$/);
    // The same arguments resume their own request: not a new one, not refused.
    expect(await ask('LAN_SERVERS', 'd1')).toEqual(first);
    // Another alias has its own allowance.
    expect((await ask('WEB_PORTS', 'w1')).status).toBe(OperationStatus.REQUESTED);
    expect(outbox()).toHaveLength(4);
    // Names say which alias (a digest key, never the name) and when the request expires.
    const parts = outbox().map((n) => parseAuthorizationRequestName(n));
    expect(parts.every((p) => p !== null)).toBe(true);
    expect(new Set(parts.map((p) => p?.aliasKey)).size).toBe(2);
    expect(outbox().join(' ')).not.toMatch(/LAN_SERVERS|WEB_PORTS/);
  });

  it('expired requests no longer count, and are never deleted', async () => {
    await ask('LAN_SERVERS', 'd1');
    await ask('LAN_SERVERS', 'd2');
    await ask('LAN_SERVERS', 'd3');
    expect((await ask('LAN_SERVERS', 'd4')).status).toBe(OperationStatus.REFUSED);
    world.clock.now += HOUR + 1;
    expect((await ask('LAN_SERVERS', 'd4')).status).toBe(OperationStatus.REQUESTED);
    expect(outbox()).toHaveLength(4);
  });

  it('answered requests no longer count: a signed authorization that made a contract frees its slot', async () => {
    const r1 = await ask('LAN_SERVERS', 'd1');
    await ask('LAN_SERVERS', 'd2');
    await ask('LAN_SERVERS', 'd3');
    expect((await ask('LAN_SERVERS', 'd4')).status).toBe(OperationStatus.REFUSED);
    putInbox(world, 'authorization-1.json', signAuthorization(world, r1.pendingRequest?.file as string));
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    expect((await ask('LAN_SERVERS', 'd4')).status).toBe(OperationStatus.REQUESTED);
  });

  it('the per-alias limit is the one that bites: 3 requests on each of 34 other aliases (the junk of one caller) never refuse this alias', async () => {
    const now = world.clock.now;
    for (let alias = 0; alias < 34; alias += 1) {
      for (let k = 0; k < WRITE_REQUEST_LIMITS.perAlias; k += 1) {
        const name = authorizationRequestName({
          aliasKey: `e${hex(alias, 15)}`,
          operationId: `op-${hex(alias * 16 + k, 64)}`,
          planPrefix: hex(alias * 16 + k, 16),
          expiresAt: now + HOUR,
        });
        writeFileSync(join(world.outbox, name), 'not an artifact', { mode: 0o600 });
      }
    }
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REQUESTED);
    expect(refusals()).toEqual([]);
    expect(WRITE_REQUEST_LIMITS.outbox).toBeGreaterThanOrEqual(100 * WRITE_REQUEST_LIMITS.perAlias);
  });

  it("at most 1,000 outstanding requests in the whole outbox; other aliases' requests are counted by name, never opened", async () => {
    const now = world.clock.now;
    for (let i = 0; i < WRITE_REQUEST_LIMITS.outbox; i += 1) plantForeignRequest(i, now + HOUR);
    // Opening any of them would be ANOMALY/OUTBOX: the refusal is the limit, so none was opened.
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REFUSED);
    expect(refusals()).toEqual(['STALE/REQUEST_LIMIT']);
    expect(outbox()).toHaveLength(WRITE_REQUEST_LIMITS.outbox);
  });

  it('1,100 leftovers (expired requests and other names) never stop the write; one below the limit passes', async () => {
    const now = world.clock.now;
    for (let i = 0; i < WRITE_REQUEST_LIMITS.outbox - 1; i += 1) plantForeignRequest(i, now + HOUR);
    for (let i = 1000; i < 1100; i += 1) plantForeignRequest(i, now - 1);
    for (let i = 0; i < 1000; i += 1)
      writeFileSync(join(world.outbox, `confirmation-request.ctr-${hex(i, 32)}.json`), 'never opened', { mode: 0o600 });
    const r = await ask('LAN_SERVERS', 'd1');
    expect(r.status).toBe(OperationStatus.REQUESTED);
    expect(refusals()).toEqual([]);
    const files = 1 + (WRITE_REQUEST_LIMITS.outbox - 1) + 100 + 1000;
    expect(outbox()).toHaveLength(files);
    expect(world.driver.artifactCounts()).toEqual({ inboxFiles: 0, outboxFiles: files, pileUp: true });
  });
});

describe('a relevant file still fails closed', () => {
  it("this alias's outstanding request that is not the server's own (malformed) → ANOMALY/OUTBOX", async () => {
    const r1 = await ask('LAN_SERVERS', 'd1');
    const parts = parseAuthorizationRequestName(r1.pendingRequest?.file as string);
    if (parts === null) throw new Error('unexpected name');
    const forged = authorizationRequestName({ ...parts, operationId: `op-${'e'.repeat(64)}` });
    writeFileSync(join(world.outbox, forged), 'not an artifact', { mode: 0o600 });
    expect((await ask('LAN_SERVERS', 'd2')).status).toBe(OperationStatus.REFUSED);
    expect(refusals()).toEqual(['ANOMALY/OUTBOX']);
  });

  it("this plan's request wrongly signed → ANOMALY/OUTBOX, never reused", async () => {
    const r1 = await ask('LAN_SERVERS', 'd1');
    const path = join(world.outbox, r1.pendingRequest?.file as string);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { proof: { signature: string } };
    const sig = doc.proof.signature;
    doc.proof.signature = `${sig[0] === '0' ? '1' : '0'}${sig.slice(1)}`;
    chmodSync(path, 0o600);
    writeFileSync(path, JSON.stringify(doc));
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REFUSED);
    expect(refusals()).toEqual(['ANOMALY/OUTBOX']);
  });

  it("this alias's request with an unsafe mode → ANOMALY/OUTBOX", async () => {
    const r1 = await ask('LAN_SERVERS', 'd1');
    chmodSync(join(world.outbox, r1.pendingRequest?.file as string), 0o644);
    expect((await ask('LAN_SERVERS', 'd2')).status).toBe(OperationStatus.REFUSED);
    expect(refusals()).toEqual(['ANOMALY/OUTBOX']);
  });
});

describe('inbox leftovers', () => {
  it("1,001 inbox leftovers (another operation's signed authorization) never stop the write, even unsafe or broken; a file named for the call that changed is re-read and fails closed", async () => {
    const other = await ask('WEB_PORTS', 'w1');
    const leftover = signAuthorization(world, other.pendingRequest?.file as string);
    for (let i = 0; i < 1001; i += 1) putInbox(world, `leftover-${hex(i, 4)}.json`, leftover);
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REQUESTED);
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REQUESTED);
    expect(refusals()).toEqual([]);
    // A leftover made unsafe or broken under a name that is not canonical concerns no call: still never stops it.
    chmodSync(join(world.inbox, 'leftover-0008.json'), 0o640);
    writeFileSync(join(world.inbox, 'leftover-0007.json'), '{"kind":"broken"}');
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REQUESTED);
    expect(refusals()).toEqual([]);
    // Under this call's canonical name, another content is refused; a changed file is re-read (the cache key
    // changed) and fails closed; a mode change alone (same content, same mtime) is seen too.
    const mine = await ask('LAN_SERVERS', 'd1');
    const path = join(
      world.inbox,
      `plan-authorization.${parseAuthorizationRequestName(mine.pendingRequest?.file as string)?.planPrefix}.json`,
    );
    writeFileSync(path, readFileSync(join(world.inbox, 'leftover-0009.json')), { mode: 0o600 });
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REFUSED);
    expect(refusals()).toEqual(['ANOMALY/INBOX']);
    writeFileSync(path, '{"kind":"broken"}');
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REFUSED);
    expect(refusals()).toEqual(['ANOMALY/INBOX', 'ANOMALY/INBOX']);
    writeFileSync(path, encodeArtifact(signAuthorization(world, mine.pendingRequest?.file as string)));
    chmodSync(path, 0o640);
    expect((await ask('LAN_SERVERS', 'd1')).status).toBe(OperationStatus.REFUSED);
    expect(refusals()).toEqual(['ANOMALY/INBOX', 'ANOMALY/INBOX', 'ANOMALY/INBOX']);
  });
});
