// The lab runner against a disposable test appliance (docs/DESIGN.md §7): the pending gate request, the check of the
// operator-signed gate receipt before any request, the read-only preflight, and the closing read-back.
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  ArtifactFormatError,
  ArtifactKind,
  ArtifactVerificationError,
  applianceBindingDigest,
  artifactDigestOf,
  createLabGateRequest,
  encodeArtifact,
  parseArtifactOfKind,
  verifyArtifactSignature,
  verifyLabGateReceipt,
} from '@pfsense-mcp/authorization';
import type { LabGateReceipt } from '@pfsense-mcp/authorization';
import { KeyFileError, PinnedAuthoritySet, readSecretFile, writeSecretFile } from '@pfsense-mcp/crypto';
import { aliasUsageOf, isUsedByEnabledRule } from '@pfsense-mcp/adapters';
import { z } from 'zod';
import type { LabConfig } from './lab-config.js';
import { gateAuthorities, loadOrCreateRequestKey } from './lab-directory.js';
import type { RunnerRequestKey } from './lab-directory.js';
import { LabError } from './lab-error.js';
import { openApplianceReader } from './runtime-factory.js';
import type { ApplianceReader, LabTarget } from './runtime-factory.js';
import { isScenarioId } from './scenario-definition.js';
import { scenarioOf } from './scenario-registry.js';

/** Refused before anything changed (exit 3): the gate receipt, the appliance found, or the preflight. */
export class LabGateError extends LabError {}

/** How long a gate requested now stays open: the receipt's absolute deadline is this far from the request. */
export const GATE_LEASE_MS = 60 * 60 * 1000;

export function targetOf(config: LabConfig): LabTarget {
  return Object.freeze({
    url: config.url,
    apiKeyFile: config.apiKeyFile,
    caFile: config.caFile,
    tlsMode: config.tlsMode,
    simulated: false,
  });
}

/** The binding digest of the appliance found, checked against the lab config's expected_appliance when set. */
function checkExpectedAppliance(config: LabConfig, binding: unknown): string {
  const digest = applianceBindingDigest(binding);
  if (config.expectedAppliance !== null && digest !== config.expectedAppliance) {
    throw new LabGateError('GATE_WRONG_APPLIANCE', 'the appliance found is not the expected_appliance of the lab config');
  }
  return digest;
}

function pendingRequestPath(config: LabConfig, gateId: string): string {
  return join(config.labDir, `lab-gate-request-${gateId}.json`);
}

/**
 * --request-gate: reads the appliance binding (GET only), signs a pending gate request with the runner's own
 * request key and writes it next to the lab config (0600, exclusive). Returns its absolute path and the
 * runner's public key (what the signer takes as --server-key).
 */
export async function requestGate(
  config: LabConfig,
  scenarios: readonly string[],
  nowMs: number,
  leaseMs: number = GATE_LEASE_MS,
): Promise<{ pendingRequest: string; requestPublicKey: string; deadline: number; applianceBindingDigest: string }> {
  const runner = loadOrCreateRequestKey(config);
  try {
    const reader = openApplianceReader(targetOf(config));
    let binding;
    try {
      binding = await reader.binding();
    } catch {
      throw new LabGateError('APPLIANCE_UNREACHABLE', 'the appliance binding could not be read (pfrest reachable? key valid?)');
    } finally {
      reader.close();
    }
    const digest = checkExpectedAppliance(config, binding);
    const gateId = randomBytes(16).toString('hex');
    const deadline = nowMs + leaseMs;
    const request = createLabGateRequest(
      { gateId, appliance: binding, candidateAlias: config.candidateAlias, scenarios, issuedAt: nowMs, deadline },
      runner,
    );
    const path = pendingRequestPath(config, gateId);
    writeSecretFile(path, encodeArtifact(request));
    return { pendingRequest: path, requestPublicKey: runner.publicHex, deadline, applianceBindingDigest: digest };
  } finally {
    runner.privateKey.fill(0);
  }
}

/** The binding digest of the appliance a lab config names (GETs only); a resume compares it with the run's. */
export async function readApplianceBindingDigest(config: LabConfig): Promise<string> {
  const reader = openApplianceReader(targetOf(config));
  try {
    return applianceBindingDigest(await reader.binding());
  } catch {
    throw new LabGateError('APPLIANCE_UNREACHABLE', 'the appliance binding could not be read (pfrest reachable? key valid?)');
  } finally {
    reader.close();
  }
}

function refusal(e: unknown, what: string): never {
  if (e instanceof ArtifactVerificationError || e instanceof ArtifactFormatError || e instanceof KeyFileError) {
    throw new LabGateError(`GATE_${e.code}`, `${what} refused (${e.code})`);
  }
  throw e;
}

/**
 * The gate receipt, checked before any request to the appliance: owner-only file, canonical receipt, signed in
 * role lab-gate by the pinned lab-gate.pub, not past its deadline, answering a gate request this runner wrote
 * for this lab config's URL and TLS mode, naming the lab config's candidate (and expected_appliance when set)
 * and covering every selected scenario.
 */
export function checkGateReceipt(config: LabConfig, receiptFile: string, scenarios: readonly string[], nowMs: number): LabGateReceipt {
  const runner: RunnerRequestKey = loadOrCreateRequestKey(config);
  runner.privateKey.fill(0);
  const pins = gateAuthorities(config, runner);
  let receipt: LabGateReceipt;
  try {
    receipt = parseArtifactOfKind(readSecretFile(receiptFile, { maxBytes: 65_536 }), ArtifactKind.LAB_GATE_RECEIPT);
  } catch (e) {
    return refusal(e, '--gate-receipt');
  }
  let request;
  try {
    request = parseArtifactOfKind(
      readSecretFile(pendingRequestPath(config, receipt.payload.gate_id), { maxBytes: 65_536 }),
      ArtifactKind.LAB_GATE_REQUEST,
    );
    verifyArtifactSignature(
      request,
      PinnedAuthoritySet.of([{ keyId: runner.keyId, publicKey: runner.publicKey, role: 'server-request', active: true }]),
    );
  } catch (e) {
    if (e instanceof KeyFileError && e.code === 'NOT_FOUND')
      throw new LabGateError('GATE_UNKNOWN_REQUEST', '--gate-receipt answers no gate request of this lab config');
    return refusal(e, 'the gate request of --gate-receipt');
  }
  if (artifactDigestOf(request) !== receipt.payload.request_digest)
    throw new LabGateError('GATE_BINDING_MISMATCH', '--gate-receipt does not answer its gate request');
  if (request.payload.appliance.base_url !== config.url || request.payload.appliance.tls_mode !== config.tlsMode) {
    throw new LabGateError('GATE_BINDING_MISMATCH', '--gate-receipt was requested for another appliance URL or TLS mode');
  }
  try {
    return verifyLabGateReceipt(receipt, {
      gateAuthorities: pins,
      nowMs,
      expected: {
        applianceBindingDigest: config.expectedAppliance ?? request.payload.appliance_binding_digest,
        candidateAlias: config.candidateAlias,
        scenarios,
        requestKeyId: runner.keyId,
      },
    });
  } catch (e) {
    return refusal(e, '--gate-receipt');
  }
}

const applyStatusSchema = z.object({ applied: z.boolean().optional(), pending_subsystems: z.array(z.string()).max(64).optional() }).loose();
const aliasNameSchema = z.object({ name: z.string(), descr: z.string().optional(), type: z.string().optional() }).loose();

export interface Preflight {
  readonly pfrest_version: string | null;
  readonly candidate_matches: 1;
  readonly sibling_count: number;
  /** sha256 of the JSON of every other alias, as the appliance returned them. */
  readonly siblings_digest: string;
  readonly pending_subsystems: readonly string[];
}

export interface PreflightResult {
  readonly preflight: Preflight;
  readonly applianceBindingDigest: string;
  /** The candidate's description as found (A); never printed. */
  readonly descriptionA: string;
  /** Every alias as found, for the closing read-back. */
  readonly found: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The entries scenarios block an address in the candidate: it must be a host or network alias that an enabled
 * filter rule uses (otherwise pf has no table for it and the capability refuses it, docs/DESIGN.md §5).
 */
async function checkBlockable(reader: ApplianceReader, type: unknown, candidate: string): Promise<void> {
  let used: boolean;
  try {
    used = isUsedByEnabledRule(aliasUsageOf(await reader.rules(), candidate));
  } catch {
    throw new LabGateError('PREFLIGHT_RULES_UNREADABLE', 'preflight: the filter rules could not be read');
  }
  if ((type !== 'host' && type !== 'network') || !used)
    throw new LabGateError(
      'PREFLIGHT_CANDIDATE_NOT_BLOCKABLE',
      'preflight: the entries scenarios need a host or network candidate alias that an enabled filter rule uses',
    );
}

/**
 * Read-only preflight before any change: pfrest reachable and its version recorded, the appliance the one the
 * receipt names, the candidate exactly once, the siblings recorded, nothing pending in /api/v2/firewall/apply.
 */
export async function preflight(
  config: LabConfig,
  receipt: LabGateReceipt,
  deadlineCheck: (what: string) => void,
): Promise<PreflightResult> {
  const reader = openApplianceReader(targetOf(config));
  try {
    deadlineCheck('preflight');
    let binding;
    try {
      binding = await reader.binding();
    } catch {
      throw new LabGateError('APPLIANCE_UNREACHABLE', 'preflight: the appliance binding could not be read (pfrest reachable? key valid?)');
    }
    const digest = applianceBindingDigest(binding);
    if (digest !== receipt.payload.appliance_binding_digest)
      throw new LabGateError('GATE_WRONG_APPLIANCE', 'preflight: the appliance found is not the one the gate receipt names');
    const version = await reader.restApiVersion().catch(() => null);
    const v = (version as { current_version?: unknown } | null)?.current_version;
    const aliases = await reader.aliases();
    const named = aliases.map((a) => aliasNameSchema.safeParse(a)).map((r) => (r.success ? r.data : null));
    const matches = named.filter((a) => a?.name === config.candidateAlias);
    if (matches.length === 0) throw new LabGateError('PREFLIGHT_CANDIDATE_MISSING', 'preflight: the candidate alias does not exist');
    if (matches.length > 1)
      throw new LabGateError('PREFLIGHT_CANDIDATE_DUPLICATED', 'preflight: the candidate alias exists more than once');
    const descr = matches[0]?.descr;
    if (typeof descr !== 'string')
      throw new LabGateError('PREFLIGHT_CANDIDATE_UNREADABLE', 'preflight: the candidate alias has no description field');
    if (receipt.payload.scenarios.some((id) => isScenarioId(id) && scenarioOf(id).capability === 'entries'))
      await checkBlockable(reader, matches[0]?.type, config.candidateAlias);
    const apply = applyStatusSchema.safeParse(await reader.applyStatus());
    if (!apply.success)
      throw new LabGateError('PREFLIGHT_APPLY_UNREADABLE', 'preflight: /api/v2/firewall/apply answered an unreadable status');
    const pending = apply.data.pending_subsystems ?? [];
    if (pending.length > 0 || apply.data.applied === false)
      throw new LabGateError('PREFLIGHT_PENDING', 'preflight: something is pending in /api/v2/firewall/apply; apply or discard it first');
    const siblings = JSON.stringify(aliases.filter((a) => (a as { name?: unknown }).name !== config.candidateAlias));
    return Object.freeze({
      preflight: Object.freeze({
        pfrest_version: typeof v === 'string' && /^[A-Za-z0-9._-]{1,32}$/.test(v) ? v : null,
        candidate_matches: 1 as const,
        sibling_count: aliases.length - 1,
        siblings_digest: sha256(siblings),
        pending_subsystems: Object.freeze([...pending]),
      }),
      applianceBindingDigest: digest,
      descriptionA: descr,
      found: JSON.stringify(aliases),
    });
  } finally {
    reader.close();
  }
}

export interface ClosingReadBack {
  /** Every alias byte-identical to what preflight found; null when the read could not (or may not) happen. */
  readonly exactly_as_found: boolean | null;
  /** Subsystems pending after the run (the alias write never applies; pfSense shows it as pending). */
  readonly pending_subsystems: readonly string[] | null;
  readonly reason: string | null;
}

/** The closing step: read every alias back (after the deadline check) and compare with what was found. */
export async function closingReadBack(config: LabConfig, found: string, deadlineCheck: (what: string) => void): Promise<ClosingReadBack> {
  try {
    deadlineCheck('closing read-back');
  } catch (e) {
    return { exactly_as_found: null, pending_subsystems: null, reason: e instanceof LabError ? e.code : 'not read' };
  }
  const reader: ApplianceReader = openApplianceReader(targetOf(config));
  try {
    const aliases = await reader.aliases();
    const apply = applyStatusSchema.safeParse(await reader.applyStatus());
    return {
      exactly_as_found: JSON.stringify(aliases) === found,
      pending_subsystems: apply.success ? Object.freeze([...(apply.data.pending_subsystems ?? [])]) : null,
      reason: null,
    };
  } catch {
    return { exactly_as_found: null, pending_subsystems: null, reason: 'READ_FAILED' };
  } finally {
    reader.close();
  }
}
