/** Argument check in the @noble style: `fn: "name" must be ...`. Internal. */
export function assertBytes(fn: string, name: string, value: unknown, length?: number): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${fn}: "${name}" must be a Uint8Array`);
  if (length !== undefined && value.length !== length) {
    throw new RangeError(`${fn}: "${name}" must be ${length} bytes`);
  }
  return value;
}
