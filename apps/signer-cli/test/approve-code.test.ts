// The keyed approval code through the BUILT signer: only the operator's key of the request's role gives it (docs/DESIGN.md §10).
// Split from signer-cli.test.ts (the size rule), with the same fixture setup.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { artifactDigestOf } from '@pfsense-mcp/authorization';

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
  writeArtifact,
} from './harness.js';

let keys: string;
let inbox: string;
let server: ReturnType<typeof keygen>;
let plan: ReturnType<typeof keygen>;
let confirm: ReturnType<typeof keygen>;
let recon: ReturnType<typeof keygen>;

beforeAll(() => {
  ensureBuilt();
  keys = tempDir();
  inbox = tempDir();
  server = keygen(keys, 'server-request');
  plan = keygen(keys, 'plan-authorization');
  confirm = keygen(keys, 'confirmation');
  recon = keygen(keys, 'reconciliation');
});

afterAll(() => {
  cleanup(keys);
  cleanup(inbox);
});

describe('the approval code (only the operator key gives it)', () => {
  it("review shows the keyed code with --key or --keys, never without; the code is crypto's approveCodeOf", () => {
    const req = confirmationRequest(server.key, 'contract-code');
    const file = writeArtifact(inbox, req);
    const expected = codeFor(confirm.keyFile, req);
    expect(expected).not.toBe(artifactDigestOf(req).slice(0, 12));
    const withKey = json(signer(['review', file, '--server-key', server.pubFile, '--key', confirm.keyFile, '--json']));
    expect(withKey.review.approve_prefix).toBe(expected);
    const fromDir = json(signer(['review', file, '--server-key', server.pubFile, '--keys', keys, '--json']));
    expect(fromDir.review.approve_prefix).toBe(expected);
    const human = signer(['review', file, '--server-key', server.pubFile, '--keys', keys]);
    expect(human.stdout).toContain(`approve with  ${expected}\n`);
    const without = signer(['review', file, '--server-key', server.pubFile, '--json']);
    expect(json(without).review.approve_prefix).toBeNull();
    expect(without.stdout).not.toContain(expected);
  });

  it('sign refuses the plain request digest prefix (what anyone holding the request computes) and writes nothing', () => {
    const req = confirmationRequest(server.key, 'contract-prefix');
    const file = writeArtifact(inbox, req);
    const out = tempDir();
    const r = signer([
      'sign',
      file,
      '--key',
      confirm.keyFile,
      '--server-key',
      server.pubFile,
      '--out',
      out,
      '--approve',
      artifactDigestOf(req).slice(0, 12),
      '--json',
    ]);
    expect(r.status).toBe(5);
    expect(json(r).error.code).toBe('DIGEST_PREFIX');
    expect(filesIn(out)).toEqual([]);
    const code = codeFor(confirm.keyFile, req);
    const ok = signer(['sign', file, '--keys', keys, '--server-key', server.pubFile, '--out', out, '--approve', code, '--json']);
    expect(ok.status, ok.stdout).toBe(0);
    // The code is in no artifact: neither the request nor the signed confirmation carries it.
    expect(readFileSync(file, 'utf8')).not.toContain(code);
    expect(readFileSync(json(ok).file, 'utf8')).not.toContain(code);
    cleanup(out);
  });

  it('a key of the wrong role is refused before anything is shown or asked, naming the role needed', () => {
    const file = writeArtifact(inbox, confirmationRequest(server.key, 'contract-role'));
    const out = tempDir();
    for (const command of [
      ['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out],
      ['review', file, '--key', plan.keyFile, '--server-key', server.pubFile],
    ]) {
      const r = signer(command, 'yes\n');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'pfsense-mcp-signer: refused: this confirmation request needs a confirmation key; KEY is a plan-authorization key (WRONG_ROLE_KEY)\n',
      );
    }
    const auth = writeArtifact(inbox, authorizationRequest(server.key));
    expect(json(signer(['review', auth, '--key', recon.keyFile, '--server-key', server.pubFile, '--json'])).error.message).toBe(
      'this authorization request needs a plan-authorization key; KEY is a reconciliation key',
    );
    const release = writeArtifact(inbox, releaseRequest(server.key));
    expect(json(signer(['review', release, '--key', confirm.keyFile, '--server-key', server.pubFile, '--json'])).error.message).toBe(
      'this release request needs a reconciliation key; KEY is a confirmation key',
    );
    expect(filesIn(out)).toEqual([]);
    cleanup(out);
  });

  it('keygen records the role in the key file; a version-1 file keeps working, its role from the name keygen gave it', () => {
    expect(readFileSync(confirm.keyFile, 'utf8')).toMatch(/^pfsense-mcp-ed25519-private-key-v2 confirmation [A-Za-z0-9_-]{43}\n$/);
    const legacy = tempDir();
    const seed = Buffer.from(confirm.key.privateKey).toString('base64url');
    const named = join(legacy, `confirmation-${confirm.key.keyId.slice(0, 16)}.key`);
    writeFileSync(named, `pfsense-mcp-ed25519-private-key-v1 ${seed}\n`, { mode: 0o600 });
    const req = confirmationRequest(server.key, 'contract-legacy');
    const file = writeArtifact(inbox, req);
    const out = tempDir();
    const r = signer([
      'sign',
      file,
      '--key',
      named,
      '--server-key',
      server.pubFile,
      '--out',
      out,
      '--approve',
      codeFor(confirm.keyFile, req),
    ]);
    expect(r.status, r.stderr).toBe(0);
    const unnamed = join(legacy, 'my.key');
    writeFileSync(unnamed, `pfsense-mcp-ed25519-private-key-v1 ${seed}\n`, { mode: 0o600 });
    const unknown = signer(['review', file, '--key', unnamed, '--server-key', server.pubFile, '--json']);
    expect(unknown.status).toBe(2);
    expect(json(unknown).error.code).toBe('KEY_ROLE_UNKNOWN');
    cleanup(legacy);
    cleanup(out);
  });
});
