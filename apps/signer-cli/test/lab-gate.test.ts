import { readFileSync } from 'node:fs';
import { PinnedAuthoritySet, readLabGatePrivateKeyFile } from '@pfsense-mcp/crypto';
import {
  ArtifactKind,
  artifactDigestOf,
  createLabGateRequest,
  parseArtifactOfKind,
  verifyLabGateReceipt,
  applianceBindingDigest,
} from '@pfsense-mcp/authorization';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appliance,
  cleanup,
  codeFor,
  confirmationRequest,
  ensureBuilt,
  filesIn,
  json,
  keygen,
  signer,
  tempDir,
  writeArtifact,
} from './harness.js';

let keys: string;
let out: string;
let runner: ReturnType<typeof keygen>;
let recon: ReturnType<typeof keygen>;
let gateKeyFile: string;
let gatePubFile: string;

const HOUR = 3_600_000;

function gateRequest(deadline = Date.now() + HOUR) {
  return createLabGateRequest(
    {
      gateId: `gate-${Math.random().toString(16).slice(2)}`,
      appliance,
      candidateAlias: 'LAB_CANDIDATE',
      scenarios: ['ordinary', 'e-forward-response-lost'],
      issuedAt: Date.now() - 1000,
      deadline,
    },
    runner.key,
  );
}

beforeAll(() => {
  ensureBuilt();
  keys = tempDir();
  out = tempDir();
  runner = keygen(keys, 'server-request');
  recon = keygen(keys, 'reconciliation');
  const g = signer(['keygen', '--role', 'lab-gate', '--out', keys, '--json']);
  expect(g.status).toBe(0);
  gateKeyFile = json(g).private_key_file;
  gatePubFile = json(g).public_key_file;
});
afterAll(() => {
  cleanup(keys);
  cleanup(out);
});

describe('lab gate (role lab-gate)', () => {
  it('keygen --role lab-gate writes a key under its own label, named lab-gate-<id>', () => {
    expect(gateKeyFile).toMatch(/lab-gate-[0-9a-f]{16}\.key$/);
    expect(readFileSync(gateKeyFile, 'utf8')).toMatch(/^pfsense-mcp-lab-gate-ed25519-private-key-v1 /);
    expect(readFileSync(gatePubFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('review shows the appliance, candidate, scenarios and deadline within 80 columns, verified against the runner key', () => {
    const file = writeArtifact(keys, gateRequest());
    const r = signer(['review', file, '--server-key', runner.pubFile]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('LAB GATE request');
    expect(r.stdout).toContain('"https://fw.example.test"');
    expect(r.stdout).toContain('"LAB_CANDIDATE"');
    expect(r.stdout).toContain('e-forward-response-lost, ordinary');
    expect(r.stdout).toContain('deadline');
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const full = signer(['review', file, '--server-key', runner.pubFile, '--full']);
    for (const line of full.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    // Another key as the runner's: refused, nothing shown.
    const wrong = signer(['review', file, '--server-key', recon.pubFile]);
    expect(wrong.status).toBe(4);
    expect(wrong.stdout).not.toContain('LAB_CANDIDATE');
  });

  it('sign with the lab-gate key writes a receipt bound to the request; any other role is refused', () => {
    const request = gateRequest();
    const file = writeArtifact(keys, request);
    const prefix = codeFor(gateKeyFile, request);
    for (const key of [recon.keyFile, runner.keyFile]) {
      const r = signer(['sign', file, '--key', key, '--server-key', runner.pubFile, '--out', out, '--approve', prefix, '--json']);
      expect(r.status).toBe(2);
      expect(json(r).error.code).toBe('WRONG_ROLE_KEY');
    }
    expect(filesIn(out)).toEqual([]);
    const ok = signer(['sign', file, '--key', gateKeyFile, '--server-key', runner.pubFile, '--out', out, '--approve', prefix, '--json']);
    expect(ok.status).toBe(0);
    const receipt = parseArtifactOfKind(readFileSync(json(ok).file), ArtifactKind.LAB_GATE_RECEIPT);
    const gate = readLabGatePrivateKeyFile(gateKeyFile);
    const pinned = PinnedAuthoritySet.of([{ keyId: gate.keyId, publicKey: gate.publicKey, role: 'lab-gate', active: true }]);
    expect(() =>
      verifyLabGateReceipt(receipt, {
        gateAuthorities: pinned,
        nowMs: Date.now(),
        expected: {
          applianceBindingDigest: applianceBindingDigest(appliance),
          candidateAlias: 'LAB_CANDIDATE',
          scenarios: ['ordinary'],
          requestKeyId: runner.key.keyId,
        },
      }),
    ).not.toThrow();
    expect(receipt.payload.request_digest).toBe(artifactDigestOf(request));
    expect(receipt.payload.deadline).toBe(request.payload.deadline);
  });

  it('a lab-gate key signs nothing but a gate request', () => {
    const request = confirmationRequest(runner.key);
    const file = writeArtifact(keys, request);
    const r = signer([
      'sign',
      file,
      '--key',
      gateKeyFile,
      '--server-key',
      runner.pubFile,
      '--out',
      out,
      '--approve',
      codeFor(gateKeyFile, request),
      '--json',
    ]);
    expect(r.status).toBe(2);
    expect(json(r).error).toEqual({
      code: 'WRONG_ROLE_KEY',
      message: 'this confirmation request needs a confirmation key; KEY is a lab-gate key',
    });
  });

  it('an expired gate request is refused', async () => {
    const request = gateRequest(Date.now() + 1500);
    const file = writeArtifact(keys, request);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const r = signer(['review', file, '--server-key', runner.pubFile, '--json']);
    expect(r.status).toBe(4);
    expect(json(r).error.code).toBe('EXPIRED');
  });
});
