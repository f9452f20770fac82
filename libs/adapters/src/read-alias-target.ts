import { TargetResolutionError } from './adapter-error.js';
import { AdapterInputError } from './adapter-error.js';
import { parseAliasIdentity } from './alias-description-intent.js';
import { ALIAS_TARGET_FIELDS, URL_ALIAS_TYPES, parseAliasTarget } from './alias-target.js';
import { projectKeys } from './parse-closed-object.js';
import type { AliasTarget } from './alias-target.js';
import type { TargetReader } from './capability-adapter.js';

/** The one authoritative read of this capability (docs/DESIGN.md §5). */
export const ALIASES_PATH = '/api/v2/firewall/aliases';

function hasStringName(item: unknown): boolean {
  return typeof item === 'object' && item !== null && !Array.isArray(item) && typeof (item as { name?: unknown }).name === 'string';
}

/**
 * Resolves `identity` ({alias_name}) to exactly one ordinary alias from every page of
 * GET /api/v2/firewall/aliases — the reader's `readAllPages`, and nothing else. Matching is exact and
 * case-sensitive on the name as the appliance returns it (never normalized). Fails closed on: an item that
 * is not an object with a string name (uniqueness cannot be proven), zero or several matches, a URL-type or
 * other unsupported alias, a missing or malformed field, and an `id` that is not the item's position (pfrest
 * ids are array indices; anything else means the listing cannot be trusted as a locator).
 */
export async function readAliasTarget(reader: TargetReader, identity: unknown): Promise<AliasTarget> {
  const { alias_name } = parseAliasIdentity(identity, 'identity');
  if (reader === null || typeof reader !== 'object' || typeof reader.readAllPages !== 'function') {
    throw new AdapterInputError('NOT_OBJECT', 'reader', 'must provide readAllPages(path)');
  }
  const items: unknown = await reader.readAllPages(ALIASES_PATH);
  if (!Array.isArray(items)) throw new TargetResolutionError('MALFORMED_COLLECTION', 'aliases', 'must be an array');
  const bad = items.findIndex((item) => !hasStringName(item));
  if (bad !== -1) throw new TargetResolutionError('MALFORMED_COLLECTION', `aliases[${bad}]`, 'must be an object with a string name');
  const named = items as readonly Record<string, unknown>[];
  const matches = named.flatMap((item, index) => (item.name === alias_name ? [{ item, index }] : []));
  if (matches.length === 0) throw new TargetResolutionError('NOT_FOUND', 'alias_name', 'no alias has this exact name');
  if (matches.length > 1) throw new TargetResolutionError('DUPLICATE', 'alias_name', 'several aliases have this exact name');
  const { item, index } = matches[0] as { item: Record<string, unknown>; index: number };
  const at = `aliases[${index}]`;
  if ((URL_ALIAS_TYPES as readonly unknown[]).includes(item.type)) {
    throw new TargetResolutionError('URL_ALIAS', `${at}.type`, 'URL-type aliases are not supported by this capability');
  }
  const missing = ALIAS_TARGET_FIELDS.find((k) => !Object.prototype.hasOwnProperty.call(item, k));
  if (missing !== undefined) throw new TargetResolutionError('MISSING_FIELD', `${at}.${missing}`, 'is missing or redacted');
  if (typeof item.type !== 'string' || !['host', 'network', 'port'].includes(item.type)) {
    throw new TargetResolutionError('UNSUPPORTED_TYPE', `${at}.type`, 'must be host, network or port');
  }
  let target: AliasTarget;
  try {
    // Real appliances return fields the pinned model does not list; only the six we fingerprint matter.
    target = parseAliasTarget(projectKeys(item, ALIAS_TARGET_FIELDS), at);
  } catch (error) {
    if (error instanceof AdapterInputError) throw new TargetResolutionError('MALFORMED_TARGET', error.argument, 'is malformed');
    throw error;
  }
  if (target.id !== index) {
    throw new TargetResolutionError('LOCATOR_INCONSISTENT', `${at}.id`, 'must equal the position in the listing');
  }
  return target;
}
