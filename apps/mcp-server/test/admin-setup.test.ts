// Black-box tests of `pfsense-mcp admin` host setup through the BUILT program: real processes, real files.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { MAX_ARTIFACT_BYTES, createPlanAuthorizationV2, encodeArtifact } from '@pfsense-mcp/authorization';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { generateEd25519KeyPair, keyIdOf } from '@pfsense-mcp/crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt, serverMain } from './support/built-server.js';
import { runAdmin } from './support/run-admin.js';
import type { ProgramRun as Run } from './support/run-program.js';
import { ensureSignerBuilt, runSigner } from './support/signer-program.js';

// Each test runs many real child processes (the built program, the signer): seconds each on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });
const root = mkdtempSync(join(tmpdir(), 'admin-setup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(async () => {
  ensureBuilt();
  await ensureSignerBuilt();
}, 240_000);

const admin = runAdmin;

let counter = 0;
function fresh(): string {
  counter += 1;
  return join(root, `w${counter}`);
}

function init(dir = fresh(), env: Record<string, string> = {}): string {
  const r = admin(['init', '--dir', dir, '--json'], env);
  expect(r.status, r.stderr).toBe(0);
  return dir;
}

function mode(path: string): number {
  return lstatSync(path).mode & 0o7777;
}

function operatorKey(dirForPub: string, name: string): { privateKey: Uint8Array; publicHex: string; keyId: string; pubFile: string } {
  const { privateKey, publicKey } = generateEd25519KeyPair();
  const publicHex = bytesToHex(publicKey);
  const pubFile = join(dirForPub, `${name}.pub`);
  writeFileSync(pubFile, `${publicHex}\n`, { mode: 0o644 });
  return { privateKey, publicHex, keyId: keyIdOf(publicKey), pubFile };
}

const digestA = 'a'.repeat(64);
/** The server-request key id the authorizations below answer: the write directory's own (setup sets it). */
let answeredKeyId = 'e'.repeat(64);
function planAuthorization(
  key: { privateKey: Uint8Array },
  issuedAt = Date.now(),
  expiresAt = Date.now() + 600_000,
  planDigest = digestA,
): string {
  return encodeArtifact(
    createPlanAuthorizationV2(
      {
        planDigest,
        steps: [{ step_id: 'step-1', execution_intent_digest: 'b'.repeat(64) }],
        riskClass: 'low',
        requestKeyId: answeredKeyId,
        issuedAt,
        expiresAt,
      },
      key,
    ),
  );
}

function expectRefusal(r: Run, code: string | RegExp, exit = 1): void {
  expect(r.status).toBe(exit);
  expect(r.json['ok']).toBe(false);
  const error = r.json['error'] as { code: string; message: string };
  if (typeof code === 'string') expect(error.code).toBe(code);
  else expect(error.code).toMatch(code);
  expect(typeof error.message).toBe('string');
  // One line on stderr naming the command.
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^pfsense-mcp admin/);
}

describe('pfsense-mcp admin --help', () => {
  it('lists the setup commands and exits 0', () => {
    const r = admin(['--help']);
    expect(r.status).toBe(0);
    for (const c of [
      'init --dir DIR',
      'trust --dir DIR --role ROLE --public-key KEY',
      'trust --dir DIR --list',
      'untrust --dir DIR --key-id ID',
      'inbox add --dir DIR FILE',
    ]) {
      expect(r.stdout).toContain(c);
    }
    expect(admin([]).stdout).toContain('inbox add');
  });

  it('the server help mentions admin', () => {
    const r = spawnSync(process.execPath, [serverMain, '--help'], { encoding: 'utf8' });
    expect(r.stdout).toContain('pfsense-mcp admin');
  });

  it('an unknown command or option is a usage error (exit 2), in JSON too', () => {
    expectRefusal(admin(['frobnicate', '--json']), 'USAGE', 2);
    expectRefusal(admin(['init', '--dir', fresh(), '--bogus', '--json']), 'USAGE', 2);
    expectRefusal(admin(['init', '--json']), 'USAGE', 2);
    expectRefusal(admin(['trust', '--dir', fresh(), '--key-id', 'x'.repeat(64), '--json']), 'USAGE', 2);
  });
});

describe('admin init', () => {
  it('lays out DIR owner-only, prints the server key, its .pub file and the client environment', () => {
    const dir = fresh();
    const r = admin(['--json', 'init', '--dir', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, dir });
    const key = r.json['server_public_key'] as string;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dir, 'keys', 'server-request.pub'), 'utf8')).toBe(`${key}\n`);
    expect(r.json['environment']).toEqual({ PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: dir });
    expect(mode(dir)).toBe(0o700);
    for (const d of ['store', 'keys', 'anchors', 'inbox', 'outbox']) expect(mode(join(dir, d)), d).toBe(0o700);
    for (const f of [
      'store/contracts.sqlite',
      'store/consumption.sqlite',
      'keys/master.key',
      'keys/server-request.key',
      'keys/server-request.pub',
      'authorities.json',
    ]) {
      expect(mode(join(dir, f)), f).toBe(0o600);
    }
    for (const f of readdirSync(join(dir, 'anchors'))) expect(mode(join(dir, 'anchors', f))).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'authorities.json'), 'utf8'))).toEqual({ version: 1, authorities: [] });
    expect(readdirSync(join(dir, 'inbox'))).toEqual([]);
    // Nothing secret is printed: not the master key, not the private request key.
    const secret =
      readFileSync(join(dir, 'keys', 'master.key'), 'utf8')
        .split(' ')[1]
        ?.trim() ?? '';
    // The key file's last field is the key (version 2 files record the role before it).
    const privateKey =
      readFileSync(join(dir, 'keys', 'server-request.key'), 'utf8')
        .split(' ')
        .at(-1)
        ?.trim() ?? '';
    expect(privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stdout + r.stderr).not.toContain(privateKey);
  });

  it('readable output names the .pub file and the environment lines', () => {
    const dir = fresh();
    const r = admin(['init', '--dir', dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(join(dir, 'keys', 'server-request.pub'));
    expect(r.stdout).toContain('--server-key');
    expect(r.stdout).toContain(`PFSENSE_WRITE_DIR=${dir}`);
    expect(r.stdout).toContain('PFSENSE_PROFILE=write_protected');
  });

  it('adopts an existing empty directory but refuses a non-empty one and a symlink, naming the path', () => {
    const empty = fresh();
    mkdirSync(empty, { mode: 0o755 });
    init(empty);
    expect(mode(empty)).toBe(0o700);
    const full = fresh();
    mkdirSync(full);
    writeFileSync(join(full, 'note'), 'x');
    const r = admin(['init', '--dir', full, '--json']);
    expectRefusal(r, 'WRITE_DIR_NOT_EMPTY');
    expect((r.json['error'] as { message: string }).message).toContain(full);
    expect(readdirSync(full)).toEqual(['note']);
    const link = fresh();
    symlinkSync(empty, link);
    expectRefusal(admin(['init', '--dir', link, '--json']), 'WRITE_DIR_SYMLINK');
    expectRefusal(admin(['init', '--dir', init(), '--json']), 'WRITE_DIR_NOT_EMPTY');
  });

  it('PFSENSE_WRITE_ANCHOR_DIR puts the anchors elsewhere; a relative one or one already in use is refused', () => {
    const anchors = join(root, `anchors-${counter}`);
    const dir = fresh();
    const r = admin(['init', '--dir', dir, '--json'], { PFSENSE_WRITE_ANCHOR_DIR: anchors });
    expect(r.status, r.stderr).toBe(0);
    expect(r.json['anchor_dir']).toBe(anchors);
    expect((r.json['environment'] as Record<string, string>)['PFSENSE_WRITE_ANCHOR_DIR']).toBe(anchors);
    expect(mode(anchors)).toBe(0o700);
    expect(readdirSync(anchors).sort()).toEqual(['consumption.anchor', 'contracts.anchor']);
    expect(readdirSync(join(dir, 'anchors'))).toEqual([]);
    expectRefusal(admin(['init', '--dir', fresh(), '--json'], { PFSENSE_WRITE_ANCHOR_DIR: anchors }), 'ANCHOR_DIR_IN_USE');
    expectRefusal(admin(['init', '--dir', fresh(), '--json'], { PFSENSE_WRITE_ANCHOR_DIR: 'rel/anchors' }), 'CONFIG');
    // The directory whose anchors are elsewhere is accepted by the other commands with the same variable.
    expect(admin(['trust', '--dir', dir, '--list', '--json'], { PFSENSE_WRITE_ANCHOR_DIR: anchors }).status).toBe(0);
  });
});

describe('every command refuses a DIR that is not owner-only or not laid out by init', () => {
  const commands = (dir: string): string[][] => [
    ['trust', '--dir', dir, '--list', '--json'],
    ['trust', '--dir', dir, '--role', 'confirmation', '--public-key', 'c'.repeat(64), '--json'],
    ['untrust', '--dir', dir, '--key-id', 'd'.repeat(64), '--json'],
    ['inbox', 'add', '--dir', dir, join(root, 'none.json'), '--json'],
  ];

  it('group-readable DIR', () => {
    const dir = init();
    chmodSync(dir, 0o750);
    for (const c of commands(dir)) {
      const r = admin(c);
      expectRefusal(r, 'WRITE_DIR_UNSAFE_MODE');
      expect((r.json['error'] as { message: string }).message).toContain(dir);
    }
  });

  it('a world-readable key file, a symlinked inbox, a missing database, a directory init never made', () => {
    const wide = init();
    chmodSync(join(wide, 'keys', 'master.key'), 0o644);
    for (const c of commands(wide)) expectRefusal(admin(c), 'WRITE_DIR_UNSAFE_MODE');
    const linked = init();
    rmSync(join(linked, 'inbox'), { recursive: true });
    const elsewhere = join(root, `elsewhere-${counter}`);
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(linked, 'inbox'));
    for (const c of commands(linked)) expectRefusal(admin(c), 'WRITE_DIR_SYMLINK');
    const gone = init();
    rmSync(join(gone, 'store', 'consumption.sqlite'));
    for (const c of commands(gone)) expectRefusal(admin(c), 'WRITE_DIR_NOT_FOUND');
    // A folder init never made says first to run init, not the first rule it breaks.
    const bare = fresh();
    mkdirSync(bare, { mode: 0o700 });
    for (const c of commands(bare)) expectRefusal(admin(c), 'WRITE_DIR_NOT_INITIALIZED');
    const made = fresh();
    mkdirSync(made, { mode: 0o755 });
    chmodSync(made, 0o755);
    for (const c of [['status', '--dir', made], ...commands(made)]) {
      const r = admin([...c.filter((a) => a !== '--json')]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`run \`pfsense-mcp admin init --dir ${made}\``);
      expect(r.stderr).not.toContain('0700');
    }
  });

  it.skipIf(process.getuid?.() !== 0)('a file owned by another user (run as root: chown)', () => {
    const dir = init();
    chownSync(join(dir, 'authorities.json'), 4242, 4242);
    for (const c of commands(dir)) expectRefusal(admin(c), 'WRITE_DIR_WRONG_OWNER');
  });
});

describe('admin trust / untrust', () => {
  it('pins by hex or .pub file, lists role and key id, removes by key id; atomic 0600 writes', () => {
    const dir = init();
    const pa = operatorKey(root, `pa-${counter}`);
    const co = operatorKey(root, `co-${counter}`);
    const r1 = admin(['trust', '--role', 'plan-authorization', '--json', '--public-key', pa.pubFile, '--dir', dir]);
    expect(r1.status, r1.stderr).toBe(0);
    expect(r1.json).toEqual({ ok: true, role: 'plan-authorization', key_id: pa.keyId });
    expect(admin(['trust', '--dir', dir, '--role', 'confirmation', '--public-key', co.publicHex]).stdout).toContain(co.keyId);
    const list = admin(['--list', 'trust', '--dir', dir, '--json']);
    expect(list.json).toEqual({
      ok: true,
      authorities: [
        { role: 'plan-authorization', key_id: pa.keyId },
        { role: 'confirmation', key_id: co.keyId },
      ],
      // The server's own key is listed apart, never as an operator role.
      server_request_keys: [{ key_id: expect.stringMatching(/^[0-9a-f]{64}$/), state: 'current', retired_at: null, needed_by_files: null }],
    });
    expect(admin(['trust', '--dir', dir, '--list']).stdout).toContain(`confirmation         ${co.keyId}`);
    expect(mode(join(dir, 'authorities.json'))).toBe(0o600);
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
    const u = admin(['untrust', '--key-id', pa.keyId, '--dir', dir, '--json']);
    expect(u.json).toEqual({ ok: true, role: 'plan-authorization', key_id: pa.keyId });
    expect(admin(['trust', '--dir', dir, '--list', '--json']).json['authorities']).toEqual([{ role: 'confirmation', key_id: co.keyId }]);
    expectRefusal(admin(['untrust', '--dir', dir, '--key-id', pa.keyId, '--json']), 'NOT_PINNED');
  });

  it('refuses a server-request role, the server key, a duplicate, another role, malformed keys; never echoes the key', () => {
    const dir = init();
    const k = operatorKey(root, `k-${counter}`);
    expect(admin(['trust', '--dir', dir, '--role', 'reconciliation', '--public-key', k.publicHex]).status).toBe(0);
    const refusals: Array<[string[], string]> = [
      [['--role', 'server-request', '--public-key', operatorKey(root, `s-${counter}`).publicHex], 'SERVER_REQUEST_ROLE'],
      [['--role', 'confirmation', '--public-key', join(dir, 'keys', 'server-request.pub')], 'SERVER_REQUEST_KEY'],
      [['--role', 'reconciliation', '--public-key', k.publicHex], 'DUPLICATE_KEY'],
      [['--role', 'confirmation', '--public-key', k.pubFile], 'KEY_IN_OTHER_ROLE'],
      [['--role', 'confirmation', '--public-key', '0'.repeat(64)], 'BAD_PUBLIC_KEY'],
      [['--role', 'confirmation', '--public-key', 'zz'], 'BAD_PUBLIC_KEY'],
    ];
    for (const [extra, code] of refusals) {
      const r = admin(['trust', '--dir', dir, ...extra, '--json']);
      expectRefusal(r, code);
      expect(r.stdout + r.stderr).not.toContain(k.publicHex);
    }
    expectRefusal(admin(['trust', '--dir', dir, '--role', 'admin', '--public-key', k.publicHex, '--json']), 'USAGE', 2);
    const link = join(root, `link-${counter}.pub`);
    symlinkSync(k.pubFile, link);
    expectRefusal(admin(['trust', '--dir', dir, '--role', 'confirmation', '--public-key', link, '--json']), 'FILE_SYMLINK');
    const writable = operatorKey(root, `gw-${counter}`);
    chmodSync(writable.pubFile, 0o666);
    expectRefusal(admin(['trust', '--dir', dir, '--role', 'confirmation', '--public-key', writable.pubFile, '--json']), 'FILE_UNSAFE_MODE');
    expect(admin(['trust', '--dir', dir, '--list', '--json']).json['authorities']).toEqual([{ role: 'reconciliation', key_id: k.keyId }]);
  });

  it('refuses a .pub whose private key lies beside it (by name or by label), or one inside the write, anchor, inbox or outbox directory', () => {
    const anchors = join(root, `anchors-${counter}`);
    mkdirSync(anchors, { mode: 0o700 });
    const dir = init(fresh(), { PFSENSE_WRITE_ANCHOR_DIR: anchors });
    const env = { PFSENSE_WRITE_ANCHOR_DIR: anchors };
    // The operator's signer made its keys here: ROLE-<id>.key beside ROLE-<id>.pub (the README's "never on this host").
    const operator = join(root, `operator-${counter}`);
    mkdirSync(operator, { mode: 0o700 });
    const made = runSigner(['keygen', '--role', 'confirmation', '--out', operator, '--json']);
    expect(made.status, made.stderr).toBe(0);
    const pubFile = String(made.json['public_key_file']);
    const keyFile = String(made.json['private_key_file']);
    const trust = (file: string) => admin(['trust', '--dir', dir, '--role', 'confirmation', '--public-key', file, '--json'], env);
    expectRefusal(trust(pubFile), 'PRIVATE_KEY_BESIDE_PUBLIC_KEY');
    // Renamed: the name no longer gives it away, the key file's label line does (only the label is read).
    const renamed = join(operator, 'mine.bin');
    renameSync(keyFile, renamed);
    expectRefusal(trust(pubFile), 'PRIVATE_KEY_BESIDE_PUBLIC_KEY');
    // A lab-gate key beside it counts too.
    rmSync(renamed);
    const gate = runSigner(['keygen', '--role', 'lab-gate', '--out', operator, '--json']);
    expect(gate.status, gate.stderr).toBe(0);
    renameSync(String(gate.json['private_key_file']), join(operator, 'other'));
    expectRefusal(trust(pubFile), 'PRIVATE_KEY_BESIDE_PUBLIC_KEY');
    rmSync(join(operator, 'other'));
    // Inside the write directory, its inbox or outbox, or the anchor directory: a file the server's account wrote.
    for (const inside of [
      join(dir, 'confirmation.pub'),
      join(dir, 'inbox', 'c.pub'),
      join(dir, 'outbox', 'c.pub'),
      join(anchors, 'c.pub'),
    ]) {
      copyFileSync(pubFile, inside);
      chmodSync(inside, 0o600);
      expectRefusal(trust(inside), 'PUBLIC_KEY_IN_WRITE_DIRECTORY');
      rmSync(inside);
    }
    expect(admin(['trust', '--dir', dir, '--list', '--json'], env).json['authorities']).toEqual([]);
    // No private key beside it, outside those directories: pinned.
    const r = trust(pubFile);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json['key_id']).toBe(made.json['key_id']);
  });

  it('a tampered authorities.json is refused, not repaired', () => {
    const dir = init();
    writeFileSync(join(dir, 'authorities.json'), '{"version":1,"authorities":[{"role":"server-request"}]}');
    expectRefusal(admin(['trust', '--dir', dir, '--list', '--json']), 'AUTHORITIES_MALFORMED');
  });
});

describe('admin inbox add', () => {
  function setup(): { dir: string; pa: ReturnType<typeof operatorKey>; co: ReturnType<typeof operatorKey> } {
    const dir = init();
    const pa = operatorKey(root, `ipa-${counter}`);
    const co = operatorKey(root, `ico-${counter}`);
    expect(admin(['trust', '--dir', dir, '--role', 'plan-authorization', '--public-key', pa.pubFile]).status).toBe(0);
    expect(admin(['trust', '--dir', dir, '--role', 'confirmation', '--public-key', co.pubFile]).status).toBe(0);
    answeredKeyId = keyIdOf(Buffer.from(readFileSync(join(dir, 'keys', 'server-request.pub'), 'utf8').trim(), 'hex'));
    return { dir, pa, co };
  }

  function artifactFile(text: string, fileMode = 0o644): string {
    counter += 1;
    const path = join(root, `artifact-${counter}.json`);
    writeFileSync(path, text, { mode: fileMode });
    chmodSync(path, fileMode);
    return path;
  }

  it('installs a verified artifact 0600 under its canonical name (kind and what it concerns), once', () => {
    const { dir, pa } = setup();
    const file = artifactFile(planAuthorization(pa));
    const r = admin(['inbox', 'add', file, '--json', '--dir', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, kind: 'pfsense-mcp/plan-authorization', key_id: pa.keyId });
    const installed = r.json['file'] as string;
    expect(installed).toBe(join(dir, 'inbox', `plan-authorization.${digestA.slice(0, 16)}.json`));
    expect(mode(installed)).toBe(0o600);
    expect(readFileSync(installed, 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(readdirSync(join(dir, 'inbox'))).toHaveLength(1);
    const again = admin(['--dir', dir, '--json', 'inbox', 'add', file]);
    expectRefusal(again, 'ALREADY_INSTALLED');
    expect(readdirSync(join(dir, 'inbox'))).toHaveLength(1);
    // A second signed answer to the same request (another signature of the same plan) is refused at install time,
    // naming the file installed first; that one stays.
    const second = admin(['inbox', 'add', '--dir', dir, artifactFile(planAuthorization(pa, Date.now() - 1000)), '--json']);
    expectRefusal(second, 'ALREADY_ANSWERED');
    expect(String((second.json['error'] as { message: string }).message)).toContain(installed);
    expect(second.stderr).toContain(`answers the same request as ${installed}`);
    expect(readdirSync(join(dir, 'inbox'))).toEqual([basename(installed)]);
    // An answer to another request installs beside it.
    expect(
      admin(['inbox', 'add', '--dir', dir, artifactFile(planAuthorization(pa, undefined, undefined, 'c'.repeat(64)))]).stdout,
    ).toContain('installed pfsense-mcp/plan-authorization');
    expect(readdirSync(join(dir, 'inbox'))).toHaveLength(2);
  });

  it('which request a file answers is its canonical name: a hand-placed copy under another name counts; a dead file under the name is in the way', () => {
    const { dir, pa } = setup();
    const inbox = join(dir, 'inbox');
    // Copied in by hand under a name that is not canonical: readable, it still answers its plan (the coordinator reads it).
    const byHand = join(inbox, 'copied-by-hand.json');
    writeFileSync(byHand, planAuthorization(pa), { mode: 0o600 });
    const second = admin(['inbox', 'add', '--dir', dir, '--json', artifactFile(planAuthorization(pa, Date.now() - 1000))]);
    expectRefusal(second, 'ALREADY_ANSWERED');
    expect(String((second.json['error'] as { message: string }).message)).toContain(`answers the same request as ${byHand}`);
    expect(readdirSync(inbox)).toEqual(['copied-by-hand.json']);
    // A file that cannot be parsed answers nothing, but one holding the canonical name is in the way: named, kept.
    const canonical = join(inbox, `plan-authorization.${'c'.repeat(16)}.json`);
    writeFileSync(canonical, '{"not": "an artifact"}', { mode: 0o600 });
    const blocked = admin([
      'inbox',
      'add',
      '--dir',
      dir,
      '--json',
      artifactFile(planAuthorization(pa, undefined, undefined, 'c'.repeat(64))),
    ]);
    expectRefusal(blocked, 'ALREADY_INSTALLED');
    expect(String((blocked.json['error'] as { message: string }).message)).toContain(
      `${canonical}: holds the name FILE is installed under but cannot be read`,
    );
    expect(readFileSync(canonical, 'utf8')).toBe('{"not": "an artifact"}');
  });

  it('refuses tampered, unpinned, wrong-role, expired, future, relabelled, malformed and symlinked files; installs nothing', () => {
    const { dir, pa, co } = setup();
    const good = planAuthorization(pa);
    const doc = JSON.parse(good) as { proof: { signature: string }; payload: Record<string, unknown> };
    const flipped = doc.proof.signature.startsWith('0') ? `1${doc.proof.signature.slice(1)}` : `0${doc.proof.signature.slice(1)}`;
    const tampered = good.replace(doc.proof.signature, flipped);
    const now = Date.now();
    const stranger = operatorKey(root, `st-${counter}`);
    // The kind is inside the signed message: relabelling a signed document breaks it (a real outbox request is refused in admin-operate).
    const relabelled = good.replace('"pfsense-mcp/plan-authorization"', '"pfsense-mcp/confirmation"');
    const cases: Array<[string, string | RegExp]> = [
      [artifactFile(tampered), 'ARTIFACT_BAD_SIGNATURE'],
      [artifactFile(planAuthorization(stranger)), 'ARTIFACT_UNKNOWN_KEY'],
      [artifactFile(planAuthorization(co)), 'ARTIFACT_WRONG_ROLE'],
      [artifactFile(planAuthorization(pa, now - 3_600_000, now - 1_800_000)), 'ARTIFACT_EXPIRED'],
      [artifactFile(planAuthorization(pa, now + 3_600_000, now + 7_200_000)), 'ARTIFACT_NOT_YET_VALID'],
      [artifactFile(relabelled), /^ARTIFACT_[A-Z_]+$/],
      [artifactFile('{"not": "an artifact"}'), /^ARTIFACT_[A-Z_]+$/],
      [artifactFile('x'.repeat(MAX_ARTIFACT_BYTES + 1)), 'FILE_TOO_LARGE'],
      [join(root, 'does-not-exist.json'), 'FILE_NOT_FOUND'],
    ];
    for (const [file, code] of cases) {
      const r = admin(['inbox', 'add', '--dir', dir, file, '--json']);
      expectRefusal(r, code);
      expect(r.stdout + r.stderr).not.toContain(doc.proof.signature);
    }
    // Genuinely signed, current, pinned key — but answering another server's request key (another write directory's,
    // another appliance's): refused at install, as the server would refuse it at use (checkAnswersThisServer).
    const own = answeredKeyId;
    answeredKeyId = 'e'.repeat(64);
    const other = admin(['inbox', 'add', '--dir', dir, artifactFile(planAuthorization(pa)), '--json']);
    answeredKeyId = own;
    expectRefusal(other, 'ARTIFACT_OTHER_SERVER');
    expect((other.json['error'] as { message: string }).message).toMatch(/^FILE: answers a request of another server .*nothing installed$/);
    const link = join(root, `artifact-link-${counter}.json`);
    symlinkSync(artifactFile(good), link);
    expectRefusal(admin(['inbox', 'add', '--dir', dir, link, '--json']), 'FILE_SYMLINK');
    expect(readdirSync(join(dir, 'inbox'))).toEqual([]);
    expectRefusal(admin(['inbox', 'add', '--dir', dir, '--json']), 'USAGE', 2);
    expect(existsSync(join(dir, 'inbox'))).toBe(true);
  });
});
