// The exchange folder's edges through the BUILT programs: junk and invalid answers are counted for the AI and named
// for the operator only; a private key in the folder stops start-up and pickup; a waiting call ends at once when
// cancelled and wakes for an answer installed by `admin inbox add` too; the signer keeps keys out of the folder.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltWriteWorld } from './support/built-write-world.js';
import { approveOnOperator, setUpExchangeHost, type ExchangeHost } from './support/exchange-host.js';
import { runAdmin } from './support/run-admin.js';
import { runSigner } from './support/signer-program.js';
import { until } from './support/until.js';
import { WRITE_TOOL, type WriteResult } from './support/write-result.js';

// Process starts (admin, signer, server) on a loaded machine: the bound is on them, not on anything the product waits for.
const PROCESS_TEST_TIMEOUT_MS = 180_000;

const world = useBuiltWriteWorld([{ name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] }]);
const ARGS = { alias_name: 'LAN_SERVERS', description: 'Servers — edge cases' };

function host(): ExchangeHost {
  const h = setUpExchangeHost();
  world.defer(() => h.cleanup());
  return h;
}

async function operations(server: Awaited<ReturnType<typeof world.connect>>): Promise<Record<string, unknown>> {
  const r = await server.client.callTool({ name: 'pfsense_get_write_operations', arguments: {} });
  return r.structuredContent as Record<string, unknown>;
}

/** The one key file `keygen --role operator` made for `role`. */
function keyFile(h: ExchangeHost, role: string): string {
  const name = readdirSync(h.keysDir).find((n) => n.startsWith(`${role}-`) && n.endsWith('.key'));
  if (name === undefined) throw new Error(`no ${role} key`);
  return join(h.keysDir, name);
}

describe('the exchange folder at its edges', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('junk and forged answers are counted in pfsense_get_write_operations and named with their reason in admin status only', async () => {
    const h = host();
    const server = await world.connect({ ...world.applianceEnv(), ...h.environment });
    expect((await world.call(server, ARGS)).status).toBe('requested');
    const [request] = readdirSync(join(h.exchange, 'requests'));
    const answers = join(h.exchange, 'answers');
    for (let i = 0; i < 50; i += 1) writeFileSync(join(answers, `junk-${i}.json`), 'x');
    writeFileSync(join(answers, (request as string).replace('.json', '.signed.json')), '{"kind":"forged"}');
    expect((await world.call(server, ARGS)).status).toBe('requested');
    const ops = await operations(server);
    expect(ops['exchange_invalid_files']).toBe(51);
    expect(ops['exchange_pickup_stopped']).toBe(false);
    expect(JSON.stringify(ops)).not.toContain('junk-');
    const status = runAdmin(['status', '--dir', h.dir, '--exchange', h.exchange, '--json']);
    expect(status.status, status.stderr).toBe(0);
    const invalid = (status.json['exchange'] as { invalid_files: { file: string; code: string }[] }).invalid_files;
    expect(invalid).toHaveLength(51);
    expect(invalid).toContainEqual(expect.objectContaining({ file: 'junk-0.json', code: 'NOT_AN_ANSWER' }));
    expect(invalid.find((f) => f.file.startsWith('auth-'))?.code).toMatch(/^ARTIFACT_/);
    expect(readdirSync(join(h.dir, 'inbox'))).toEqual([]);
    // Nothing in the folder was deleted or rewritten.
    expect(readdirSync(answers)).toHaveLength(51);
  });

  it('a private key in the folder stops start-up; one placed while serving stops the pickup', async () => {
    const h = host();
    mkdirSync(join(h.exchange, 'sync-meta'));
    copyFileSync(keyFile(h, 'confirmation'), join(h.exchange, 'sync-meta', 'notes.txt'));
    const refused = await world.connect({ ...world.applianceEnv(), ...h.environment });
    expect((await refused.client.listTools()).tools.some((t) => t.name === WRITE_TOOL)).toBe(false);
    await until(() => refused.stderr().includes('EXCHANGE_PRIVATE_KEY'));
    const check = runAdmin(['status', '--dir', h.dir, '--exchange', h.exchange]);
    expect(check.stdout).toContain('UNUSABLE (PRIVATE_KEY)');

    const clean = host();
    const server = await world.connect({ ...world.applianceEnv(), ...clean.environment });
    expect((await world.call(server, ARGS)).status).toBe('requested');
    copyFileSync(keyFile(clean, 'plan-authorization'), join(clean.exchange, 'stray.key'));
    const approved = await approveOnOperator(clean);
    expect(approved.status, approved.stderr).toBe(0);
    expect((await world.call(server, ARGS)).status).toBe('requested');
    expect(await operations(server)).toMatchObject({ exchange_pickup_stopped: true });
    expect(readdirSync(join(clean.dir, 'inbox'))).toEqual([]);
  });

  it('a cancelled wait ends at once; a waiting call wakes for an answer `admin inbox add` installed', async () => {
    const h = host();
    const server = await world.connect({ ...world.applianceEnv(), ...h.environment });
    const controller = new AbortController();
    let progressed = false;
    const cancelled = server.client
      .callTool(
        { name: WRITE_TOOL, arguments: { ...ARGS, wait_seconds: 50 } },
        { signal: controller.signal, timeout: 120_000, onprogress: () => (progressed = true) },
      )
      .then(
        () => 'answered',
        () => 'rejected',
      );
    await until(() => progressed);
    controller.abort();
    expect(await cancelled).toBe('rejected');
    // The server is free at once: the next call answers (the wait held no lock or upstream slot).
    const requested = await world.call(server, ARGS);
    expect(requested.status).toBe('requested');

    // The manual flow: approve a copy elsewhere (--out), then `admin inbox add` — the waiting call wakes.
    const waiting = server.client.callTool({ name: WRITE_TOOL, arguments: { ...ARGS, wait_seconds: 30 } }, { timeout: 120_000 });
    const elsewhere = join(h.root, 'operator', 'signed');
    mkdirSync(elsewhere, { mode: 0o700 });
    const signed = await approveOnOperator(h, { path: requested.pending_request ?? '', extra: ['--out', elsewhere] });
    expect(signed.status, signed.stderr).toBe(0);
    const [file] = readdirSync(elsewhere);
    const added = runAdmin(['inbox', 'add', '--dir', h.dir, join(elsewhere, file as string), '--json']);
    expect(added.status, added.stderr).toBe(0);
    // It wakes, goes on, and waits again for the confirmation: its request appears in the exchange folder.
    await until(() => readdirSync(join(h.exchange, 'requests')).some((n) => n.startsWith('conf-')), 60_000);
    const approved = await approveOnOperator(h);
    expect(approved.status, approved.stderr).toBe(0);
    const result = (await waiting) as { structuredContent?: WriteResult };
    expect(result.structuredContent?.status).toBe('verified');
  });

  it('the signer keeps operator keys out of the exchange folder and answers exactly the request of --approve CODE', async () => {
    const h = host();
    const inside = join(h.exchange, 'keys');
    mkdirSync(inside, { mode: 0o700 });
    const keygen = runSigner(['keygen', '--role', 'operator', '--out', inside, '--json']);
    expect(keygen.status).toBe(3);
    expect(keygen.json).toMatchObject({ ok: false, error: { code: 'KEYS_IN_EXCHANGE_FOLDER' } });
    expect(readdirSync(inside)).toEqual([]);
    const server = await world.connect({ ...world.applianceEnv(), ...h.environment });
    // Another description: the test before verified ARGS' on the file's simulator.
    expect((await world.call(server, { ...ARGS, description: 'Servers — keys elsewhere' })).status).toBe('requested');
    const requests = join(h.exchange, 'requests');
    const inExchange = runSigner(['approve', requests, '--keys', inside, '--server-key', h.serverPub, '--json']);
    expect(inExchange.json).toMatchObject({ ok: false, error: { code: 'KEYS_IN_EXCHANGE_FOLDER' } });
    const wrong = runSigner(['approve', requests, '--keys', h.keysDir, '--server-key', h.serverPub, '--approve', '0123456789ab', '--json']);
    expect(wrong.status).toBe(5);
    expect(readdirSync(join(h.exchange, 'answers'))).toEqual([]);
    // The code, read from the review the operator's key gives, answers that one request.
    const review = runSigner([
      'review',
      join(requests, readdirSync(requests)[0] as string),
      '--server-key',
      h.serverPub,
      '--keys',
      h.keysDir,
      '--json',
    ]);
    const code = String((review.json['review'] as Record<string, unknown>)['approve_prefix']);
    const right = runSigner(['approve', requests, '--keys', h.keysDir, '--server-key', h.serverPub, '--approve', code, '--json']);
    expect(right.status, right.stderr).toBe(0);
    expect((right.json['written'] as unknown[]).length).toBe(1);
    expect(readdirSync(join(h.exchange, 'answers'))).toHaveLength(1);
  });
});
