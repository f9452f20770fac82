// Black-box: `pfsense-mcp admin rotate server-key` with the BUILT server, the REAL signer and the simulator. A
// request signed before the rotation is still answered after it (the signer checks it against the old public key);
// new requests are signed by the new key; once no recorded file needs the old key, the server no longer accepts it.
import { copyFileSync, existsSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltWriteWorld } from './support/built-write-world.js';
import { runAdmin as admin } from './support/run-admin.js';
import { runSigner as signer } from './support/signer-program.js';

const world = useBuiltWriteWorld([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
]);
const shared = world.sharedHost();

const serve = shared.serve;
/** Closes the server and waits until it has withdrawn its presence file (so the maintenance commands may run). */
const stop = shared.stop;
const call = world.call;

/** The signer's review with the operator key (the approval code) + sign --approve against `serverPub`, then `admin inbox add`. */
function approveWith(serverPub: string, requestFile: string, role: 'plan-authorization' | 'confirmation'): void {
  const review = signer(['review', requestFile, '--server-key', serverPub, '--key', shared.host.keys[role], '--json']);
  expect(review.status, review.stderr).toBe(0);
  const prefix = String((review.json['review'] as Record<string, unknown>)['approve_prefix']);
  const signed = signer([
    'sign',
    requestFile,
    '--key',
    shared.host.keys[role],
    '--server-key',
    serverPub,
    '--out',
    shared.host.signedDir,
    '--approve',
    prefix,
    '--json',
  ]);
  expect(signed.status, signed.stderr).toBe(0);
  const added = admin(['inbox', 'add', '--dir', shared.host.dir, String(signed.json['file']), '--json']);
  expect(added.status, added.stderr).toBe(0);
}

const keyIdOfFile = (file: string): string =>
  String((JSON.parse(readFileSync(file, 'utf8')) as { payload: { key_id: string } }).payload.key_id);
const serverKeys = (): Record<string, unknown>[] =>
  admin(['trust', '--dir', shared.host.dir, '--list', '--json']).json['server_request_keys'] as Record<string, unknown>[];

describe('admin rotate server-key', () => {
  it('an old request is still answered after the rotation, new ones use the new key, and the old key goes once nothing needs it', async () => {
    const lan = { alias_name: 'LAN_SERVERS', description: 'Servers — after rotation' };
    const dmz = { alias_name: 'DMZ_HOSTS', description: 'DMZ — never recorded' };
    const oldPub = join(shared.host.operatorDir, 'old-server-request.pub');
    copyFileSync(shared.host.serverPub, oldPub);

    const s1 = await serve();
    const requested = await call(s1, lan);
    expect(requested.status).toBe('requested');
    const oldRequest = requested.pending_request ?? '';
    // A second old-key request, taken out of the outbox before the rotation (so the rotation does not record it).
    const other = await call(s1, dmz);
    const otherFile = other.pending_request ?? '';
    const otherBytes = readFileSync(otherFile);
    unlinkSync(otherFile);
    await stop(s1);
    const oldKeyId = keyIdOfFile(oldRequest);

    const rotated = admin(['rotate', 'server-key', '--dir', shared.host.dir, '--json']);
    expect(rotated.status, rotated.stderr).toBe(0);
    const newKeyId = String(rotated.json['server_key_id']);
    expect(newKeyId).not.toBe(oldKeyId);
    expect(readFileSync(shared.host.serverPub, 'utf8').trim()).toBe(rotated.json['server_public_key']);
    expect(rotated.json['retired']).toMatchObject({ key_id: oldKeyId, needed_by_files: 1, files: [basename(oldRequest)] });
    expect(readdirSync(join(shared.host.dir, 'keys')).filter((n) => n.endsWith('.new'))).toEqual([]);
    expect(serverKeys()).toEqual([
      { key_id: newKeyId, state: 'current', retired_at: null, needed_by_files: null },
      expect.objectContaining({ key_id: oldKeyId, state: 'retired', needed_by_files: 1, still_needed: true }),
    ]);
    expect(admin(['trust', '--dir', shared.host.dir, '--list']).stdout).toMatch(
      new RegExp(`retired +${oldKeyId} .*still needed by 1 file`),
    );

    // The old request: the signer refuses it under the new key, signs it under the old one; the server accepts it.
    expect(signer(['review', oldRequest, '--server-key', shared.host.serverPub, '--json']).status).not.toBe(0);
    approveWith(oldPub, oldRequest, 'plan-authorization');
    const s2 = await serve();
    const awaiting = await call(s2, lan);
    expect(awaiting.status).toBe('awaiting_confirmation');
    const confirmation = awaiting.pending_request ?? '';
    expect(keyIdOfFile(confirmation)).toBe(newKeyId);
    expect(signer(['review', confirmation, '--server-key', oldPub, '--json']).status).not.toBe(0);
    approveWith(shared.host.serverPub, confirmation, 'confirmation');
    expect((await call(s2, lan)).status).toBe('verified');

    // An old-key file the rotation never recorded: this server (started while the key was needed) still takes it.
    // (Called at once: a fresh call, not one after an idle pause, so no pooled connection to the appliance is stale.)
    writeFileSync(otherFile, otherBytes, { mode: 0o600 });
    expect(await call(s2, dmz)).toMatchObject({ status: 'requested', pending_request: otherFile });
    await stop(s2);

    // The answered old request is cleaned away: no recorded file needs the old key any more (the unrecorded one
    // does not count, though it is still in the outbox).
    expect(admin(['artifacts', 'clean', '--dir', shared.host.dir]).status).toBe(0);
    expect(existsSync(oldRequest)).toBe(false);
    expect(existsSync(otherFile)).toBe(true);
    expect(serverKeys()[1]).toMatchObject({ key_id: oldKeyId, needed_by_files: 0, still_needed: false });
    expect(admin(['trust', '--dir', shared.host.dir, '--list']).stdout).toMatch(new RegExp(`retired +${oldKeyId} .*no longer needed`));

    // …the next start no longer accepts the old key at all.
    const s3 = await serve();
    try {
      const refused = await call(s3, dmz);
      expect(refused.status).toBe('refused');
      expect(refused.pending_request).toBeNull();
    } finally {
      await stop(s3);
    }
  }, 240_000);

  it('a rotation interrupted after its commit point (the key renamed, the .pub not yet) is finished by the next run', () => {
    const dir = join(shared.host.root, 'interrupted');
    expect(admin(['init', '--dir', dir]).status).toBe(0);
    const first = admin(['rotate', 'server-key', '--dir', dir, '--json']);
    expect(first.status, first.stderr).toBe(0);
    // Put DIR back in the state a SIGKILL between the two renames leaves: the new .pub still under its temporary
    // name, the old one in place.
    const pub = join(dir, 'keys', 'server-request.pub');
    const retired = first.json['retired'] as { public_key_file: string };
    renameSync(pub, `${pub}.new`);
    copyFileSync(retired.public_key_file, pub);
    const again = admin(['rotate', 'server-key', '--dir', dir, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ finished_interrupted_rotation: true, server_key_id: first.json['server_key_id'] });
    expect(readFileSync(pub, 'utf8').trim()).toBe(first.json['server_public_key']);
    expect(existsSync(`${pub}.new`)).toBe(false);
    // Nothing left half-done: the next run is an ordinary rotation again.
    const third = admin(['rotate', 'server-key', '--dir', dir, '--json']);
    expect(third.json['server_key_id']).not.toBe(first.json['server_key_id']);
    expect(third.json['retired']).toMatchObject({ key_id: first.json['server_key_id'], needed_by_files: 0 });
  });
});
