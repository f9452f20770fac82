/**
 * The pfSense-pkg-RESTAPI releases whose response shapes the READ projections are tested against
 * (test/response-variants.test.ts): 2.0.0 up to every 2.10 patch release. Outside it the server still works;
 * fields whose type changed come back null and are named in `drift`.
 */
export const PFREST_TESTED_RANGE = Object.freeze({ min: '2.0.0', max: '2.10.x' });

export interface PfrestVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

// pfrest reports `v<major>.<minor>.<patch>` (RESTAPIVersion.current_version), `unknown` when pkg cannot tell.
const VERSION = /^v?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?(?:[-_+][0-9A-Za-z.-]{1,64})?$/;

/** Parses a pfrest version string (`v2.10.0`, `2.4.3`, `v2.5.0-dev-47c972e`), or null. */
export function parsePfrestVersion(text: unknown): PfrestVersion | null {
  if (typeof text !== 'string') return null;
  const m = VERSION.exec(text);
  if (m === null) return null;
  return Object.freeze({ major: Number(m[1]), minor: Number(m[2]), patch: m[3] === undefined ? 0 : Number(m[3]) });
}

/** Whether `version` lies in PFREST_TESTED_RANGE (2.0.0 ≤ v < 2.11.0). */
export function isTestedPfrestVersion(version: PfrestVersion): boolean {
  return version.major === 2 && version.minor >= 0 && version.minor <= 10;
}

/** The canonical `major.minor.patch` text of a parsed version (safe to print: digits and dots only). */
export function formatPfrestVersion(version: PfrestVersion): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}
