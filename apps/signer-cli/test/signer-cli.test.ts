import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalize } from '@pfsense-mcp/canonical';
import {
  ArtifactKind,
  MAX_ARTIFACT_BYTES,
  applianceBindingDigest,
  artifactDigestOf,
  checkPlanAuthorizationBinding,
  parseArtifact,
  parseArtifactOfKind,
  signingDigestBytes,
  verifyConfirmationEvidence,
  verifyPlanAuthorization,
  verifyReconciliationEvidence,
  verifyReservationRelease,
} from '@pfsense-mcp/authorization';
import type { SignedArtifact } from '@pfsense-mcp/authorization';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { ed25519Sign, PinnedAuthoritySet, readEd25519PrivateKeyFile } from '@pfsense-mcp/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, programStale } from '@pfsense-mcp/test-support';
import {
  appliance,
  authorizationRequest,
  cleanup,
  codeFor,
  confirmationRequest,
  contractFacts,
  ensureBuilt,
  filesIn,
  json,
  keygen,
  MAIN,
  PRE_STATE,
  ROOT,
  reconciliationRequest,
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
let pinned: PinnedAuthoritySet;

beforeAll(() => {
  ensureBuilt();
  keys = tempDir();
  inbox = tempDir();
  server = keygen(keys, 'server-request');
  plan = keygen(keys, 'plan-authorization');
  confirm = keygen(keys, 'confirmation');
  recon = keygen(keys, 'reconciliation');
  pinned = PinnedAuthoritySet.of([
    { keyId: server.key.keyId, publicKey: server.key.publicKey, role: 'server-request', active: true },
    { keyId: plan.key.keyId, publicKey: plan.key.publicKey, role: 'plan-authorization', active: true },
    { keyId: confirm.key.keyId, publicKey: confirm.key.publicKey, role: 'confirmation', active: true },
    { keyId: recon.key.keyId, publicKey: recon.key.publicKey, role: 'reconciliation', active: true },
  ]);
});

afterAll(() => {
  cleanup(keys);
  cleanup(inbox);
});

function signedFile(out: string): { path: string; artifact: SignedArtifact } {
  const files = filesIn(out);
  expect(files).toHaveLength(1);
  const path = join(out, files[0] as string);
  return { path, artifact: parseArtifact(readFileSync(path)) as SignedArtifact };
}

describe('command line', () => {
  it('--help shows usage, examples and exit codes', () => {
    const r = signer(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('Exit codes:');
    expect(signer(['help']).status).toBe(0);
  });

  it('refuses unknown commands and flags with exit 2', () => {
    expect(signer([]).status).toBe(2);
    expect(signer(['frobnicate']).status).toBe(2);
    expect(signer(['review', 'x', '--sneaky']).status).toBe(2);
    expect(signer(['keygen', '--role', 'root', '--out', keys]).status).toBe(2);
    expect(signer(['keygen', '--role', 'confirmation', '--out', keys, '--full']).status).toBe(2);
    expect(signer(['verify', 'x.json', '--members']).status).toBe(2);
    const r = signer(['frobnicate', '--json']);
    expect(json(r)).toMatchObject({ ok: false, error: { code: 'USAGE' } });
  });
});

describe('keygen', () => {
  it('writes a 0600 private key by exclusive creation and prints the key id and public key to pin', () => {
    const dir = tempDir();
    const r = signer(['keygen', '--role', 'confirmation', '--out', dir, '--json']);
    expect(r.status).toBe(0);
    const out = json(r);
    expect(statSync(out.private_key_file).mode & 0o777).toBe(0o600);
    const loaded = readEd25519PrivateKeyFile(out.private_key_file);
    expect(loaded.keyId).toBe(out.key_id);
    expect(Buffer.from(loaded.publicKey).toString('hex')).toBe(out.public_key);
    expect(readFileSync(out.public_key_file, 'utf8')).toBe(`${out.public_key}\n`);
    const human = signer(['keygen', '--role', 'confirmation', '--out', dir]);
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/key id\s+[0-9a-f]{64}/);
    cleanup(dir);
  });

  it('refuses an output directory others can read, a symlink, or a missing one', () => {
    const open = tempDir(0o755);
    expect(signer(['keygen', '--role', 'confirmation', '--out', open]).status).toBe(3);
    expect(filesIn(open)).toEqual([]);
    const link = join(keys, 'link-dir');
    symlinkSync(open, link);
    expect(signer(['keygen', '--role', 'confirmation', '--out', link]).status).toBe(3);
    expect(signer(['keygen', '--role', 'confirmation', '--out', join(open, 'missing')]).status).toBe(3);
    cleanup(open);
  });
});

describe('review', () => {
  it('verifies and shows appliance, alias, old → new description, expiry and recomputed digests', () => {
    const req = authorizationRequest(server.key);
    const file = writeArtifact(inbox, req);
    const r = signer(['review', file, '--server-key', server.pubFile]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('server signature verified');
    expect(r.stdout).toContain('"https://fw.example.test"');
    expect(r.stdout).toContain('"web_servers"');
    expect(r.stdout).toContain('"Web servers"');
    expect(r.stdout).toContain('→  "Public web servers"');
    expect(r.stdout).toContain('expires');
    // Without the operator's key the change is shown, the approval code is not (docs/DESIGN.md §10).
    expect(r.stdout).toContain('approve with  needs your plan-authorization key (--key or --keys)');
    // The recomputed digests are shown under --full; the default keeps the request digest's prefix.
    expect(r.stdout).not.toContain(req.payload.execution_intent_digest.slice(0, 16));
    expect(r.stdout).toContain(`request       ${artifactDigestOf(req).slice(0, 16)}…`);
    const full = signer(['review', file, '--server-key', server.pubFile, '--full']);
    expect(full.stdout).toContain(artifactDigestOf(req));
    expect(full.stdout).toContain(req.payload.execution_intent_digest);

    const j = json(signer(['review', file, '--server-key', Buffer.from(server.key.publicKey).toString('hex'), '--json']));
    expect(j.review.approve_prefix).toBeNull();
    expect(j.review.key_role).toBe('plan-authorization');
    expect(j.review.digests.precondition_fingerprint).toBe(req.payload.execution_intent.payload.precondition_fingerprint);
    expect(j.review.digests.plan).toBe(req.payload.plan_digest);
    expect(j.review.old_description).toBe('Web servers');
  });

  it.each([
    ['confirmation', () => confirmationRequest(server.key)],
    ['reconciliation', () => reconciliationRequest(server.key)],
    ['release', () => releaseRequest(server.key)],
  ])('shows a %s request', (type, make) => {
    const j = json(signer(['review', writeArtifact(inbox, make()), '--server-key', server.pubFile, '--json']));
    expect(j.review.request).toBe(type);
    expect(j.review.alias.name).toBe('web_servers');
  });

  it.each([
    ['reconciliation', (o?: Parameters<typeof contractFacts>[0]) => reconciliationRequest(server.key, o)],
    ['release', (o?: Parameters<typeof contractFacts>[0]) => releaseRequest(server.key, o)],
  ])('shows the appliance of a %s request and recomputes its target fingerprint and intent digest', (_type, make) => {
    const facts = contractFacts();
    const file = writeArtifact(inbox, make());
    const j = json(signer(['review', file, '--server-key', server.pubFile, '--json']));
    expect(j.review.appliance).toEqual({ base_url: 'https://fw.example.test', tls_mode: 'https-system-ca', appliance_id: 'NG1234abcd' });
    expect(j.review.digests).toMatchObject({
      target_fingerprint: facts.targetFingerprint,
      intent: facts.intentDigest,
      appliance_binding: applianceBindingDigest(appliance),
    });
    const human = signer(['review', file, '--server-key', server.pubFile]);
    expect(human.stdout).toContain('  appliance     "https://fw.example.test"\n                TLS https-system-ca   id "NG1234abcd"\n');
    // Signed by the server, but the digests do not match the alias and change shown: refused, not shown.
    for (const wrong of [{ targetFingerprint: '7'.repeat(64) }, { intentDigest: '8'.repeat(64) }]) {
      const r = signer(['review', writeArtifact(inbox, make(wrong)), '--server-key', server.pubFile, '--json']);
      expect(r.status).toBe(4);
      expect(json(r).error.code).toBe('INCONSISTENT');
    }
  });

  it('refuses a tampered request and never shows its facts as genuine', () => {
    const text = readFileSync(writeArtifact(inbox, authorizationRequest(server.key)), 'utf8');
    const tampered = text.replaceAll('Public web servers', 'Public web serverZ');
    const r = signer(['review', writeArtifact(inbox, tampered), '--server-key', server.pubFile]);
    expect(r.status).toBe(4);
    expect(r.stderr).toContain('BAD_SIGNATURE');
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('serverZ');
  });

  it('refuses an unsigned request, one signed by another key, and one signed by an operator key', () => {
    const doc = JSON.parse(readFileSync(writeArtifact(inbox, authorizationRequest(server.key)), 'utf8'));
    delete doc.proof;
    expect(signer(['review', writeArtifact(inbox, canonicalize(doc)), '--server-key', server.pubFile]).status).toBe(4);
    const other = signer(['review', writeArtifact(inbox, authorizationRequest(server.key)), '--server-key', plan.pubFile, '--json']);
    expect(other.status).toBe(4);
    expect(json(other).error.code).toBe('UNKNOWN_KEY');
    const byOperator = signer(['review', writeArtifact(inbox, authorizationRequest(plan.key)), '--server-key', server.pubFile, '--json']);
    expect(json(byOperator).error.code).toBe('UNKNOWN_KEY');
  });

  it('refuses an expired request', () => {
    const now = Date.now();
    const req = authorizationRequest(server.key, { issuedAt: now - 7_200_000, expiresAt: now - 1 });
    const r = signer(['review', writeArtifact(inbox, req), '--server-key', server.pubFile, '--json']);
    expect(r.status).toBe(4);
    expect(json(r).error.code).toBe('EXPIRED');
  });

  it('refuses a validly signed request whose shown alias does not match its intent', () => {
    // The server key signs it, but the pre-state shown is not the one the intent was prepared from.
    const doc = JSON.parse(canonicalize(authorizationRequest(server.key)));
    doc.payload.review.pre_state.address = ['10.9.9.9', '10.0.0.11'];
    doc.proof.signature = bytesToHex(ed25519Sign(server.key.privateKey, signingDigestBytes(doc.kind, doc.version, doc.payload)));
    const r = signer(['review', writeArtifact(inbox, canonicalize(doc)), '--server-key', server.pubFile, '--json']);
    expect(r.status).toBe(4);
    expect(json(r).error.code).toBe('INCONSISTENT');
  });

  it('refuses a no-op request (new description equals the current one)', () => {
    const req = authorizationRequest(server.key, { desc: 'Web servers' });
    expect(json(signer(['review', writeArtifact(inbox, req), '--server-key', server.pubFile, '--json'])).error.code).toBe('INCONSISTENT');
  });

  it('refuses unsafe file modes, symlinks, non-canonical and oversized files', () => {
    const file = writeArtifact(inbox, authorizationRequest(server.key));
    chmodSync(file, 0o644);
    const open = signer(['review', file, '--server-key', server.pubFile, '--json']);
    expect(open.status).toBe(3);
    expect(json(open).error.code).toBe('UNSAFE_MODE');
    chmodSync(file, 0o400);
    expect(signer(['review', file, '--server-key', server.pubFile]).status).toBe(0);
    const link = join(inbox, 'link.json');
    symlinkSync(file, link);
    expect(json(signer(['review', link, '--server-key', server.pubFile, '--json'])).error.code).toBe('SYMLINK');
    const pretty = JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 2);
    expect(json(signer(['review', writeArtifact(inbox, pretty), '--server-key', server.pubFile, '--json'])).error.code).toBe(
      'NOT_CANONICAL',
    );
    const big = join(inbox, 'big.json');
    writeFileSync(big, 'x'.repeat(MAX_ARTIFACT_BYTES + 1), { mode: 0o600 });
    expect(json(signer(['review', big, '--server-key', server.pubFile, '--json'])).error.code).toBe('TOO_LARGE');
    const pubOpen = join(keys, 'open.pub');
    writeFileSync(pubOpen, `${Buffer.from(server.key.publicKey).toString('hex')}\n`, { mode: 0o644 });
    chmodSync(pubOpen, 0o644);
    expect(signer(['review', file, '--server-key', pubOpen]).status).toBe(3);
  });

  it('renders hostile descriptions safely (no raw controls, bidi overrides or forged lines)', () => {
    const pre = { ...PRE_STATE, descr: 'old\u001b[2J\u001b]0;pwned\u0007 \u202Egnp.exe' };
    const req = authorizationRequest(server.key, { pre, desc: 'new\nFAKE: approved\t\u2066x\u2069\u200B' });
    const file = writeArtifact(inbox, req);
    const r = signer(['review', file, '--server-key', server.pubFile]);
    expect(r.status).toBe(0);
    for (const bad of ['\u001b', '\u0007', '\u202E', '\u2066', '\u2069', '\u200B', '\t']) expect(r.stdout).not.toContain(bad);
    expect(r.stdout).not.toMatch(/^FAKE/m);
    expect(r.stdout).toContain('\\u{202E}');
    expect(r.stdout).toContain('new\\nFAKE: approved\\t');
    const j = signer(['review', file, '--server-key', server.pubFile, '--json']);
    expect(j.stdout).toMatch(/^[\x20-\x7e]*\n$/);
    expect(json(j).review.new_description).toBe('new\nFAKE: approved\t\u2066x\u2069\u200B');
  });
});

describe('sign', () => {
  it('refuses without approval (not a terminal) and with a wrong approval; writes nothing', () => {
    const file = writeArtifact(inbox, authorizationRequest(server.key));
    const out = tempDir();
    const none = signer(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out], 'yes\n');
    expect(none.status).toBe(5);
    expect(none.stderr).toContain('NO_APPROVAL');
    const wrong = signer(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', '000000000000']);
    expect(wrong.status).toBe(5);
    const yes = signer(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', 'yes']);
    expect(yes.status).toBe(5);
    expect(filesIn(out)).toEqual([]);
    cleanup(out);
  });

  it('signs an authorization after --approve with the approval code shown, 0600, bound to the request', () => {
    const req = authorizationRequest(server.key);
    const file = writeArtifact(inbox, req);
    const prefix = json(signer(['review', file, '--server-key', server.pubFile, '--key', plan.keyFile, '--json'])).review.approve_prefix;
    expect(prefix).toBe(codeFor(plan.keyFile, req));
    const out = tempDir();
    const r = signer(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', prefix, '--json']);
    expect(r.status).toBe(0);
    const { path, artifact } = signedFile(out);
    expect(json(r).file).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(artifact.kind).toBe(ArtifactKind.PLAN_AUTHORIZATION);
    const expected = {
      planDigest: req.payload.plan_digest,
      stepId: 'alias-description',
      executionIntentDigest: req.payload.execution_intent_digest,
    };
    expect(() => verifyPlanAuthorization(artifact, { authorities: pinned, nowMs: Date.now(), expected })).not.toThrow();
    if (artifact.kind === ArtifactKind.PLAN_AUTHORIZATION) checkPlanAuthorizationBinding(artifact, expected);

    const v = signer([
      'verify',
      path,
      '--pin',
      `plan-authorization=${plan.pubFile}`,
      '--server-key',
      server.pubFile,
      '--request',
      file,
      '--json',
    ]);
    expect(v.status).toBe(0);
    expect(json(v)).toMatchObject({ valid: true, role: 'plan-authorization', answers_request: true });
    const wrongRole = signer(['verify', path, '--pin', `confirmation=${plan.pubFile}`, '--json']);
    expect(wrongRole.status).toBe(4);
    expect(json(wrongRole).error.code).toBe('WRONG_ROLE');
    const otherReq = writeArtifact(inbox, confirmationRequest(server.key));
    const mismatch = signer([
      'verify',
      path,
      '--pin',
      `plan-authorization=${plan.pubFile}`,
      '--server-key',
      server.pubFile,
      '--request',
      otherReq,
    ]);
    expect(mismatch.status).toBe(4);
    cleanup(out);
  });

  it('signs a confirmation bound to the contract id', () => {
    const req = confirmationRequest(server.key, 'contract-77');
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
      codeFor(confirm.keyFile, req),
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('signed pfsense-mcp/confirmation');
    const { artifact } = signedFile(out);
    const p = req.payload;
    const facts = verifyConfirmationEvidence(artifact, {
      authorities: pinned,
      nowMs: Date.now(),
      expected: {
        contractId: 'contract-77',
        operationId: p.operation_id,
        intentDigest: p.intent_digest,
        executionIntentDigest: p.execution_intent_digest,
        targetFingerprint: p.target_fingerprint,
      },
    });
    expect(facts.contractId).toBe('contract-77');
    cleanup(out);
  });

  it('signs a reconciliation only with a declared outcome', () => {
    const req = reconciliationRequest(server.key);
    const file = writeArtifact(inbox, req);
    const out = tempDir();
    const prefix = codeFor(recon.keyFile, req);
    expect(signer(['sign', file, '--key', recon.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', prefix]).status).toBe(
      2,
    );
    expect(
      signer([
        'sign',
        file,
        '--key',
        recon.keyFile,
        '--server-key',
        server.pubFile,
        '--out',
        out,
        '--approve',
        prefix,
        '--outcome',
        'MAYBE',
      ]).status,
    ).toBe(2);
    const r = signer([
      'sign',
      file,
      '--key',
      recon.keyFile,
      '--server-key',
      server.pubFile,
      '--out',
      out,
      '--approve',
      prefix,
      '--outcome',
      'APPLIED',
    ]);
    expect(r.status).toBe(0);
    const facts = verifyReconciliationEvidence(signedFile(out).artifact, {
      authorities: pinned,
      nowMs: Date.now(),
      expected: { contractId: 'contract-1', operationId: 'op-1', stateVersion: 4, origin: 'EXECUTING' },
    });
    expect(facts.outcome).toBe('FORWARD_APPLIED');
    cleanup(out);
  });

  it('signs a reservation release', () => {
    const req = releaseRequest(server.key);
    const file = writeArtifact(inbox, req);
    const out = tempDir();
    expect(
      signer(['sign', file, '--key', recon.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', codeFor(recon.keyFile, req)])
        .status,
    ).toBe(0);
    const facts = verifyReservationRelease(signedFile(out).artifact, {
      authorities: pinned,
      nowMs: Date.now(),
      expected: { contractId: 'contract-1', operationId: 'op-1', stateVersion: 7 },
    });
    expect(facts.stateVersion).toBe(7);
    cleanup(out);
  });

  it('refuses tampered or expired requests, the server key as signer, unsafe key files and unsafe output dirs', () => {
    const req = authorizationRequest(server.key);
    const prefix = codeFor(plan.keyFile, req);
    const file = writeArtifact(inbox, req);
    const out = tempDir();
    const tampered = writeArtifact(inbox, readFileSync(file, 'utf8').replace('"risk_class":"low"', '"risk_class":"medium"'));
    expect(
      signer(['sign', tampered, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', prefix]).status,
    ).toBe(4);
    const now = Date.now();
    const expired = writeArtifact(inbox, authorizationRequest(server.key, { issuedAt: now - 7_200_000, expiresAt: now - 1000 }));
    expect(signer(['sign', expired, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', prefix]).status).toBe(
      4,
    );
    const asServer = signer([
      'sign',
      file,
      '--key',
      server.keyFile,
      '--server-key',
      server.pubFile,
      '--out',
      out,
      '--approve',
      prefix,
      '--json',
    ]);
    // The server's own request key is another role's key: refused as such, before anything is shown.
    expect(json(asServer).error).toEqual({
      code: 'WRONG_ROLE_KEY',
      message: 'this authorization request needs a plan-authorization key; KEY is a server-request key',
    });
    chmodSync(plan.keyFile, 0o640);
    expect(signer(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', prefix]).status).toBe(3);
    chmodSync(plan.keyFile, 0o600);
    const shared = tempDir(0o777);
    expect(signer(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', shared, '--approve', prefix]).status).toBe(
      3,
    );
    expect(filesIn(out)).toEqual([]);
    expect(filesIn(shared)).toEqual([]);
    cleanup(out);
    cleanup(shared);
  });
});

describe('verify', () => {
  it('verifies a pending request with the server key and refuses without pinned keys', () => {
    const file = writeArtifact(inbox, authorizationRequest(server.key));
    expect(signer(['verify', file, '--server-key', server.pubFile]).status).toBe(0);
    expect(signer(['verify', file]).status).toBe(2);
    expect(signer(['verify', file, '--pin', `server-request=${server.pubFile}`, '--pin', `confirmation=${server.pubFile}`]).status).toBe(2);
  });

  it('refuses a signed artifact whose signature does not verify', () => {
    const out = tempDir();
    const req = authorizationRequest(server.key);
    const file = writeArtifact(inbox, req);
    signer(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--approve', codeFor(plan.keyFile, req)]);
    const { path } = signedFile(out);
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    doc.payload.risk_class = 'high';
    const forged = writeArtifact(inbox, canonicalize(doc));
    const r = signer(['verify', forged, '--pin', `plan-authorization=${plan.pubFile}`, '--json']);
    expect(r.status).toBe(4);
    expect(json(r).error.code).toBe('BAD_SIGNATURE');
    expect(parseArtifactOfKind(readFileSync(path), ArtifactKind.PLAN_AUTHORIZATION).payload.risk_class).toBe('low');
    cleanup(out);
  });
});

describe('refusal messages', () => {
  it('words a refusal once — prefix and code added in one place, generic file wording', () => {
    const missing = signer(['review', join(inbox, 'missing-request.json'), '--server-key', server.pubFile]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toBe('pfsense-mcp-signer: refused: FILE "missing-request.json": does not exist (NOT_FOUND)\n');
    const asJson = json(signer(['review', join(inbox, 'missing-request.json'), '--server-key', server.pubFile, '--json']));
    expect(asJson.error).toEqual({ code: 'NOT_FOUND', message: 'FILE "missing-request.json": does not exist' });

    const tampered = readFileSync(writeArtifact(inbox, authorizationRequest(server.key)), 'utf8').replaceAll(
      'Public web servers',
      'Public web serverZ',
    );
    const bad = signer(['review', writeArtifact(inbox, tampered), '--server-key', server.pubFile]);
    expect(bad.stderr).toMatch(/^pfsense-mcp-signer: refused: [^\n]+ \(BAD_SIGNATURE\)\n$/);
    expect(bad.stderr.split('BAD_SIGNATURE')).toHaveLength(2);
    expect(bad.stderr).not.toContain('refused: refused');
    expect(bad.stderr).not.toContain('key file');
  });
});

describe('built bundle', () => {
  it('is the build of the current sources (the global setup rebuilds a stale bundle, atomically)', async () => {
    expect(await programStale('signer-cli')).toBe(false);
    // Touching a source makes it stale; the atomic rebuild replaces the file (a new inode) and is current again.
    const source = join(ROOT, 'apps', 'signer-cli', 'src', 'help-text.ts');
    const original = statSync(source);
    const before = statSync(MAIN);
    const justAfterBuild = new Date(before.mtimeMs + 1);
    utimesSync(source, justAfterBuild, justAfterBuild);
    try {
      expect(await programStale('signer-cli')).toBe(true);
      buildProgram('signer-cli');
      expect(await programStale('signer-cli')).toBe(false);
      expect(statSync(MAIN).ino).not.toBe(before.ino);
      expect(filesIn(join(ROOT, 'dist', 'apps', 'signer-cli')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      utimesSync(source, original.atime, original.mtime);
    }
  });

  it('contains no network or SQLite code', () => {
    expect(existsSync(MAIN)).toBe(true);
    const code = readFileSync(MAIN, 'utf8');
    const modules = [...code.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']([^"']+)["']/g)].map((m) => m[1]);
    expect(modules.length).toBeGreaterThan(0);
    const forbidden =
      /^(node:)?(http|https|http2|net|tls|dgram|dns|child_process|worker_threads|cluster)$|^(better-sqlite3|kysely|got|undici|ws)(\/|$)/;
    expect(modules.filter((m) => forbidden.test(m ?? ''))).toEqual([]);
    for (const needle of ['better-sqlite3', 'node:http', 'node:https', 'node:net', 'node:tls', 'undici', 'XMLHttpRequest', 'WebSocket(']) {
      expect(code.includes(needle), needle).toBe(false);
    }
    expect(/\bfetch\s*\(/.test(code)).toBe(false);
    expect(/\bgot\s*\(/.test(code)).toBe(false);
  });
});
