// The saved state of an appliance run that stopped for the owner (docs/DESIGN.md §7): what `--resume RUN_ID`
// needs to continue it, signed with the runner's own request key (lab-request.key) so that a changed file is
// refused. It holds ids, digests, counts and public keys — never a private key; the run's directory beside it
// holds the scenario stores (their master key files, 0600) until the run ends.
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex, hexToBytes } from '@pfsense-mcp/canonical';
import { KeyFileError, ed25519Sign, ed25519Verify, readSecretFile, writeSecretFile } from '@pfsense-mcp/crypto';
import { z } from 'zod';
import type { Preflight } from './appliance-gate.js';
import type { LabConfig } from './lab-config.js';
import type { RunnerRequestKey } from './lab-directory.js';
import { LabError } from './lab-error.js';
import type { LabPin } from './lab-keys.js';
import type { ScenarioSnapshot } from './run-scenario.js';
import { hex64Schema as hex64, ownerPauseShape, scenarioEventSchema, sendsSchema, signedRecordSchema } from './scenario-evidence-schema.js';
import { SCENARIO_IDS } from './scenario-definition.js';
import type { ScenarioId } from './scenario-definition.js';
import type { ScenarioResult } from './scenario-result.js';

/** A refusal of `--resume` (exit 3, nothing changed). */
export class ResumeError extends LabError {}

export const RUN_STATE_FILE = 'run-state.json';
const RUN_ID = /^[0-9a-f]{32}$/;
const MAX_STATE_BYTES = 8 * 1024 * 1024;
const SIGNING_CONTEXT = 'pfsense-mcp-lab/run-state/v1\n';

export interface RunState {
  readonly version: 1;
  readonly run_id: string;
  readonly started_at: string;
  readonly ids: readonly ScenarioId[];
  /** The appliance and gate the run is bound to: a resume must find exactly these. */
  readonly appliance: {
    readonly url: string;
    readonly tls_mode: LabConfig['tlsMode'];
    readonly candidate: string;
    readonly binding_digest: string;
    readonly deadline: number;
    /** Digest of the gate receipt (copied into the run's directory as gate-receipt.json). */
    readonly receipt_digest: string;
  };
  readonly preflight: Preflight;
  /** Every alias as preflight found it (the closing read-back compares with it) and the candidate's A. */
  readonly found: string;
  readonly description_a: string;
  /** Scenarios finished by earlier processes of the run, in order. */
  readonly results: readonly ScenarioResult[];
  readonly paused: ScenarioSnapshot;
  /** How many times the run stopped for the owner so far (names this pause's evidence directory). */
  readonly pauses: number;
  /** The public halves of the run keys of every earlier process (a resume pins them; it makes fresh keys). */
  readonly earlier_keys: readonly { readonly role: LabPin['role']; readonly public_key: string }[];
}

const snapshotSchema = z.strictObject({
  scenario: z.enum(SCENARIO_IDS),
  phase: z.enum(['in-process', 'after-restart']),
  next_step: z.number().int().min(0).max(64),
  pending: z.strictObject(ownerPauseShape),
  started_at_ms: z.number().int().positive(),
  subject_contract_id: z.string().max(128).nullable(),
  orchestration_contract_ids: z.array(z.string().max(128)).max(16),
  baseline: z.strictObject({ fingerprint: hex64, bFingerprint: hex64, siblings: z.string().max(4 * 1024 * 1024) }),
  appliance_binding_digest: hex64.nullable(),
  reconciled_on_restart: z.number().int().min(0).nullable(),
  counts: sendsSchema,
  signed: z.array(signedRecordSchema).max(64),
  events: z.array(scenarioEventSchema).max(1000),
});
const stateSchema = z.strictObject({
  version: z.literal(1),
  run_id: z.string().regex(RUN_ID),
  started_at: z.string().max(40),
  ids: z.array(z.enum(SCENARIO_IDS)).min(1).max(SCENARIO_IDS.length),
  appliance: z.strictObject({
    url: z.string().max(2048),
    tls_mode: z.enum(['https-system-ca', 'https-ca-file', 'http-loopback']),
    candidate: z.string().max(64),
    binding_digest: hex64,
    deadline: z.number().int().positive(),
    receipt_digest: hex64,
  }),
  preflight: z.strictObject({
    pfrest_version: z.string().max(32).nullable(),
    candidate_matches: z.literal(1),
    sibling_count: z.number().int().min(0),
    siblings_digest: hex64,
    pending_subsystems: z.array(z.string().max(64)).max(64),
  }),
  found: z.string().max(4 * 1024 * 1024),
  description_a: z.string().max(4096),
  // Written by this runner and authenticated by the signature above it; kept as the report's entries.
  results: z.array(z.record(z.string(), z.unknown())).max(SCENARIO_IDS.length),
  paused: snapshotSchema,
  pauses: z.number().int().min(1).max(64),
  earlier_keys: z
    .array(z.strictObject({ role: z.enum(['plan-authorization', 'confirmation', 'server-request']), public_key: hex64 }))
    .max(96),
});
const fileSchema = z.strictObject({ signature: z.string().regex(/^[0-9a-f]{128}$/), state: z.unknown() });

const message = (text: string): Uint8Array => new TextEncoder().encode(SIGNING_CONTEXT + text);

/** The run's directory next to the lab config (fixed name; the run id is 32 hex). */
export function runDirOf(config: LabConfig, runId: string): string {
  if (!RUN_ID.test(runId)) throw new ResumeError('RESUME_UNKNOWN_RUN', '--resume needs a run id (32 hex, printed when the run stopped)');
  return join(config.labDir, `lab-run-${runId}`);
}

/** A new run id and its 0700 directory next to the lab config. */
export function createRunDir(config: LabConfig): { runId: string; runDir: string } {
  const runId = randomBytes(16).toString('hex');
  const runDir = runDirOf(config, runId);
  mkdirSync(runDir, { mode: 0o700 });
  return { runId, runDir };
}

/** Writes the state (signed by the runner's request key) by a fresh file renamed over the old one. */
export function writeRunState(runDir: string, state: RunState, runner: RunnerRequestKey): void {
  const text = JSON.stringify(state);
  const signature = bytesToHex(ed25519Sign(runner.privateKey, message(text)));
  const tmp = join(runDir, `.${RUN_STATE_FILE}.${randomBytes(6).toString('hex')}`);
  writeSecretFile(tmp, `${JSON.stringify({ signature, state })}\n`);
  renameSync(tmp, join(runDir, RUN_STATE_FILE));
}

/** Reads and authenticates a run's state: unknown run id, unsafe or changed file, or another runner: refused. */
export function readRunState(config: LabConfig, runId: string, runner: RunnerRequestKey): { runDir: string; state: RunState } {
  const runDir = runDirOf(config, runId);
  let isDir: boolean;
  try {
    isDir = lstatSync(runDir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir || !existsSync(join(runDir, RUN_STATE_FILE)))
    throw new ResumeError('RESUME_UNKNOWN_RUN', '--resume: no stopped run with this id next to the lab config');
  let raw: unknown;
  try {
    raw = JSON.parse(readSecretFile(join(runDir, RUN_STATE_FILE), { maxBytes: MAX_STATE_BYTES }).toString('utf8'));
  } catch (e) {
    if (e instanceof KeyFileError)
      throw new ResumeError('RESUME_STATE_UNSAFE', `--resume: the run's state file: ${e.code} (owner-only regular file)`);
    throw new ResumeError('RESUME_STATE_TAMPERED', "--resume: the run's state file is not readable JSON");
  }
  const file = fileSchema.safeParse(raw);
  if (!file.success) throw new ResumeError('RESUME_STATE_TAMPERED', "--resume: the run's state file has another shape");
  const text = JSON.stringify(file.data.state);
  if (!ed25519Verify(runner.publicKey, message(text), hexToBytes(file.data.signature))) {
    throw new ResumeError(
      'RESUME_STATE_TAMPERED',
      "--resume: the run's state file was changed (its signature by this lab directory's request key does not verify)",
    );
  }
  const state = stateSchema.safeParse(file.data.state);
  if (!state.success || state.data.run_id !== runId)
    throw new ResumeError('RESUME_STATE_TAMPERED', "--resume: the run's state file does not describe this run");
  return { runDir, state: state.data as unknown as RunState };
}

/** The run ended: its directory (stores, master keys, inboxes, the state) goes; the report keeps digests. */
export function removeRunDir(runDir: string): void {
  rmSync(runDir, { recursive: true, force: true });
}
