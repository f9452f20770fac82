/** Who may sign what. A key is pinned for exactly one role and verifies only in that role. */
export type AuthorityRole = 'plan-authorization' | 'confirmation' | 'reconciliation' | 'server-request';

export const AUTHORITY_ROLES: readonly AuthorityRole[] = Object.freeze([
  'plan-authorization',
  'confirmation',
  'reconciliation',
  'server-request',
] as const);

export function isAuthorityRole(value: unknown): value is AuthorityRole {
  return typeof value === 'string' && (AUTHORITY_ROLES as readonly string[]).includes(value);
}
