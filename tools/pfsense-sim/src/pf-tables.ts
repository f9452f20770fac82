// The packet filter's tables as pfrest's Table model reads them (`pfctl -sT`, then `pfctl -t NAME -T show`;
// Models/Table.inc at the pinned pfrest commit): after a filter reload, pfSense has one table per alias that
// an enabled rule references, holding the alias's entries as pf prints them (a host without /32 or /128).
import type { JsonObject } from './model-shaper.js';

export const TABLES_PATH = '/api/v2/diagnostics/tables';
export const RULES_PATH = '/api/v2/firewall/rules';

function mentions(rule: JsonObject, alias: string): boolean {
  return [rule.source, rule.destination].some((f) => f === alias || f === `!${alias}`);
}

/** One entry as pf prints it: the full-length prefix dropped, IPv6 in lower case. */
export function pfEntry(entry: string): string {
  const lower = entry.includes(':') ? entry.toLowerCase() : entry;
  if (lower.endsWith('/32') && !lower.includes(':')) return lower.slice(0, -3);
  if (lower.endsWith('/128') && lower.includes(':')) return lower.slice(0, -4);
  return lower;
}

/**
 * The tables after a reload: the tables that are no alias's (bogons, virusprot, …) as they were, then one
 * table per host/network alias that an enabled rule names, in alias order.
 */
export function deriveTables(aliases: readonly JsonObject[], rules: readonly JsonObject[], current: readonly JsonObject[]): JsonObject[] {
  const aliasNames = new Set(aliases.map((a) => a.name));
  const others = current.filter((t) => !aliasNames.has(t.name));
  const used = aliases.filter(
    (a) =>
      (a.type === 'host' || a.type === 'network') &&
      rules.some((r) => r.disabled !== true && typeof a.name === 'string' && mentions(r, a.name)),
  );
  const derived = used.map((a) => ({
    name: a.name,
    entries: (Array.isArray(a.address) ? (a.address as unknown[]) : []).filter((e): e is string => typeof e === 'string').map(pfEntry),
  }));
  return [...others.map((t) => ({ name: t.name, entries: t.entries })), ...derived];
}
