/**
 * pfSense's alias-name rule, written once (pfrest's `Models/FirewallAlias.inc` at the pinned commit: a name of at
 * most 31 characters of letters, digits and underscore). It lives in the bottom layer because the libs that need it
 * sit beside or below libs/adapters (authorization's lab gate receipt, the MCP tool schema); libs/adapters exports it
 * with its own asserting `assertAliasName`. The write client keeps an independent copy on purpose — its last check
 * before the network must not share a bug with the layers above it — and so does the simulator, which models pfSense.
 */
export const ALIAS_NAME_MAX_LENGTH = 31;

/** The characters of an alias name (ASCII only, so a name is NFC and case-sensitive exact by construction). */
export const ALIAS_NAME_CHARSET = /^[A-Za-z0-9_]+$/;

/** Whether `value` is a pfSense alias name: 1 to ALIAS_NAME_MAX_LENGTH characters of ALIAS_NAME_CHARSET. */
export function isAliasName(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= ALIAS_NAME_MAX_LENGTH && ALIAS_NAME_CHARSET.test(value);
}
