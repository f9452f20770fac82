import { CanonicalError } from './canonical-error.js';
import type { CanonicalErrorCode } from './canonical-error.js';
import type { CanonicalLimits } from './canonical-limits.js';
import { resolveLimits } from './canonical-limits.js';
import { isWellFormed } from './is-well-formed.js';

/** The closed value domain of canonical JSON (RFC 8785 restricted to safe integers). */
export type CanonicalValue = null | boolean | number | string | readonly CanonicalValue[] | { readonly [k: string]: CanonicalValue };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_KEY_IN_PATH = 64;

/** Path segment for an object key; long keys are shortened so error paths stay bounded. */
function keySegment(key: string): string {
  if (IDENTIFIER.test(key) && key.length <= MAX_KEY_IN_PATH) return `.${key}`;
  const shown = key.length > MAX_KEY_IN_PATH ? `${key.slice(0, MAX_KEY_IN_PATH)}…` : key;
  return `[${JSON.stringify(shown)}]`;
}

/** Printable ASCII other than the quote and the backslash: the characters JSON.stringify writes as they are. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A path segment: an object key or an array index. */
type Segment = string | number;

/**
 * The encoder keeps the path of the value it is at as a stack of segments and renders it only for an
 * error: building every key's path string up front cost more than encoding the document.
 */
class Encoder {
  private readonly parts: string[] = [];
  private bytes = 0;
  private readonly ancestors = new Set<object>();
  private readonly segments: Segment[] = [];

  constructor(private readonly limits: Readonly<CanonicalLimits>) {}

  result(): string {
    return this.parts.join('');
  }

  private path(): string {
    let path = '$';
    for (const segment of this.segments) path += typeof segment === 'number' ? `[${segment}]` : keySegment(segment);
    return path;
  }

  private fail(code: CanonicalErrorCode, message: string): never {
    throw new CanonicalError(code, this.path(), message);
  }

  /** `bytes`: the chunk's UTF-8 length (its length for the ASCII punctuation, digits and literals). */
  private emit(chunk: string, bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxBytes) this.fail('MAX_BYTES', `output exceeds ${this.limits.maxBytes} bytes`);
    this.parts.push(chunk);
  }

  private string(s: string): void {
    // Ids, digests, states, names: JSON.stringify would only add the quotes, and the length is the byte count.
    if (PLAIN_ASCII.test(s)) {
      this.emit(`"${s}"`, s.length + 2);
      return;
    }
    if (!isWellFormed(s)) this.fail('LONE_SURROGATE', 'string has a lone surrogate');
    // For well-formed strings ES JSON.stringify escaping is exactly RFC 8785 §3.2.2.2.
    const text = JSON.stringify(s);
    this.emit(text, Buffer.byteLength(text, 'utf8'));
  }

  value(v: unknown, depth: number): void {
    switch (typeof v) {
      case 'boolean':
        this.emit(v ? 'true' : 'false', v ? 4 : 5);
        return;
      case 'number': {
        if (!Number.isFinite(v)) this.fail('NON_FINITE', 'NaN or Infinity is not allowed');
        if (!Number.isInteger(v)) this.fail('FLOAT', 'non-integer number is not allowed');
        if (Object.is(v, -0)) this.fail('NEGATIVE_ZERO', '-0 is not allowed');
        if (!Number.isSafeInteger(v)) this.fail('UNSAFE_INTEGER', 'integer beyond 2^53-1');
        // Safe integers print as plain decimal digits (no exponent below 1e21), as RFC 8785 §3.2.2.3 requires.
        const digits = String(v);
        this.emit(digits, digits.length);
        return;
      }
      case 'string':
        this.string(v);
        return;
      case 'undefined':
        return this.fail('UNDEFINED', 'undefined is not allowed');
      case 'function':
        return this.fail('FUNCTION', 'function is not allowed');
      case 'symbol':
        return this.fail('SYMBOL', 'symbol is not allowed');
      case 'bigint':
        return this.fail('BIGINT', 'bigint is not allowed');
      case 'object':
        if (v === null) {
          this.emit('null', 4);
          return;
        }
        if (Array.isArray(v)) {
          this.array(v, depth + 1);
          return;
        }
        this.object(v, depth + 1);
        return;
      default:
        return this.fail('NON_PLAIN_OBJECT', 'unsupported type');
    }
  }

  private enter(v: object, depth: number): void {
    if (this.ancestors.has(v)) this.fail('CYCLE', 'cyclic reference');
    if (depth > this.limits.maxDepth) this.fail('MAX_DEPTH', `nesting deeper than ${this.limits.maxDepth}`);
    this.ancestors.add(v);
  }

  private array(v: readonly unknown[], depth: number): void {
    if (Object.getPrototypeOf(v) !== Array.prototype) this.fail('NON_PLAIN_OBJECT', 'array subclass is not allowed');
    this.enter(v, depth);
    const n = v.length;
    if (n > this.limits.maxArrayLength) this.fail('MAX_ARRAY_LENGTH', `array longer than ${this.limits.maxArrayLength}`);
    // Own keys are the indices plus "length"; anything else would be silently dropped by JSON.
    if (Reflect.ownKeys(v).length !== n + 1) {
      for (let i = 0; i < n; i++) {
        if (!Object.prototype.hasOwnProperty.call(v, i)) {
          this.segments.push(i);
          this.fail('SPARSE_ARRAY', 'array hole is not allowed');
        }
      }
      this.fail('ARRAY_EXTRA_PROPERTY', 'array has non-index properties');
    }
    this.emit('[', 1);
    for (let i = 0; i < n; i++) {
      this.segments.push(i);
      const d = Object.getOwnPropertyDescriptor(v, i);
      if (d === undefined) this.fail('SPARSE_ARRAY', 'array hole is not allowed');
      if (d.get !== undefined || d.set !== undefined) this.fail('ACCESSOR_PROPERTY', 'accessor property is not allowed');
      if (i > 0) this.emit(',', 1);
      this.value(d.value, depth);
      this.segments.pop();
    }
    this.emit(']', 1);
    this.ancestors.delete(v);
  }

  private object(v: object, depth: number): void {
    const proto: unknown = Object.getPrototypeOf(v);
    // Plain objects only: Object.prototype or null prototype (the latter is what safe parsers produce).
    // Date, Map, Set, RegExp, typed arrays, boxed primitives and class instances are refused.
    if (proto !== Object.prototype && proto !== null) this.fail('NON_PLAIN_OBJECT', 'only plain objects are allowed');
    this.enter(v, depth);
    const ownKeys = Reflect.ownKeys(v);
    if (ownKeys.length > this.limits.maxKeys) this.fail('MAX_KEYS', `object has more than ${this.limits.maxKeys} keys`);
    const keys: string[] = [];
    for (const k of ownKeys) {
      if (typeof k === 'symbol') this.fail('SYMBOL_KEY', 'symbol key is not allowed');
      keys.push(k);
    }
    // RFC 8785 §3.2.3: by UTF-16 code units — what the default sort of strings compares.
    keys.sort();
    this.emit('{', 1);
    let first = true;
    for (const k of keys) {
      this.segments.push(k);
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (d === undefined) this.fail('NON_PLAIN_OBJECT', 'property vanished');
      if (d.get !== undefined || d.set !== undefined) this.fail('ACCESSOR_PROPERTY', 'accessor property is not allowed');
      if (d.enumerable !== true) this.fail('NON_ENUMERABLE_PROPERTY', 'non-enumerable property is not allowed');
      if (!first) this.emit(',', 1);
      first = false;
      this.string(k);
      this.emit(':', 1);
      this.value(d.value, depth);
      this.segments.pop();
    }
    this.emit('}', 1);
    this.ancestors.delete(v);
  }
}

/**
 * RFC 8785 (JCS) canonical JSON text of `value`, restricted to null, booleans, safe integers,
 * well-formed strings, arrays and plain objects. Anything else throws `CanonicalError` naming the path.
 */
export function canonicalize(value: unknown, limits?: Partial<CanonicalLimits>): string {
  const resolved = resolveLimits('canonicalize', limits);
  const enc = new Encoder(resolved);
  enc.value(value, 0);
  return enc.result();
}

/** UTF-8 bytes of `canonicalize(value, limits)`. */
export function canonicalBytes(value: unknown, limits?: Partial<CanonicalLimits>): Uint8Array {
  const resolved = resolveLimits('canonicalBytes', limits);
  const enc = new Encoder(resolved);
  enc.value(value, 0);
  return new Uint8Array(Buffer.from(enc.result(), 'utf8'));
}
