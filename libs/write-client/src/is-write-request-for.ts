/** A field check of one closed request shape. */
type FieldCheck = (value: unknown) => boolean;

/** The alias bound a change may be requested for (libs/authorization's MAX_ALIAS_MEMBERS, docs/DESIGN.md §5). */
export const MAX_WRITE_LIST_LENGTH = 20_000;

const isLocator: FieldCheck = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isString: FieldCheck = (v) => typeof v === 'string';
const isFalse: FieldCheck = (v) => v === false;
const isTrue: FieldCheck = (v) => v === true;
/** A dense array of strings (the alias's complete entry lists; their alignment is pfrest's TOO_MANY_ALIAS_DETAILS). */
const isStringList: FieldCheck = (v) =>
  Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype && v.length <= MAX_WRITE_LIST_LENGTH && [...v].every(isString);
/**
 * pfSense alias names: 1–31 of [A-Za-z0-9_] (the name is sent unchanged, as pfrest's identity check). An independent
 * copy of foundation's rule on purpose: the last check before the network shares no code with the layers above it.
 */
const isAliasName: FieldCheck = (v) => typeof v === 'string' && /^[A-Za-z0-9_]{1,31}$/.test(v);

/**
 * The closed request shape of each write endpoint, owned here next to the endpoint table (not by the
 * adapter): the last check before the network is ours, so an adapter that vouches for a wider object
 * cannot widen what is sent. FIREWALL_ALIAS_PATCH is exactly {id, name, descr, apply: false} (docs/DESIGN.md
 * §5): `name` is the alias's unchanged, non-editable name, so pfrest refuses the PATCH when the index `id`
 * has shifted to another alias; `apply: false` on purpose — the description change stays pending on pfSense.
 * FIREWALL_ALIAS_ENTRIES_PATCH is exactly {id, name, address[], detail[], apply: true}: the complete new lists,
 * sent aligned (pfrest pads missing details with a date and refuses extra ones, TOO_MANY_ALIAS_DETAILS, in
 * Models/FirewallAlias.inc at the pinned commit), applied in the same request so pf's table follows.
 */
const REQUEST_SHAPES: Readonly<Record<string, Readonly<Record<string, FieldCheck>>>> = Object.freeze(
  Object.assign(Object.create(null) as object, {
    FIREWALL_ALIAS_PATCH: Object.freeze({ id: isLocator, name: isAliasName, descr: isString, apply: isFalse }),
    FIREWALL_ALIAS_ENTRIES_PATCH: Object.freeze({
      id: isLocator,
      name: isAliasName,
      address: isStringList,
      detail: isStringList,
      apply: isTrue,
    }),
  }),
);

/**
 * True only when `request` is a plain object whose own keys are exactly the closed key set of
 * `endpointSymbol` (no symbol keys, no accessors, no extra or missing key) and every field passes its check.
 * Unknown symbols have no shape, so nothing matches them.
 */
export function isWriteRequestFor(endpointSymbol: unknown, request: unknown): boolean {
  if (typeof endpointSymbol !== 'string' || !Object.prototype.hasOwnProperty.call(REQUEST_SHAPES, endpointSymbol)) return false;
  const shape = REQUEST_SHAPES[endpointSymbol] as Readonly<Record<string, FieldCheck>>;
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return false;
  const proto: unknown = Object.getPrototypeOf(request);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Reflect.ownKeys(request);
  const fields = Object.keys(shape);
  if (keys.length !== fields.length) return false;
  const closed = fields.every((field) => {
    const d = Object.getOwnPropertyDescriptor(request, field);
    return d !== undefined && 'value' in d && d.enumerable === true && (shape[field] as FieldCheck)(d.value);
  });
  if (!closed) return false;
  // Two lists are one alias only when aligned: each address has exactly its detail.
  const lists = request as { address?: unknown; detail?: unknown };
  return !Array.isArray(lists.address) || !Array.isArray(lists.detail) || lists.address.length === lists.detail.length;
}

/**
 * The largest canonical body of each endpoint: 16 KiB for a description; the entry lists of an alias at its
 * 20,000-entry bound (4 MiB of alias state, libs/authorization's MAX_ALIAS_STATE_BYTES) for the entries.
 */
export function maxBodyBytesFor(endpointSymbol: string): number {
  return endpointSymbol === 'FIREWALL_ALIAS_ENTRIES_PATCH' ? 4 * 1024 * 1024 + 1024 : 16 * 1024;
}

/**
 * Whether a write to this endpoint reloads the filter (`apply: true` in its closed shape): every pending change
 * on the appliance is activated with it, so the executor checks that nothing is pending first and verifies
 * the effect in pf after (docs/DESIGN.md §5).
 */
export function appliesFilter(endpointSymbol: unknown): boolean {
  return endpointSymbol === 'FIREWALL_ALIAS_ENTRIES_PATCH';
}
