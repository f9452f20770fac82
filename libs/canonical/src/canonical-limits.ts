import { assertRecord } from '@pfsense-mcp/foundation';
/** Resource limits of the canonical encoder. All are inclusive maxima. */
export interface CanonicalLimits {
  /** Maximum nesting of arrays/objects; the root container is depth 1, scalars at the root are depth 0. */
  maxDepth: number;
  /** Maximum number of keys of any single object. */
  maxKeys: number;
  /** Maximum length of any single array. */
  maxArrayLength: number;
  /** Maximum size of the canonical UTF-8 output, in bytes. */
  maxBytes: number;
}

/**
 * Defaults sized for the product's documents (contracts, artifacts, snapshots of one target) with a wide
 * margin; callers with bigger documents pass explicit limits.
 */
export const DEFAULT_CANONICAL_LIMITS: Readonly<CanonicalLimits> = Object.freeze({
  maxDepth: 64,
  maxKeys: 1024,
  maxArrayLength: 10_000,
  maxBytes: 1_048_576,
});

const LIMIT_NAMES: readonly (keyof CanonicalLimits)[] = ['maxDepth', 'maxKeys', 'maxArrayLength', 'maxBytes'];

/** Merge overrides over the defaults, validating each as a positive safe integer. */
export function resolveLimits(fn: string, limits: unknown): Readonly<CanonicalLimits> {
  if (limits === undefined) return DEFAULT_CANONICAL_LIMITS;
  assertRecord(limits, `${fn}: "limits"`);
  const given = limits as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(LIMIT_NAMES as readonly string[]).includes(key)) {
      throw new TypeError(`${fn}: "limits" has an unknown key`);
    }
  }
  const out: CanonicalLimits = { ...DEFAULT_CANONICAL_LIMITS };
  for (const name of LIMIT_NAMES) {
    const v = given[name];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
      throw new RangeError(`${fn}: "limits.${name}" must be a positive safe integer`);
    }
    out[name] = v;
  }
  return Object.freeze(out);
}
