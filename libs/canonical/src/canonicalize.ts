import { CanonicalError } from './canonical-error.js';
import type { CanonicalLimits } from './canonical-limits.js';
import { resolveLimits } from './canonical-limits.js';
import { isWellFormed } from './is-well-formed.js';

/** The closed value domain of canonical JSON (RFC 8785 restricted to safe integers). */
export type CanonicalValue =
  | null
  | boolean
  | number
  | string
  | readonly CanonicalValue[]
  | { readonly [k: string]: CanonicalValue };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_KEY_IN_PATH = 64;

/** Path segment for an object key; long keys are shortened so error paths stay bounded. */
function keySegment(key: string): string {
  if (IDENTIFIER.test(key) && key.length <= MAX_KEY_IN_PATH) return `.${key}`;
  const shown = key.length > MAX_KEY_IN_PATH ? `${key.slice(0, MAX_KEY_IN_PATH)}…` : key;
  return `[${JSON.stringify(shown)}]`;
}

/** RFC 8785 §3.2.3: sort by UTF-16 code units — exactly what JS relational comparison of strings does. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

class Encoder {
  private readonly parts: string[] = [];
  private bytes = 0;
  private readonly ancestors = new Set<object>();

  constructor(private readonly limits: Readonly<CanonicalLimits>) {}

  result(): string {
    return this.parts.join('');
  }

  private emit(chunk: string, path: string): void {
    this.bytes += Buffer.byteLength(chunk, 'utf8');
    if (this.bytes > this.limits.maxBytes) {
      throw new CanonicalError('MAX_BYTES', path, `output exceeds ${this.limits.maxBytes} bytes`);
    }
    this.parts.push(chunk);
  }

  private string(s: string, path: string): string {
    if (!isWellFormed(s)) throw new CanonicalError('LONE_SURROGATE', path, 'string has a lone surrogate');
    // For well-formed strings ES JSON.stringify escaping is exactly RFC 8785 §3.2.2.2.
    return JSON.stringify(s);
  }

  value(v: unknown, path: string, depth: number): void {
    switch (typeof v) {
      case 'boolean':
        this.emit(v ? 'true' : 'false', path);
        return;
      case 'number':
        if (!Number.isFinite(v)) throw new CanonicalError('NON_FINITE', path, 'NaN or Infinity is not allowed');
        if (!Number.isInteger(v)) throw new CanonicalError('FLOAT', path, 'non-integer number is not allowed');
        if (Object.is(v, -0)) throw new CanonicalError('NEGATIVE_ZERO', path, '-0 is not allowed');
        if (!Number.isSafeInteger(v)) throw new CanonicalError('UNSAFE_INTEGER', path, 'integer beyond 2^53-1');
        // Safe integers print as plain decimal digits (no exponent below 1e21), as RFC 8785 §3.2.2.3 requires.
        this.emit(String(v), path);
        return;
      case 'string':
        this.emit(this.string(v, path), path);
        return;
      case 'undefined':
        throw new CanonicalError('UNDEFINED', path, 'undefined is not allowed');
      case 'function':
        throw new CanonicalError('FUNCTION', path, 'function is not allowed');
      case 'symbol':
        throw new CanonicalError('SYMBOL', path, 'symbol is not allowed');
      case 'bigint':
        throw new CanonicalError('BIGINT', path, 'bigint is not allowed');
      case 'object':
        if (v === null) {
          this.emit('null', path);
          return;
        }
        if (Array.isArray(v)) {
          this.array(v, path, depth + 1);
          return;
        }
        this.object(v, path, depth + 1);
        return;
      default:
        throw new CanonicalError('NON_PLAIN_OBJECT', path, 'unsupported type');
    }
  }

  private enter(v: object, path: string, depth: number): void {
    if (this.ancestors.has(v)) throw new CanonicalError('CYCLE', path, 'cyclic reference');
    if (depth > this.limits.maxDepth) {
      throw new CanonicalError('MAX_DEPTH', path, `nesting deeper than ${this.limits.maxDepth}`);
    }
    this.ancestors.add(v);
  }

  private array(v: readonly unknown[], path: string, depth: number): void {
    if (Object.getPrototypeOf(v) !== Array.prototype) {
      throw new CanonicalError('NON_PLAIN_OBJECT', path, 'array subclass is not allowed');
    }
    this.enter(v, path, depth);
    const n = v.length;
    if (n > this.limits.maxArrayLength) {
      throw new CanonicalError('MAX_ARRAY_LENGTH', path, `array longer than ${this.limits.maxArrayLength}`);
    }
    // Own keys are the indices plus "length"; anything else would be silently dropped by JSON.
    if (Reflect.ownKeys(v).length !== n + 1) {
      for (let i = 0; i < n; i++) {
        if (!Object.prototype.hasOwnProperty.call(v, i)) {
          throw new CanonicalError('SPARSE_ARRAY', `${path}[${i}]`, 'array hole is not allowed');
        }
      }
      throw new CanonicalError('ARRAY_EXTRA_PROPERTY', path, 'array has non-index properties');
    }
    this.emit('[', path);
    for (let i = 0; i < n; i++) {
      const itemPath = `${path}[${i}]`;
      const d = Object.getOwnPropertyDescriptor(v, i);
      if (d === undefined) throw new CanonicalError('SPARSE_ARRAY', itemPath, 'array hole is not allowed');
      if (d.get !== undefined || d.set !== undefined) {
        throw new CanonicalError('ACCESSOR_PROPERTY', itemPath, 'accessor property is not allowed');
      }
      if (i > 0) this.emit(',', itemPath);
      this.value(d.value, itemPath, depth);
    }
    this.emit(']', path);
    this.ancestors.delete(v);
  }

  private object(v: object, path: string, depth: number): void {
    const proto: unknown = Object.getPrototypeOf(v);
    // Plain objects only: Object.prototype or null prototype (the latter is what safe parsers produce).
    // Date, Map, Set, RegExp, typed arrays, boxed primitives and class instances are refused.
    if (proto !== Object.prototype && proto !== null) {
      throw new CanonicalError('NON_PLAIN_OBJECT', path, 'only plain objects are allowed');
    }
    this.enter(v, path, depth);
    const ownKeys = Reflect.ownKeys(v);
    if (ownKeys.length > this.limits.maxKeys) {
      throw new CanonicalError('MAX_KEYS', path, `object has more than ${this.limits.maxKeys} keys`);
    }
    const keys: string[] = [];
    for (const k of ownKeys) {
      if (typeof k === 'symbol') throw new CanonicalError('SYMBOL_KEY', path, 'symbol key is not allowed');
      keys.push(k);
    }
    keys.sort(compareCodeUnits);
    this.emit('{', path);
    let first = true;
    for (const k of keys) {
      const keyPath = `${path}${keySegment(k)}`;
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (d === undefined) throw new CanonicalError('NON_PLAIN_OBJECT', keyPath, 'property vanished');
      if (d.get !== undefined || d.set !== undefined) {
        throw new CanonicalError('ACCESSOR_PROPERTY', keyPath, 'accessor property is not allowed');
      }
      if (d.enumerable !== true) {
        throw new CanonicalError('NON_ENUMERABLE_PROPERTY', keyPath, 'non-enumerable property is not allowed');
      }
      if (!first) this.emit(',', keyPath);
      first = false;
      this.emit(this.string(k, keyPath), keyPath);
      this.emit(':', keyPath);
      this.value(d.value, keyPath, depth);
    }
    this.emit('}', path);
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
  enc.value(value, '$', 0);
  return enc.result();
}

/** UTF-8 bytes of `canonicalize(value, limits)`. */
export function canonicalBytes(value: unknown, limits?: Partial<CanonicalLimits>): Uint8Array {
  const resolved = resolveLimits('canonicalBytes', limits);
  const enc = new Encoder(resolved);
  enc.value(value, '$', 0);
  return new Uint8Array(Buffer.from(enc.result(), 'utf8'));
}
