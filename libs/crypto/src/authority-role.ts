/** Who may sign what. A key is pinned for exactly one role and verifies only in that role. */
/** `lab-gate` signs only the lab runner's gate receipts (a disposable test appliance), never a product artifact. */
export type AuthorityRole = 'plan-authorization' | 'confirmation' | 'reconciliation' | 'server-request' | 'lab-gate';

export const AUTHORITY_ROLES: readonly AuthorityRole[] = Object.freeze([
  'plan-authorization',
  'confirmation',
  'reconciliation',
  'server-request',
  'lab-gate',
] as const);

export function isAuthorityRole(value: unknown): value is AuthorityRole {
  return typeof value === 'string' && (AUTHORITY_ROLES as readonly string[]).includes(value);
}
