/**
 * The JSON text already made for a frozen value, so the stdio transport does not serialize a large tool result a
 * second time: boundResultSize has to produce `JSON.stringify(structuredContent)` for the text block anyway, and
 * the reply line carries that same value again as structuredContent (docs/DESIGN.md §8). Only frozen objects are
 * remembered — their JSON cannot change — and weakly, so a remembered result goes when its reply does.
 */
const known = new WeakMap<object, string>();
/** A remembered object's first member (when that is an object), to recognize a shallow copy of it. */
const ownerOf = new WeakMap<object, object>();

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object';
}

function firstMember(value: Record<string, unknown>): unknown {
  for (const key in value) if (Object.hasOwn(value, key)) return value[key];
  return undefined;
}

/** Same own enumerable keys in the same order, each holding the identical value: JSON.stringify writes both alike. */
function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (typeof b['toJSON'] === 'function' || Array.isArray(b) !== Array.isArray(a)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i += 1) {
    const key = keysA[i] as string;
    if (keysB[i] !== key || a[key] !== b[key]) return false;
  }
  return true;
}

/** Remembers `json` as exactly `JSON.stringify(value)`; a value that is not a frozen object is not remembered. */
export function rememberSerializedJson(value: object, json: string): void {
  if (typeof json !== 'string') throw new TypeError('rememberSerializedJson: "json" must be a string');
  if (!isObject(value) || !Object.isFrozen(value) || typeof value['toJSON'] === 'function') return;
  known.set(value, json);
  const first = firstMember(value);
  if (isObject(first)) ownerOf.set(first, value);
}

/**
 * `JSON.stringify(value)` when it was remembered — for the object itself or for a shallow copy of it with the
 * same members (the SDK's result check hands on such a copy on some protocol revisions) — else undefined.
 */
export function serializedJsonOf(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const direct = known.get(value);
  if (direct !== undefined) return direct;
  const first = firstMember(value);
  const owner = isObject(first) ? ownerOf.get(first) : undefined;
  return owner !== undefined && sameMembers(owner as Record<string, unknown>, value) ? known.get(owner) : undefined;
}
