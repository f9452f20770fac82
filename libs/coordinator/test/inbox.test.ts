// Inbox/outbox file rules (the burned-authorization crash window is in processes.test.ts, with a real SIGKILL).
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ARTIFACT_BYTES } from '@pfsense-mcp/authorization';
import { OperationDriver, ArtifactDirectory, ArtifactFileError, OperationStatus } from '../src/index.js';
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

describe('inbox discovery fails closed', () => {
  async function pendingAndAuthorization() {
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.REQUESTED);
    return { file: r.pendingRequest?.file as string, authz: signAuthorization(world, r.pendingRequest?.file as string) };
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

  it('refuses an unsafe-mode inbox file', async () => {
    const { authz } = await pendingAndAuthorization();
    putInbox(world, 'loose.json', authz, 0o644);
    await expectRefusedAndUntouched(['loose.json']);
  });

  it('refuses a symlinked inbox file', async () => {
    const { authz } = await pendingAndAuthorization();
    const elsewhere = join(world.dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify(authz), { mode: 0o600 });
    putInbox(world, 'real.json', authz);
    symlinkSync(join(world.inbox, 'real.json'), join(world.inbox, 'link.json'));
    await expectRefusedAndUntouched(['real.json', 'link.json']);
  });

  it.skipIf(!isRoot)('refuses a wrongly-owned inbox file (root: a real chown)', async () => {
    const { authz } = await pendingAndAuthorization();
    const path = putInbox(world, 'theirs.json', authz);
    chownSync(path, 4242, 4242);
    await expectRefusedAndUntouched(['theirs.json']);
  });

  it('refuses a wrongly-owned inbox file (any user: the test-only owner seam expects another uid for files)', async () => {
    const { authz } = await pendingAndAuthorization();
    putInbox(world, 'theirs.json', authz);
    const uid = process.getuid?.() ?? -1;
    const driver = new OperationDriver({
      ...world.driverOptions,
      inboxDirectory: ArtifactDirectory.open(world.inbox, { ownerUid: (entry) => (entry === 'file' ? uid + 1 : uid) }),
    });
    const r = await driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.REFUSED);
    expect(world.ledger.calls).toBe(0);
    expect(world.store.list()).toEqual([]);
    expect(existsSync(join(world.inbox, 'theirs.json'))).toBe(true);
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

  it('refuses a *.json name that is not a safe lowercase artifact name (fails the scan, not skipped)', async () => {
    const { authz } = await pendingAndAuthorization();
    putInbox(world, 'Upper.json', authz);
    await expectRefusedAndUntouched(['Upper.json']);
  });

  it('refuses a malformed inbox file; once the operator removes it the signed authorization is accepted', async () => {
    const { authz } = await pendingAndAuthorization();
    putInbox(world, 'good.json', authz);
    writeFileSync(join(world.inbox, 'junk.json'), '{"kind":"pfsense-mcp/plan-authorization"', { mode: 0o600 });
    await expectRefusedAndUntouched(['good.json', 'junk.json']);
    const { unlinkSync } = await import('node:fs');
    unlinkSync(join(world.inbox, 'junk.json')); // the explicit operator action
    const r = await world.driver.requestChange('ALIAS_WRITE', input);
    expect(r.status).toBe(OperationStatus.AWAITING_CONFIRMATION);
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
