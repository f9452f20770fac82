// `keygen --role operator` and `approve` through the BUILT signer: the three operator keys and their bundle; each
// unanswered authorization or confirmation request of a requests/ folder answered oldest first into answers/, with
// the code typed for it (here: lines on a piped stdin) or given by --approve.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeArtifact } from '@pfsense-mcp/authorization';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { parseOperatorKeyBundle, readEd25519PrivateKeyFile, writeSecretFile } from '@pfsense-mcp/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationRequest,
  cleanup,
  codeFor,
  confirmationRequest,
  ensureBuilt,
  filesIn,
  json,
  keygen,
  releaseRequest,
  signer,
  tempDir,
} from './harness.js';

let root: string;
let keys: string;
let server: ReturnType<typeof keygen>;
const made: Record<string, string> = {};

beforeAll(() => {
  ensureBuilt();
  root = tempDir();
  keys = join(root, 'keys');
  mkdirSync(keys, { mode: 0o700 });
  const serverDir = join(root, 'server');
  mkdirSync(serverDir, { mode: 0o700 });
  server = keygen(serverDir, 'server-request');
});
afterAll(() => cleanup(root));

/** An exchange folder with these requests in requests/ (written as the server names them). */
function exchange(requests: Record<string, Parameters<typeof encodeArtifact>[0]>): string {
  const dir = tempDir();
  for (const sub of ['requests', 'answers']) mkdirSync(join(dir, sub), { mode: 0o700 });
  for (const [name, artifact] of Object.entries(requests)) writeSecretFile(join(dir, 'requests', name), encodeArtifact(artifact));
  return dir;
}

describe('keygen --role operator', () => {
  it('writes the three operator keys and one operator.pub bundle of their public keys; a second run is refused before any key', () => {
    const r = signer(['keygen', '--role', 'operator', '--out', keys, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = json(r);
    const bundle = parseOperatorKeyBundle(readFileSync(out.bundle_file, 'utf8'));
    expect(bundle?.map((e) => e.role)).toEqual(['plan-authorization', 'confirmation', 'reconciliation']);
    for (const k of out.keys) {
      const key = readEd25519PrivateKeyFile(k.private_key_file);
      expect(key.role).toBe(k.role);
      expect(bundle?.find((e) => e.role === k.role)?.publicKey).toBe(bytesToHex(key.publicKey));
      made[k.role] = k.private_key_file;
    }
    expect(filesIn(keys).filter((n) => n.endsWith('.pub'))).toEqual(['operator.pub']);
    const again = signer(['keygen', '--role', 'operator', '--out', keys, '--json']);
    expect(again.status).toBe(3);
    expect(json(again).error.code).toBe('EXISTS');
    expect(filesIn(keys)).toHaveLength(4);
  });
});

describe('approve', () => {
  it('answers each request of a requests/ folder oldest first, with the code typed for each; a release is passed over', () => {
    const now = Date.now();
    const older = confirmationRequest(server.key, 'contract-7');
    const newer = authorizationRequest(server.key, { issuedAt: now + 1000, expiresAt: now + 3_600_000 });
    const dir = exchange({ 'auth-00000001.json': newer, 'conf-00000002.json': older, 'rel.json': releaseRequest(server.key) });
    // The codes in the order they are asked for: the confirmation was issued first.
    const typed = `${codeFor(made['confirmation'] as string, older)}\n${codeFor(made['plan-authorization'] as string, newer)}\n`;
    const r = signer(['approve', join(dir, 'requests'), '--keys', keys, '--server-key', server.pubFile, '--json'], typed);
    expect(r.status, r.stderr).toBe(0);
    expect(json(r).written.map((w: { file: string }) => w.file)).toEqual([
      join(dir, 'answers', 'conf-00000002.signed.json'),
      join(dir, 'answers', 'auth-00000001.signed.json'),
    ]);
    expect(r.stderr).toContain('passed over rel.json');
    // Nothing left to answer: a second run signs nothing.
    const again = signer(['approve', join(dir, 'requests'), '--keys', keys, '--server-key', server.pubFile, '--json']);
    expect(json(again).written).toEqual([]);
    cleanup(dir);
  });

  it('a wrong code signs nothing; --approve CODE answers exactly its request; a file elsewhere needs --out', () => {
    const a = authorizationRequest(server.key, { operationId: 'op-a' });
    const b = authorizationRequest(server.key, { operationId: 'op-b' });
    const dir = exchange({ 'auth-0000000a.json': a, 'auth-0000000b.json': b });
    const requests = join(dir, 'requests');
    const wrong = signer(['approve', requests, '--keys', keys, '--server-key', server.pubFile], 'yes\n');
    expect(wrong.status).toBe(5);
    expect(filesIn(join(dir, 'answers'))).toEqual([]);
    const code = codeFor(made['plan-authorization'] as string, b);
    const one = signer(['approve', requests, '--keys', keys, '--server-key', server.pubFile, '--approve', code, '--json']);
    expect(one.status, one.stderr).toBe(0);
    expect(filesIn(join(dir, 'answers'))).toEqual(['auth-0000000b.signed.json']);
    const loose = tempDir();
    writeSecretFile(join(loose, 'req.json'), encodeArtifact(a));
    const noOut = signer(['approve', join(loose, 'req.json'), '--keys', keys, '--server-key', server.pubFile, '--json']);
    expect(noOut.status).toBe(2);
    cleanup(loose);
    cleanup(dir);
  });

  it('a request needing a role KEYDIR lacks is refused naming the role', () => {
    const only = tempDir();
    const dir = exchange({ 'conf-00000003.json': confirmationRequest(server.key, 'contract-9') });
    keygen(only, 'plan-authorization');
    const r = signer(['approve', join(dir, 'requests'), '--keys', only, '--server-key', server.pubFile, '--json'], 'x\n');
    expect(r.status).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'KEY_NOT_FOUND' });
    expect(json(r).error.message).toContain('confirmation');
    cleanup(only);
    cleanup(dir);
  });
});
