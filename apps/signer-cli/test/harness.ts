import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  ALIAS_DESCRIPTION_ROLLBACK_PLAN_VERSION,
  ALIAS_DESCRIPTION_SEMANTICS_VERSION,
  aliasDescriptionIntentDigest,
  aliasSnapshotDigest,
  aliasTargetFingerprint,
} from '@pfsense-mcp/adapters';
import {
  applianceBindingDigest,
  createApplianceBinding,
  createPendingAuthorizationRequest,
  createPendingConfirmationRequest,
  createPendingReconciliationRequest,
  createPendingReleaseRequest,
  createPreparedExecutionIntentV1,
  encodeArtifact,
  parseArtifact,
  artifactDigestOf,
  signingDigestBytes,
} from '@pfsense-mcp/authorization';
import type {
  AliasState,
  Artifact,
  ConfigHistoryCorroboration,
  PendingReconciliationRequestV1,
  SigningKey,
} from '@pfsense-mcp/authorization';
import { bytesToHex, canonicalize } from '@pfsense-mcp/canonical';
import { approveCodeOf, ed25519Sign, readEd25519PrivateKeyFile, readLabGatePrivateKeyFile, writeSecretFile } from '@pfsense-mcp/crypto';
import type { AuthorityRole } from '@pfsense-mcp/crypto';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const MAIN = join(ROOT, 'dist', 'apps', 'signer-cli', 'main.js');

/**
 * Fails clearly when the bundle is missing. test/build-signer.ts (the global setup) builds it before any test
 * file, whenever it is missing or older than its sources; tests run the built program, as users do.
 */
export function ensureBuilt(): void {
  if (!existsSync(MAIN)) throw new Error(`signer bundle missing: ${MAIN} (built by test/build-signer.ts)`);
}

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built signer with stdin a pipe (not a terminal). */
export function signer(args: readonly string[], input = ''): RunResult {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', input, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Parsed --json output; tests read fields freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to JSON output
export function json(r: RunResult): any {
  return JSON.parse(r.stdout);
}

export function tempDir(mode = 0o700): string {
  const d = mkdtempSync(join(tmpdir(), 'signer-test-'));
  chmodSync(d, mode);
  return d;
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function filesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}

/** keygen through the CLI; returns the key file, pub file and the loaded key. */
export function keygen(
  dir: string,
  role: string,
): { keyFile: string; pubFile: string; key: SigningKey & { keyId: string; publicKey: Uint8Array } } {
  const r = signer(['keygen', '--role', role, '--out', dir, '--json']);
  if (r.status !== 0) throw new Error(`keygen failed: ${r.stdout}${r.stderr}`);
  const out = json(r);
  return { keyFile: out.private_key_file, pubFile: out.public_key_file, key: readEd25519PrivateKeyFile(out.private_key_file) };
}

/**
 * The approval code of `request` for the key in `keyFile` (what the signer shows with that key): crypto's
 * approveCodeOf in the role the file records — the spec, computed independently of the signer's code path.
 */
export function codeFor(keyFile: string, request: Parameters<typeof artifactDigestOf>[0]): string {
  const k = keyFile.includes('lab-gate-')
    ? { ...readLabGatePrivateKeyFile(keyFile), role: 'lab-gate' as const }
    : readEd25519PrivateKeyFile(keyFile);
  if (k.role === null) throw new Error('codeFor: the key file records no role');
  return approveCodeOf(k.privateKey, k.role as AuthorityRole, artifactDigestOf(request));
}

export const PRE_STATE: AliasState = {
  name: 'web_servers',
  type: 'host',
  descr: 'Web servers',
  address: ['10.0.0.10', '10.0.0.11'],
  detail: ['www1', 'www2'],
};

export const appliance = createApplianceBinding({
  baseUrl: 'https://fw.example.test',
  tlsMode: 'https-system-ca',
  applianceId: 'NG1234abcd',
});

export function aliasIntent(pre: AliasState = PRE_STATE, newDescription = 'Public web servers') {
  return createPreparedExecutionIntentV1({
    capability: 'ALIAS_WRITE',
    endpoint_symbol: 'FIREWALL_ALIAS_PATCH',
    method: 'PATCH',
    adapter_semantics_version: ALIAS_DESCRIPTION_SEMANTICS_VERSION,
    natural_target: { alias_name: pre.name },
    precondition_fingerprint: aliasTargetFingerprint(pre),
    normalized_intent: {
      operation: 'set_firewall_alias_description_v1',
      raw_target_hint: { alias_name: pre.name },
      new_description: newDescription,
    },
    rollback_snapshot_digest: aliasSnapshotDigest(pre),
    rollback_plan_version: ALIAS_DESCRIPTION_ROLLBACK_PLAN_VERSION,
    appliance_binding_digest: applianceBindingDigest(appliance),
  });
}

const HOUR = 3_600_000;

export function authorizationRequest(
  server: SigningKey,
  o: { pre?: AliasState; desc?: string; issuedAt?: number; expiresAt?: number; operationId?: string } = {},
) {
  const pre = o.pre ?? PRE_STATE;
  const desc = o.desc ?? 'Public web servers';
  const now = Date.now();
  return createPendingAuthorizationRequest(
    {
      operationId: o.operationId ?? 'op-1',
      stepId: 'alias-description',
      riskClass: 'low',
      executionIntent: aliasIntent(pre, desc),
      appliance,
      review: { pre_state: pre, new_description: desc },
      issuedAt: o.issuedAt ?? now,
      expiresAt: o.expiresAt ?? now + HOUR,
    },
    server,
  );
}

export function confirmationRequest(server: SigningKey, contractId = 'contract-1') {
  const intent = aliasIntent();
  const now = Date.now();
  return createPendingConfirmationRequest(
    {
      contractId,
      operationId: 'op-1',
      intentDigest: aliasDescriptionIntentDigest(intent.payload.normalized_intent),
      targetFingerprint: intent.payload.precondition_fingerprint,
      executionIntent: intent,
      appliance,
      review: { pre_state: PRE_STATE, new_description: 'Public web servers' },
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}

/** The appliance and contract digests a reconciliation or release request carries (as the coordinator fills them). */
export function contractFacts(o: { targetFingerprint?: string; intentDigest?: string } = {}) {
  const intent = aliasIntent();
  return {
    appliance,
    targetFingerprint: o.targetFingerprint ?? intent.payload.precondition_fingerprint,
    intentDigest: o.intentDigest ?? aliasDescriptionIntentDigest(intent.payload.normalized_intent),
  };
}

/** "exactly one new revision since the send", pfrest's alias-update note (as the coordinator fills it). */
export const ONE_NEW_REVISION: ConfigHistoryCorroboration = Object.freeze({
  class: 'ONE',
  reason: null,
  new_count: 1,
  new_times: Object.freeze([1_796_000_000]),
  change_note: 'Modified Firewall Alias via API',
  descriptions_digest: 'd'.repeat(64),
});

export function reconciliationRequest(
  server: SigningKey,
  facts: Parameters<typeof contractFacts>[0] = {},
  configHistory: ConfigHistoryCorroboration | null = ONE_NEW_REVISION,
) {
  const observed = { ...PRE_STATE, descr: 'Public web servers' };
  const now = Date.now();
  return createPendingReconciliationRequest(
    {
      contractId: 'contract-1',
      operationId: 'op-1',
      stateVersion: 4,
      origin: 'EXECUTING',
      observedFingerprint: aliasTargetFingerprint(observed),
      observedLocator: 3,
      observedState: observed,
      review: { pre_state: PRE_STATE, new_description: 'Public web servers' },
      configHistory,
      observedPfTable: null,
      ...contractFacts(facts),
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}

/** A version-1 reconciliation request (no corroboration), as a build before version 2 wrote them. */
export function reconciliationRequestV1(server: SigningKey): PendingReconciliationRequestV1 {
  const {
    config_history: _dropped,
    observed_pf_table: _table,
    ...payload
  } = JSON.parse(JSON.stringify(reconciliationRequest(server).payload)) as Record<string, unknown>;
  const kind = 'pfsense-mcp/reconciliation-request' as const;
  const signature = bytesToHex(ed25519Sign(server.privateKey, signingDigestBytes(kind, 1, payload)));
  return parseArtifact(canonicalize({ kind, version: 1, payload, proof: { signature } })) as PendingReconciliationRequestV1;
}

export function releaseRequest(server: SigningKey, facts: Parameters<typeof contractFacts>[0] = {}) {
  const now = Date.now();
  return createPendingReleaseRequest(
    {
      contractId: 'contract-1',
      operationId: 'op-1',
      stateVersion: 7,
      review: { pre_state: PRE_STATE, new_description: 'Public web servers' },
      ...contractFacts(facts),
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}

let counter = 0;
/** Writes an artifact (or raw text) as an owner-only 0600 file, as the server outbox does. */
export function writeArtifact(dir: string, a: Artifact | string): string {
  const path = join(dir, `in-${counter++}.json`);
  writeSecretFile(path, typeof a === 'string' ? a : encodeArtifact(a));
  return path;
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
