import { ConfigError } from './config-error.js';
import { nearestName } from '@pfsense-mcp/foundation';

const VARIABLE = 'PFSENSE_ALLOWED_TOOLS';
const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Parses PFSENSE_ALLOWED_TOOLS. `undefined` (unset) keeps the profile's tools; an empty value allows zero
 * tools. Every element must be an exact known tool name: a wildcard, an empty element (`a,,b`) or an unknown
 * name is a startup error, because a typo that silently narrowed or widened the surface is worse than no start.
 */
export function parseAllowedTools(raw: string | undefined, knownNames: ReadonlySet<string>): ReadonlySet<string> | null {
  if (raw === undefined) return null;
  if (raw.trim() === '') return new Set<string>();
  const names = new Set<string>();
  const elements = raw.split(',');
  elements.forEach((element, index) => {
    const name = element.trim();
    const position = `element ${index + 1}`;
    if (name === '') {
      throw new ConfigError('ALLOWED_TOOLS_EMPTY_ELEMENT', VARIABLE, `${VARIABLE}: ${position} is empty`);
    }
    if (/[*?[\]{}]/.test(name)) {
      throw new ConfigError('ALLOWED_TOOLS_WILDCARD', VARIABLE, `${VARIABLE}: ${position} is a wildcard; list exact tool names`);
    }
    if (!knownNames.has(name)) {
      // Echo the name only when it looks like a tool name, so stray text (or a secret) is never printed.
      const looksLikeName = TOOL_NAME.test(name);
      const shown = looksLikeName ? `"${name}"` : position;
      // A near miss (a typo) is answered with the name meant; only for names that look like one (never stray text).
      const nearest = looksLikeName ? nearestName(name, [...knownNames].sort(), { typoOnly: true }) : null;
      const hint = nearest === null ? '' : ` (did you mean ${nearest}?)`;
      throw new ConfigError('ALLOWED_TOOLS_UNKNOWN', VARIABLE, `${VARIABLE}: ${shown} is not a known tool name${hint}`);
    }
    names.add(name);
  });
  return names;
}
