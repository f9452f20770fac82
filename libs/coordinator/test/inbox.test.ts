// Inbox/outbox file rules (the burned-authorization crash window is in processes.test.ts, with a real SIGKILL).
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ARTIFACT_BYTES } from '@pfsense-mcp/authorization';
import type { PlanAuthorizationV2 } from '@pfsense-mcp/authorization';
import { OperationDriver, ArtifactDirectory, ArtifactFileError, OperationStatus, inboxArtifactName } from '../src/index.js';
import { useCoordinatorWorld, world } from './support/coordinator-suite.js';
import { putInbox, signAuthorization } from './support/world.js';

useCoordinatorWorld();
const input = { alias_name: 'LAN_SERVERS', description: 'Servers (inbox)' };

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('ArtifactDirectory', () => {
  it('creates the directory 0700, writes 0600 by exclusive creation and never overwrites', () => {
    const path = join(world.dir, 'box');
    const dir = ArtifactDirectory.open(path);
    expect(lstatSync(path).mode & 0o777).toBe(0o700);
    dir.write('a.json', '{"x":1}');
    expect(lstatSync(join(path, 'a.json')).mode & 0o777).toBe(0o600);
    const error = (() => {
      try {
        dir.write('a.json', '{"x":2}');
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ArtifactFileError);
    expect((error as ArtifactFileError).code).toBe('EXISTS');
    expect(readFileSync(join(path, 'a.json'), 'utf8')).toBe('{"x":1}');
    expect(readdirSync(path)).toEqual(['a.json']); // no temp file left behind
  });

  it('refuses an unsafe directory mode and a symlinked directory', () => {
    const loose = join(world.dir, 'loose');
    mkdirSync(loose, { mode: 0o755 });
    chmodSync(loose, 0o755);
    expect(() => ArtifactDirectory.open(loose)).toThrow(expect.objectContaining({ code: 'UNSAFE_MODE' }));
    const link = join(world.dir, 'link');
    symlinkSync(world.inbox, link);
    expect(() => ArtifactDirectory.open(link)).toThrow(expect.objectContaining({ code: 'SYMLINK' }));
  });

  it('refuses to read a symlink, an unsafe mode, a wrong owner and an oversized file', () => {
    const dir = ArtifactDirectory.open(join(world.dir, 'box'));
    dir.write('ok.json', '{}');
    symlinkSync(join(dir.path, 'ok.json'), join(dir.path, 'link.json'));
    expect(() => dir.read('link.json')).toThrow(expect.objectContaining({ code: 'SYMLINK' }));
    writeFileSync(join(dir.path, 'open.json'), '{}', { mode: 0o644 });
    chmodSync(join(dir.path, 'open.json'), 0o644);
    expect(() => dir.read('open.json')).toThrow(expect.objectContaining({ code: 'UNSAFE_MODE' }));
    writeFileSync(join(dir.path, 'big.json'), 'x'.repeat(MAX_ARTIFACT_BYTES + 1), { mode: 0o600 });
    expect(() => dir.read('big.json')).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
    if (isRoot) {
      writeFileSync(join(dir.path, 'theirs.json'), '{}', { mode: 0o600 });
      chownSync(join(dir.path, 'theirs.json'), 4242, 4242);
      expect(() => dir.read('theirs.json')).toThrow(expect.objectContaining({ code: 'WRONG_OWNER' }));
    }
  });

  it('refuses a wrongly-owned file and directory for any user (test-only owner seam)', () => {
    const uid = process.getuid?.() ?? -1;
    const path = join(world.dir, 'box');
    ArtifactDirectory.open(path).write('ok.json', '{}');
    const filesElsewhere = ArtifactDirectory.open(path, { ownerUid: (entry) => (entry === 'file' ? uid + 1 : uid) });
    expect(() => filesElsewhere.read('ok.json')).toThrow(expect.objectContaining({ code: 'WRONG_OWNER', fileName: 'ok.json' }));
    expect(() => ArtifactDirectory.open(path, { ownerUid: () => uid + 1 })).toThrow(
      expect.objectContaining({ code: 'WRONG_OWNER', fileName: '' }),
    );
    expect(ArtifactDirectory.open(path).read('ok.json')).toEqual(new TextEncoder().encode('{}'));
  });
});

describe('inbox discovery fails closed for the calls a file concerns', () => {
  async function pendingAndAuthorization() {
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.REQUESTED);
    const authz = signAuthorization(world, r.pendingRequest?.file as string);
    // The canonical inbox name (what `admin inbox add` writes): it says which calls the file concerns.
    return { file: r.pendingRequest?.file as string, authz, name: inboxArtifactName(authz) as string };
  }

  async function expectRefusedAndUntouched(names: readonly string[]) {
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.REFUSED);
    expect(world.ledger.calls).toBe(0);
    expect(world.store.list()).toEqual([]);
    for (const n of names) expect(existsSync(join(world.inbox, n)) || lstatSync(join(world.inbox, n)).isSymbolicLink()).toBe(true);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'INBOX' });
  }

  it('refuses a duplicate authorization (two copies) and deletes neither', async () => {
    const { authz } = await pendingAndAuthorization();
    putInbox(world, 'one.json', authz);
    putInbox(world, 'two.json', authz);
    await expectRefusedAndUntouched(['one.json', 'two.json']);
  });

  it('refuses an unsafe-mode inbox file whose name concerns the call', async () => {
    const { authz, name } = await pendingAndAuthorization();
    putInbox(world, name, authz, 0o644);
    await expectRefusedAndUntouched([name]);
  });

  it('refuses a symlinked inbox file whose name concerns the call', async () => {
    const { authz, name } = await pendingAndAuthorization();
    const elsewhere = join(world.dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify(authz), { mode: 0o600 });
    putInbox(world, 'real.json', authz);
    symlinkSync(join(world.inbox, 'real.json'), join(world.inbox, name));
    await expectRefusedAndUntouched(['real.json', name]);
  });

  it.skipIf(!isRoot)('refuses a wrongly-owned inbox file (root: a real chown)', async () => {
    const { authz, name } = await pendingAndAuthorization();
    const path = putInbox(world, name, authz);
    chownSync(path, 4242, 4242);
    await expectRefusedAndUntouched([name]);
  });

  it('refuses a wrongly-owned inbox file (any user: the test-only owner seam expects another uid for files)', async () => {
    const { authz, name } = await pendingAndAuthorization();
    putInbox(world, name, authz);
    const uid = process.getuid?.() ?? -1;
    const driver = new OperationDriver({
      ...world.driverOptions,
      inboxDirectory: ArtifactDirectory.open(world.inbox, { ownerUid: (entry) => (entry === 'file' ? uid + 1 : uid) }),
    });
    const r = await driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.REFUSED);
    expect(world.ledger.calls).toBe(0);
    expect(world.store.list()).toEqual([]);
    expect(existsSync(join(world.inbox, name))).toBe(true);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'INBOX' });
    // the same file, owned as expected, is accepted (so it was the owner that refused it)
    expect((await world.driver.requestChange('ALIAS_WRITE', input)).status).toBe(OperationStatus.AWAITING_CONFIRMATION);
  });

  it('ignores names that are not *.json — never reads or deletes them — and still accepts the signed authorization', async () => {
    const { authz } = await pendingAndAuthorization();
    putInbox(world, 'good.json', authz);
    const others = ['README.txt', 'notes', 'good.json.bak', 'COPY.JSON', '.hidden.json'];
    for (const n of others) writeFileSync(join(world.inbox, n), 'not an artifact', { mode: 0o644 });
    mkdirSync(join(world.inbox, 'old'));
    expect(ArtifactDirectory.open(world.inbox).list()).toEqual(['good.json']);
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    for (const n of [...others, 'old', 'good.json']) expect(existsSync(join(world.inbox, n))).toBe(true);
  });

  it('refuses a malformed inbox file whose name concerns the call; once the operator removes it the signed authorization is accepted', async () => {
    const { authz, name } = await pendingAndAuthorization();
    putInbox(world, 'good.json', authz);
    writeFileSync(join(world.inbox, name), '{"kind":"pfsense-mcp/plan-authorization"', { mode: 0o600 });
    await expectRefusedAndUntouched(['good.json', name]);
    const { unlinkSync } = await import('node:fs');
    unlinkSync(join(world.inbox, name)); // the explicit operator action
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
  });

  it('a file whose canonical name says another plan than its content is refused for the calls either concerns', async () => {
    const { authz } = await pendingAndAuthorization();
    putInbox(world, `plan-authorization.${'0'.repeat(16)}.json`, authz);
    await expectRefusedAndUntouched([`plan-authorization.${'0'.repeat(16)}.json`]);
  });

  it('refuses an authorization signed by the wrong role found in the inbox (full verification, not discovery)', async () => {
    const { file } = await pendingAndAuthorization();
    putInbox(world, 'wrong.json', signAuthorization(world, file, world.keys.confirmation));
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.REFUSED);
    expect(world.ledger.calls).toBe(0);
    expect(world.audit.events().at(-1)).toMatchObject({ refusalClass: 'ANOMALY', gate: 'SIGNATURE' });
  });
});

describe('dead or unsafe inbox files refuse only the calls their names could concern', () => {
  const otherPlan = `plan-authorization.${'f'.repeat(16)}.json`;
  const otherContract = 'confirmation.ctr-00000000000000000000000000000000.json';

  it('unsafe files named for another plan or contract, and unsafe or malformed files whose names are not canonical, never refuse this call', async () => {
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.REQUESTED);
    const authz = signAuthorization(world, r.pendingRequest?.file as string);
    // Canonical names for other work: a symlink, a FIFO-like directory, a loose mode.
    symlinkSync(join(world.dir, 'nowhere'), join(world.inbox, otherPlan));
    mkdirSync(join(world.inbox, otherContract));
    // Names that are not canonical: they concern no call (an upper-case name, a loose mode, a malformed file).
    putInbox(world, 'Upper.json', authz);
    putInbox(world, 'loose.json', authz, 0o644);
    writeFileSync(join(world.inbox, 'junk.json'), '{"kind":', { mode: 0o600 });
    // Before the signature is installed the call still answers `requested`; the ignored copies grant nothing.
    expect((await world.driver.requestChange('ALIAS_WRITE', input)).status).toBe(OperationStatus.REQUESTED);
    putInbox(world, inboxArtifactName(authz) as string, authz);
    const ok = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(ok.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
    expect(world.audit.events().filter((e) => e.gate === 'INBOX')).toEqual([]);
    for (const n of [otherPlan, otherContract, 'Upper.json', 'loose.json', 'junk.json']) expect(readdirSync(world.inbox)).toContain(n);
  });

  it('a signed authorization that expired in the inbox no longer pins its operation: the next call asks again', async () => {
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    const authz = signAuthorization(world, r.pendingRequest?.file as string);
    const name = inboxArtifactName(authz) as string;
    putInbox(world, name, authz);
    world.clock.now = (authz as PlanAuthorizationV2).payload.expires_at + 1;
    const again = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(again.status).toBe(OperationStatus.REQUESTED);
    expect(again.pendingRequest).not.toBe(r.pendingRequest);
    expect(world.audit.events()).toEqual([]);
    expect(readdirSync(world.inbox)).toEqual([name]);
  });
});
