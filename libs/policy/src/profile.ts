/** Deployment profiles (docs/DESIGN.md §6). The default posture is AUDITOR. */
export const Profile = Object.freeze({
  AUDITOR: 'auditor',
  ENGINEER: 'engineer',
  WRITE_PROTECTED: 'write_protected',
} as const);

export type Profile = (typeof Profile)[keyof typeof Profile];

export const PROFILES: readonly Profile[] = Object.freeze(Object.values(Profile));

export function isProfile(value: unknown): value is Profile {
  return typeof value === 'string' && (PROFILES as readonly string[]).includes(value);
}

/**
 * Exact, case-sensitive parse of a configured profile name; no trimming or folding, because a
 * near-miss spelling must fail startup rather than silently pick a profile. The message never echoes
 * the value.
 */
export function parseProfile(value: unknown): Profile {
  if (!isProfile(value)) {
    throw new TypeError(`parseProfile: "value" must be one of ${PROFILES.join(', ')}`);
  }
  return value;
}
