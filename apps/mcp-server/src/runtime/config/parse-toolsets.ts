import { ConfigError } from './config-error.js';
import { TOOLSET_NAMES } from './toolsets.js';

const VARIABLE = 'PFSENSE_TOOLSETS';
const TOKEN = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * Parses PFSENSE_TOOLSETS. `undefined` (unset) keeps every toolset; an empty value selects none (only
 * pfsense_mcp_info remains). Every element must be an exact toolset name: a wildcard, an empty element or an
 * unknown name is a startup error, as for PFSENSE_ALLOWED_TOOLS.
 */
export function parseToolsets(raw: string | undefined): ReadonlySet<string> | null {
  if (raw === undefined) return null;
  if (raw.trim() === '') return new Set<string>();
  const known = new Set(TOOLSET_NAMES);
  const names = new Set<string>();
  raw.split(',').forEach((element, index) => {
    const name = element.trim();
    const position = `element ${index + 1}`;
    if (name === '') throw new ConfigError('TOOLSETS_EMPTY_ELEMENT', VARIABLE, `${VARIABLE}: ${position} is empty`);
    if (/[*?[\]{}]/.test(name)) {
      throw new ConfigError('TOOLSETS_WILDCARD', VARIABLE, `${VARIABLE}: ${position} is a wildcard; list toolset names`);
    }
    if (!known.has(name)) {
      // Echo the name only when it looks like a toolset name, so stray text (or a secret) is never printed.
      const shown = TOKEN.test(name) ? `"${name}"` : position;
      throw new ConfigError('TOOLSETS_UNKNOWN', VARIABLE, `${VARIABLE}: ${shown} is not a toolset (${TOOLSET_NAMES.join(', ')})`);
    }
    names.add(name);
  });
  return names;
}
