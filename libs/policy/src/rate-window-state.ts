import { z } from 'zod';
import { isCapability } from './is-capability.js';
import { CodedError } from '@pfsense-mcp/foundation';

/**
 * The persisted part of the rate policy: a plain, frozen, JSON-serializable object. The contract store
 * keeps it (as JSON) and passes it back in; nothing here reads a clock or a database.
 *
 * Holds digests, capability names and times only — never a target identity or an intent.
 * Live counts (outstanding PREPARED, in flight, RECONCILIATION) are NOT kept here: the store derives them
 * from contract rows inside the same transaction (spec: Recovery behavior) and passes them as `counts`.
 */
export interface RateWindowState {
  readonly version: 1;
  /** Latest clock reading ever accepted. A reading below it is a clock regression (fail closed). */
  readonly highWaterMs: number | null;
  /** Capability → ascending times (UTC ms) of admitted PREPAREs still inside the window. */
  readonly capabilityWindows: Readonly<Record<string, readonly number[]>>;
  /** Target identity digest → ascending times of admitted PREPAREs still inside the window. */
  readonly targetWindows: Readonly<Record<string, readonly number[]>>;
  /** Target identity digest → start (UTC ms) of its running cooldown. */
  readonly targetCooldowns: Readonly<Record<string, number>>;
}

export const EMPTY_RATE_WINDOW_STATE: RateWindowState = Object.freeze({
  version: 1,
  highWaterMs: null,
  capabilityWindows: Object.freeze({}),
  targetWindows: Object.freeze({}),
  targetCooldowns: Object.freeze({}),
});

/** Bound on stored times, so a corrupted or hostile state file cannot make a decision unbounded. */
export const MAX_RATE_STATE_ENTRIES = 100_000;

const HEX64 = /^[0-9a-f]{64}$/;
const TOP_KEYS: readonly string[] = ['version', 'highWaterMs', 'capabilityWindows', 'targetWindows', 'targetCooldowns'];

export function isTargetDigest(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value);
}

const ms = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const times = z.array(ms).min(1).max(MAX_RATE_STATE_ENTRIES);

const schema = z
  .strictObject({
    version: z.literal(1),
    highWaterMs: ms.nullable(),
    capabilityWindows: z.record(z.string().refine(isCapability), times),
    targetWindows: z.record(z.string().regex(HEX64), times),
    targetCooldowns: z.record(z.string().regex(HEX64), ms),
  })
  .superRefine((s, ctx) => {
    const all = [
      ...Object.values(s.capabilityWindows).flat(),
      ...Object.values(s.targetWindows).flat(),
      ...Object.values(s.targetCooldowns),
    ];
    if (all.length > MAX_RATE_STATE_ENTRIES) ctx.addIssue({ code: 'custom', message: 'too many entries' });
    // Every stored time was accepted, so none can be later than the high-water mark.
    if (all.some((t) => s.highWaterMs === null || t > s.highWaterMs)) {
      ctx.addIssue({ code: 'custom', message: 'time after highWaterMs' });
    }
    for (const arr of [...Object.values(s.capabilityWindows), ...Object.values(s.targetWindows)]) {
      if (arr.some((t, i) => i > 0 && t < arr[i - 1]!)) ctx.addIssue({ code: 'custom', message: 'times not ascending' });
    }
  });

/** Refused persisted state. Never carries the state's content. */
export class RateStateError extends CodedError<'INVALID_RATE_STATE'> {
  override readonly name = 'RateStateError';
  readonly path: string;

  constructor(path: string) {
    super('INVALID_RATE_STATE', `invalid rate window state at ${path}`);
    this.path = path;
  }
}

function sortedRecord<V>(rec: Readonly<Record<string, V>>, map: (v: V) => V): Readonly<Record<string, V>> {
  return Object.freeze(
    Object.fromEntries(
      Object.keys(rec)
        .sort()
        .map((k) => [k, map(rec[k] as V)]),
    ),
  );
}

/** States built by freezeRateWindowState: frozen all the way down, so a verdict on one holds for good. */
const DEEP_FROZEN = new WeakSet<RateWindowState>();
/**
 * Deep-frozen states that passed the schema. Every decision checks the state it is handed (assertState), and a
 * store hands the same state to several decisions per write: one that passed is not walked by zod again
 * (docs/DESIGN.md §8). Only a state that passed enters; anything else is checked in full every time.
 */
const PASSED = new WeakSet<RateWindowState>();

/** Builds the frozen, key-sorted form (so JSON.stringify of equal states is byte-equal). */
export function freezeRateWindowState(s: RateWindowState): RateWindowState {
  const frozen: RateWindowState = Object.freeze({
    version: 1,
    highWaterMs: s.highWaterMs,
    capabilityWindows: sortedRecord(s.capabilityWindows, (a) => Object.freeze([...a])),
    targetWindows: sortedRecord(s.targetWindows, (a) => Object.freeze([...a])),
    targetCooldowns: sortedRecord(s.targetCooldowns, (n) => n),
  });
  DEEP_FROZEN.add(frozen);
  return frozen;
}

/**
 * zod's record parsing silently drops a "__proto__" key instead of refusing it, so the raw own keys of
 * the three maps are checked first: returns the first offending top-level field, or null.
 */
function badRecordKey(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const checks: ReadonlyArray<[string, (k: string) => boolean]> = [
    ['capabilityWindows', isCapability],
    ['targetWindows', isTargetDigest],
    ['targetCooldowns', isTargetDigest],
  ];
  for (const [field, ok] of checks) {
    const rec = Object.hasOwn(v, field) ? v[field] : undefined;
    if (typeof rec === 'object' && rec !== null && !Reflect.ownKeys(rec).every((k) => typeof k === 'string' && ok(k))) {
      return field;
    }
  }
  return null;
}

export function isRateWindowState(value: unknown): value is RateWindowState {
  if (typeof value === 'object' && value !== null && PASSED.has(value as RateWindowState)) return true;
  const passes = badRecordKey(value) === null && schema.safeParse(value).success;
  if (passes && DEEP_FROZEN.has(value as RateWindowState)) PASSED.add(value as RateWindowState);
  return passes;
}

/**
 * Validates persisted state (e.g. the result of JSON.parse on the store's column) and returns a frozen,
 * key-sorted copy. Anything else — wrong version, unknown capability, malformed digest, unsorted or
 * future times — throws RateStateError (the caller fails closed).
 */
export function parseRateWindowState(value: unknown): RateWindowState {
  const badKeyIn = badRecordKey(value);
  if (badKeyIn !== null) throw new RateStateError(`$.${badKeyIn}`);
  const r = schema.safeParse(value);
  if (!r.success) {
    // Only the top-level field is named: deeper path parts may be attacker-chosen keys.
    const top = r.error.issues[0]?.path[0];
    throw new RateStateError(typeof top === 'string' && TOP_KEYS.includes(top) ? `$.${top}` : '$');
  }
  const state = freezeRateWindowState(r.data as RateWindowState);
  PASSED.add(state);
  return state;
}
