/** A field check of one closed request shape. */
type FieldCheck = (value: unknown) => boolean;

const isLocator: FieldCheck = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isString: FieldCheck = (v) => typeof v === 'string';
const isFalse: FieldCheck = (v) => v === false;
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
 * has shifted to another alias; `apply: false` on purpose — applying is a separate, later capability.
 */
const REQUEST_SHAPES: Readonly<Record<string, Readonly<Record<string, FieldCheck>>>> = Object.freeze(
  Object.assign(Object.create(null) as object, {
    FIREWALL_ALIAS_PATCH: Object.freeze({ id: isLocator, name: isAliasName, descr: isString, apply: isFalse }),
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
  return fields.every((field) => {
    const d = Object.getOwnPropertyDescriptor(request, field);
    return d !== undefined && 'value' in d && d.enumerable === true && (shape[field] as FieldCheck)(d.value);
  });
}
