import { z } from 'zod';
import { PfrestResponseError } from './pfrest-response-error.js';
import type { FieldKind, ReadModelSpec, ScalarKind } from './read-model-spec.js';

type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };
type JsonObject = { readonly [k: string]: Json };

/**
 * Where a projection records the fields it had to null because their upstream JSON type differed from the model
 * and no lossless coercion applied (names only, `field` or `nested.field`; never a value).
 */
export type DriftSink = Set<string>;

/** A compiled model: the output schema and the lenient allow-list projector of one item. */
export interface CompiledModel {
  /**
   * What the projection emits for one item: every allow-listed field, null when absent, withheld or drifted.
   * Built on first use: the projector needs no zod, and startup builds no schema a call has not asked for
   * (docs/DESIGN.md §8).
   */
  readonly outputSchema: z.ZodObject;
  /**
   * Projects one upstream item. A field of the wrong JSON type is coerced when that is lossless (an
   * integer-valued string for a number field, a safe integer for a string field), else nulled and named in
   * `drift`. Only a value that is not an object at all throws PfrestResponseError(UNEXPECTED_SHAPE); `at()`
   * gives its path (built only on failure: the hot path allocates no strings).
   */
  project(raw: unknown, withheld: ReadonlySet<string>, at: () => string, drift: DriftSink): JsonObject;
  /**
   * True only when `value` certainly satisfies `outputSchema` (exactly its keys, each null or of its kind): the
   * same check in plain code, so a large result is not walked by zod once per row (docs/DESIGN.md §8). Stricter
   * than the schema, never laxer: false means "ask outputSchema", which gives the verdict and the issues.
   * `partial`: some keys may be absent (a list row cut by `fields`; the schema's `.partial()`).
   */
  conforms(value: unknown, partial?: boolean): boolean;
}

export interface CompileOptions {
  /** Plural items carry pfrest's array-index `id`; child-model endpoints also carry `parent_id`. */
  readonly idFields: readonly ('id' | 'parent_id')[];
  /** Drift-name prefix of an embedded model (`parent.`); empty at the top level. */
  readonly prefix?: string;
}

const SCALAR_OUT: Record<ScalarKind, z.ZodType> = {
  string: z.string(),
  number: z.number(),
  boolean: z.boolean(),
  scalar: z.union([z.string(), z.number(), z.boolean()]),
};

/** Marks a value that neither fits its kind nor coerces losslessly. */
const MISFIT = Symbol('misfit');

/**
 * The value as the model's kind, or MISFIT. The only coercions are the two lossless ones (the value survives
 * the round trip unchanged): "42" ↔ 42 between number and string fields. "", "1.5", "007", "1e3", "true" stay
 * misfits, and nothing else converts (no boolean parsing, no float strings).
 */
function fitScalar(kind: ScalarKind, v: unknown): Json | typeof MISFIT {
  switch (kind) {
    case 'string':
      if (typeof v === 'string') return v;
      return typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : MISFIT;
    case 'number':
      if (typeof v === 'number') return Number.isFinite(v) ? v : MISFIT;
      if (typeof v === 'string') {
        const n = Number(v);
        return Number.isSafeInteger(n) && String(n) === v ? n : MISFIT;
      }
      return MISFIT;
    case 'boolean':
      return typeof v === 'boolean' ? v : MISFIT;
    case 'scalar':
      return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? v : MISFIT;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function shapeError(path: string): PfrestResponseError {
  return new PfrestResponseError('UNEXPECTED_SHAPE', 200, null, path);
}

interface CompiledField {
  readonly name: string;
  /** Drift name: the field's path from the top-level item (`name` or `parent.name`). */
  readonly driftName: string;
  /** Scalar kind of the value (or of each element when `list`); null for an embedded model. */
  readonly scalar: ScalarKind | null;
  readonly list: boolean;
  readonly nested: CompiledModel | null;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Compiles a model (and, recursively, the models it embeds) into an allow-list projector and its output schema.
 * The projector reads only the listed keys as own properties (never the prototype chain), fits each value to
 * its kind, and builds a fresh frozen object — unknown upstream keys never reach the output.
 */
export function compileModel(models: Readonly<Record<string, ReadModelSpec>>, modelName: string, options: CompileOptions): CompiledModel {
  const spec = models[modelName];
  if (spec === undefined) throw new TypeError(`compileModel: unknown model "${modelName}"`);
  const prefix = options.prefix ?? '';
  const fields: CompiledField[] = [];
  const idFields = [...options.idFields];
  for (const [name, kind] of Object.entries(spec.fields) as [string, FieldKind][]) {
    const driftName = `${prefix}${name}`;
    if (typeof kind === 'object') {
      const inner = compileModel(models, kind.model, { idFields: kind.many ? ['id'] : [], prefix: `${driftName}.` });
      fields.push({ name, driftName, scalar: null, list: kind.many, nested: inner });
    } else if (kind.endsWith('[]')) {
      fields.push({ name, driftName, scalar: kind.slice(0, -2) as ScalarKind, list: true, nested: null });
    } else {
      fields.push({ name, driftName, scalar: kind as ScalarKind, list: false, nested: null });
    }
  }
  const keys: readonly string[] = [...idFields, ...fields.map((f) => f.name)];
  const keySet: ReadonlySet<string> = new Set(keys);
  // Every output item starts as a copy of this: all keys, in output order, null. A copy of one fast-mode object
  // is allocated once at its final size and shares its shape, where adding 30-odd keys one by one would regrow
  // each item's property store several times — garbage on every row of a large read (docs/DESIGN.md §8).
  // JSON.parse builds it in fast mode (a literal built key by key would end in dictionary mode).
  const template: JsonObject = Object.freeze(JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k) => [k, null])))) as JsonObject);

  function conforms(value: unknown, partial = false): boolean {
    // Plain objects only (as the projection builds them): nothing inherited for a key check to miss.
    if (!isPlainObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
    const own = Object.keys(value);
    if (partial ? own.length > keys.length : own.length !== keys.length) return false;
    for (const key of own) if (!keySet.has(key)) return false;
    for (const idField of idFields) {
      const v = value[idField];
      if (v === undefined ? !partial : v !== null && !conformsScalar('scalar', v)) return false;
    }
    for (const f of fields) {
      const v = value[f.name];
      if (v === null || (partial && v === undefined)) continue;
      if (f.nested !== null) {
        if (!f.list) {
          if (!f.nested.conforms(v)) return false;
        } else {
          if (!Array.isArray(v)) return false;
          for (const item of v) if (!f.nested.conforms(item)) return false;
        }
      } else if (!f.list) {
        if (!conformsScalar(f.scalar as ScalarKind, v)) return false;
      } else {
        if (!Array.isArray(v)) return false;
        for (const item of v) if (!conformsScalar(f.scalar as ScalarKind, item)) return false;
      }
    }
    return true;
  }

  let outputSchema: z.ZodObject | null = null;
  /** The same fields, in the same order, as zod: what `project` emits for one item. */
  function buildOutputSchema(): z.ZodObject {
    const shape: Record<string, z.ZodType> = {};
    for (const idField of idFields) shape[idField] = SCALAR_OUT.scalar.nullable();
    for (const f of fields) {
      if (f.nested !== null) shape[f.name] = (f.list ? z.array(f.nested.outputSchema) : f.nested.outputSchema).nullable();
      else shape[f.name] = (f.list ? z.array(SCALAR_OUT[f.scalar as ScalarKind]) : SCALAR_OUT[f.scalar as ScalarKind]).nullable();
    }
    return z.strictObject(shape);
  }

  /** The projected value, or MISFIT when the field (or one of its elements) does not fit. */
  function projectField(
    f: CompiledField,
    v: unknown,
    withheld: ReadonlySet<string>,
    at: () => string,
    drift: DriftSink,
  ): Json | typeof MISFIT {
    const nested = f.nested;
    if (nested !== null) {
      const innerWithheld = subPaths(withheld, f.name);
      if (!f.list) return isPlainObject(v) ? nested.project(v, innerWithheld, at, drift) : MISFIT;
      if (!Array.isArray(v)) return MISFIT;
      const out: Json[] = new Array<Json>(v.length);
      for (let i = 0; i < v.length; i += 1) {
        const item: unknown = v[i];
        // An embedded item that is not an object is a misfit of the whole embedded list, not of the response.
        if (!isPlainObject(item)) return MISFIT;
        out[i] = nested.project(item, innerWithheld, at, drift);
      }
      return Object.freeze(out);
    }
    const scalar = f.scalar as ScalarKind;
    if (!f.list) return fitScalar(scalar, v);
    if (!Array.isArray(v)) return MISFIT;
    const out: Json[] = new Array<Json>(v.length);
    for (let i = 0; i < v.length; i += 1) {
      const item = fitScalar(scalar, v[i]);
      if (item === MISFIT) return MISFIT;
      out[i] = item;
    }
    return Object.freeze(out);
  }

  function project(raw: unknown, withheld: ReadonlySet<string>, at: () => string, drift: DriftSink): JsonObject {
    if (!isPlainObject(raw)) throw shapeError(at());
    const out: Record<string, Json> = { ...template };
    for (const idField of idFields) {
      const v = hasOwn.call(raw, idField) ? raw[idField] : null;
      if (v !== null && v !== undefined) {
        const fit = fitScalar('scalar', v);
        if (fit === MISFIT) drift.add(`${prefix}${idField}`);
        else out[idField] = fit;
      }
    }
    const anyWithheld = withheld.size > 0;
    for (const f of fields) {
      const v = hasOwn.call(raw, f.name) ? raw[f.name] : null;
      if (v !== null && v !== undefined) {
        // Withheld fields are still fitted, so the drift list does not depend on the flag.
        const fit = projectField(f, v, withheld, at, drift);
        if (fit === MISFIT) drift.add(f.driftName);
        else if (!(anyWithheld && withheld.has(f.name))) out[f.name] = fit;
      }
    }
    return Object.freeze(out);
  }

  return Object.freeze({
    get outputSchema(): z.ZodObject {
      return (outputSchema ??= buildOutputSchema());
    },
    project,
    conforms,
  });
}

/** What zod's string, number (finite), boolean and their union accept; nothing else. */
function conformsScalar(kind: ScalarKind, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'scalar':
      return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
  }
}

const EMPTY: ReadonlySet<string> = new Set();
const subPathCache = new WeakMap<ReadonlySet<string>, Map<string, ReadonlySet<string>>>();

/** `a.b` entries of `withheld` under `prefix` = `a`, as `b` (cached: called once per embedded item). */
function subPaths(withheld: ReadonlySet<string>, prefix: string): ReadonlySet<string> {
  if (withheld.size === 0) return EMPTY;
  let byPrefix = subPathCache.get(withheld);
  if (byPrefix === undefined) {
    byPrefix = new Map();
    subPathCache.set(withheld, byPrefix);
  }
  let result = byPrefix.get(prefix);
  if (result === undefined) {
    const s = new Set<string>();
    for (const p of withheld) if (p.startsWith(`${prefix}.`)) s.add(p.slice(prefix.length + 1));
    result = s.size === 0 ? EMPTY : s;
    byPrefix.set(prefix, result);
  }
  return result;
}

/** True when `path` (`field` or `nested.field`) names a field of the model. */
export function modelHasPath(models: Readonly<Record<string, ReadModelSpec>>, modelName: string, path: string): boolean {
  const spec = models[modelName];
  if (spec === undefined) return false;
  const [head, ...rest] = path.split('.');
  if (head === undefined || !Object.hasOwn(spec.fields, head)) return false;
  const kind = spec.fields[head] as FieldKind;
  if (rest.length === 0) return true;
  return typeof kind === 'object' && modelHasPath(models, kind.model, rest.join('.'));
}
