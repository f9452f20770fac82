import { dirname, isAbsolute, resolve } from 'node:path';
import { isAliasName } from '@pfsense-mcp/adapters';
import { normalizeApplianceBaseUrl } from '@pfsense-mcp/authorization';
import { KeyFileError, readSecretFile } from '@pfsense-mcp/crypto';
import { z } from 'zod';
import { LabError } from './lab-error.js';

/** A refusal of the lab configuration (exit 2): names the field and the rule, never a value. */
export class LabConfigError extends LabError {}

/**
 * The owner-only lab configuration of a disposable test appliance. Exactly these fields; anything else is
 * refused. Relative paths are relative to the configuration file's directory (the lab directory).
 */
const labConfigSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  api_key_file: z.string().min(1).max(4096),
  candidate_alias: z.string().refine(isAliasName, { message: 'must be a pfSense alias name' }),
  ca_file: z.string().min(1).max(4096).optional(),
  /** The appliance binding digest (64 hex) the run must find. */
  expected_appliance: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** Only for a simulator on 127.0.0.1: plain http. */
  allow_http_loopback: z.boolean().optional(),
  /**
   * The owner's reconciliation public key (a .pub from `pfsense-mcp-signer keygen --role reconciliation`):
   * against an appliance it is the run's only reconciliation authority (decisions and releases pause for it).
   */
  reconciliation_public_key_file: z.string().min(1).max(4096).optional(),
});

export interface LabConfig {
  readonly configFile: string;
  /** The directory of the configuration: the runner's request key and the pinned gate key live there. */
  readonly labDir: string;
  /** Normalized base URL. */
  readonly url: string;
  readonly apiKeyFile: string;
  readonly candidateAlias: string;
  readonly caFile: string | null;
  readonly expectedAppliance: string | null;
  readonly allowHttpLoopback: boolean;
  /** The owner's reconciliation public key file (absolute), or null: scenarios that need it are refused. */
  readonly reconciliationPublicKeyFile: string | null;
  /** The TLS mode the transport enforces (part of the appliance binding). */
  readonly tlsMode: 'https-system-ca' | 'https-ca-file' | 'http-loopback';
}

const MAX_CONFIG_BYTES = 16 * 1024;

/** Reads and checks the lab configuration: owner-only regular file (0600/0400), strict JSON, exact fields. */
export function loadLabConfig(file: string, cwd: string): LabConfig {
  const configFile = resolve(cwd, file);
  let text: string;
  try {
    text = readSecretFile(configFile, { maxBytes: MAX_CONFIG_BYTES }).toString('utf8');
  } catch (e) {
    if (e instanceof KeyFileError)
      throw new LabConfigError('LAB_CONFIG', `--lab-config: ${e.code} (an owner-only regular file, mode 0600 or 0400)`);
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new LabConfigError('LAB_CONFIG', '--lab-config: must be a JSON object');
  }
  const parsed = labConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue?.code === 'unrecognized_keys'
        ? `unknown field ${JSON.stringify(issue.keys[0]?.slice(0, 40) ?? '')}`
        : `field "${String(issue?.path[0] ?? '')}"`;
    throw new LabConfigError(
      'LAB_CONFIG',
      `--lab-config: ${where} refused (fields: url, api_key_file, candidate_alias, ca_file?, expected_appliance?, allow_http_loopback?, reconciliation_public_key_file?)`,
    );
  }
  const c = parsed.data;
  let url: string;
  try {
    url = normalizeApplianceBaseUrl(c.url);
  } catch {
    throw new LabConfigError('LAB_CONFIG', '--lab-config: "url" must be an absolute http(s) URL without credentials, query or fragment');
  }
  const u = new URL(url);
  const allowHttpLoopback = c.allow_http_loopback === true;
  if (u.protocol === 'http:') {
    if (!allowHttpLoopback)
      throw new LabConfigError(
        'LAB_CONFIG',
        '--lab-config: "url" must be https (plain http only with allow_http_loopback for a simulator on 127.0.0.1)',
      );
    if (u.hostname !== '127.0.0.1')
      throw new LabConfigError('LAB_CONFIG', '--lab-config: allow_http_loopback is only for a simulator on 127.0.0.1');
    if (c.ca_file !== undefined) throw new LabConfigError('LAB_CONFIG', '--lab-config: "ca_file" needs an https url');
  }
  const labDir = dirname(configFile);
  const inDir = (p: string) => (isAbsolute(p) ? p : resolve(labDir, p));
  const caFile = c.ca_file === undefined ? null : inDir(c.ca_file);
  return Object.freeze({
    configFile,
    labDir,
    url,
    apiKeyFile: inDir(c.api_key_file),
    candidateAlias: c.candidate_alias,
    caFile,
    expectedAppliance: c.expected_appliance ?? null,
    allowHttpLoopback,
    reconciliationPublicKeyFile: c.reconciliation_public_key_file === undefined ? null : inDir(c.reconciliation_public_key_file),
    tlsMode: u.protocol === 'http:' ? 'http-loopback' : caFile === null ? 'https-system-ca' : 'https-ca-file',
  });
}
