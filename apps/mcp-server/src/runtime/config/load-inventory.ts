import { isAbsolute } from 'node:path';
import { readSecretFile } from '@pfsense-mcp/crypto';
// zod's mini build, as load-config.ts: the configuration is read before the first reply (docs/DESIGN.md §8).
import * as z from 'zod/mini';
import { APPLIANCE_NAME, MAX_APPLIANCES, type ApplianceConfig } from './appliance-config.js';
import { ConfigError } from './config-error.js';
import {
  checkWriteFields,
  inventoryPath,
  refuseSharedWriteDirectories,
  WRITE_FIELD_RULES,
  WRITE_FIELD_SCHEMAS,
} from './inventory-write-fields.js';
import { ownerOnlyFileRule } from './owner-only-file-rule.js';
import type { WriteEnvironment } from './write-environment.js';
import { parseBaseUrl } from './parse-base-url.js';

export const INVENTORY_VARIABLE = 'PFSENSE_INVENTORY_FILE';
/** An inventory of MAX_APPLIANCES entries is a few tens of KiB; the cap keeps a wrong file from being parsed. */
const MAX_INVENTORY_BYTES = 1024 * 1024;
/** Problems listed in the one startup message; the count says how many more there were. */
const MAX_LISTED_PROBLEMS = 20;
const MIN_RESPONSE_TIMEOUT_MS = 500;
const MAX_RESPONSE_TIMEOUT_MS = 10 * 60_000;

const path = inventoryPath;
// Unknown fields are refused, so a file written for a later release fails loudly instead of being half-read.
const EntrySchema = z.strictObject({
  name: z.string().check(z.regex(APPLIANCE_NAME)),
  url: inventoryPath,
  api_key_file: path,
  ca_file: z.optional(path),
  allow_http_loopback: z.optional(z.boolean()),
  // A remote site on a slow link may need longer than the default; a test, a short one.
  response_timeout_ms: z.optional(z.int().check(z.minimum(MIN_RESPONSE_TIMEOUT_MS), z.maximum(MAX_RESPONSE_TIMEOUT_MS))),
  ...WRITE_FIELD_SCHEMAS,
});
const FIELDS: ReadonlySet<string> = new Set(Object.keys(EntrySchema.shape));

const RULES: Readonly<Record<string, string>> = Object.freeze({
  name: 'must be a short token: a-z, 0-9, _ and -, at most 32, starting with a letter or digit',
  url: 'must be a string (the appliance origin)',
  api_key_file: 'must be an absolute path (a string)',
  ca_file: 'must be an absolute path (a string)',
  allow_http_loopback: 'must be true or false',
  response_timeout_ms: `must be a whole number of milliseconds from ${MIN_RESPONSE_TIMEOUT_MS} to ${MAX_RESPONSE_TIMEOUT_MS}`,
  ...WRITE_FIELD_RULES,
});

/**
 * Reads PFSENSE_INVENTORY_FILE: an owner-only JSON list of appliances `{name, url, api_key_file, ca_file?,
 * allow_http_loopback?, response_timeout_ms?}` and the write fields (inventory-write-fields.ts). Validated as a whole: every problem is named by the appliance (its position and, when
 * valid, its name) and the field, never by a value, in one ConfigError. Names are unique; two entries whose
 * normalized URLs are the same are refused (one appliance read twice would double every fleet answer), and so
 * are two entries sharing a write directory.
 * Reads no key file (the server does that per appliance, as for PFSENSE_API_KEY_FILE).
 */
export function loadInventory(file: string): readonly ApplianceConfig[] {
  if (!isAbsolute(file)) throw new ConfigError('RELATIVE_PATH', INVENTORY_VARIABLE, `${INVENTORY_VARIABLE} must be an absolute path`);
  let text: string;
  try {
    text = readSecretFile(file, { maxBytes: MAX_INVENTORY_BYTES }).toString('utf8');
  } catch (error) {
    const { code, reason } = ownerOnlyFileRule(error);
    const said = code === 'BAD_FORMAT' ? 'is empty' : code === 'TOO_LARGE' ? 'is larger than 1 MiB' : reason;
    throw new ConfigError(`INVENTORY_FILE_${code}`, INVENTORY_VARIABLE, `${INVENTORY_VARIABLE} ${said}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError('INVENTORY_NOT_JSON', INVENTORY_VARIABLE, `${INVENTORY_VARIABLE} is not JSON`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_APPLIANCES) {
    throw new ConfigError(
      'INVENTORY_NOT_A_LIST',
      INVENTORY_VARIABLE,
      `${INVENTORY_VARIABLE} must hold a JSON list of 1 to ${MAX_APPLIANCES} appliances`,
    );
  }
  const problems: string[] = [];
  const appliances: ApplianceConfig[] = [];
  const names = new Map<string, number>();
  const urls = new Map<string, string>();
  const labelled: { label: string; write: WriteEnvironment | null }[] = [];
  parsed.forEach((entry: unknown, index) => {
    const rawName = (entry as { name?: unknown } | null)?.name;
    const label = `appliance ${index + 1}${typeof rawName === 'string' && APPLIANCE_NAME.test(rawName) ? ` (${rawName})` : ''}`;
    const appliance = checkEntry(entry, label, problems);
    if (appliance === null) return;
    const earlier = names.get(appliance.name);
    if (earlier !== undefined) problems.push(`${label}: name is also the name of appliance ${earlier}`);
    else names.set(appliance.name, index + 1);
    const sameUrl = urls.get(appliance.url);
    if (sameUrl !== undefined) problems.push(`${label}: url is the same appliance as ${sameUrl}`);
    else urls.set(appliance.url, label);
    appliances.push(appliance);
    labelled.push({ label, write: appliance.write ?? null });
  });
  refuseSharedWriteDirectories(labelled, problems);
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS).join('; ');
    const more = problems.length > MAX_LISTED_PROBLEMS ? `; and ${problems.length - MAX_LISTED_PROBLEMS} more` : '';
    const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
    throw new ConfigError('INVENTORY_INVALID', INVENTORY_VARIABLE, `${INVENTORY_VARIABLE} has ${count}: ${listed}${more}`);
  }
  return Object.freeze(appliances.map((a) => Object.freeze(a)));
}

/** One entry checked field by field; its problems are pushed (all of them), null when it has any. */
function checkEntry(entry: unknown, label: string, problems: string[]): ApplianceConfig | null {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    problems.push(`${label} must be an object`);
    return null;
  }
  const before = problems.length;
  const result = EntrySchema.safeParse(entry);
  // Fields whose type or form is wrong; the others are still checked for their own rules, so one pass names all.
  const bad = new Set<string>();
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        // A key is echoed only when it looks like a field name, so stray text (or a pasted key) is never printed.
        const keys = issue.keys.map((k) => (/^[a-z_]{1,32}$/.test(k) ? k : '(unprintable)')).join(', ');
        problems.push(`${label}: unknown field ${keys} (known: ${[...FIELDS].join(', ')})`);
        continue;
      }
      const field = String(issue.path[0] ?? '');
      bad.add(field);
      const missing = FIELDS.has(field) && !Object.hasOwn(entry, field);
      problems.push(
        `${label}: ${field} ${missing ? 'is required' : issue.code === 'too_big' ? 'is too long' : (RULES[field] ?? 'is not valid')}`,
      );
    }
  }
  const e = entry as Record<string, unknown>;
  const good = (field: string): string | null => (bad.has(field) || typeof e[field] !== 'string' ? null : (e[field] as string));
  const allowHttpLoopback = e['allow_http_loopback'] === true;
  const rawUrl = good('url');
  let url = '';
  if (rawUrl !== null) {
    try {
      url = parseBaseUrl(rawUrl, allowHttpLoopback, {
        variable: `${label}: url`,
        keySetting: 'api_key_file',
        loopbackSetting: '"allow_http_loopback": true',
      });
    } catch (error) {
      problems.push(error instanceof ConfigError ? error.message : `${label}: url is not valid`);
    }
  }
  const apiKeyFile = good('api_key_file');
  const caFile = good('ca_file');
  if (apiKeyFile !== null && !isAbsolute(apiKeyFile)) problems.push(`${label}: api_key_file must be an absolute path`);
  if (caFile !== null && !isAbsolute(caFile)) problems.push(`${label}: ca_file must be an absolute path`);
  const write = checkWriteFields(e, bad, label, problems);
  if (problems.length > before) return null;
  const timeout = e['response_timeout_ms'];
  return {
    name: e['name'] as string,
    url,
    apiKeyFile: apiKeyFile as string,
    caFile,
    allowHttpLoopback,
    responseTimeoutMs: typeof timeout === 'number' ? timeout : null,
    write,
  };
}
