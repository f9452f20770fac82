import { z } from 'zod';
import { PfrestResponseError } from './pfrest-response-error.js';
import type { FieldKind, ReadModelSpec, ScalarKind } from './read-model-spec.js';

type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };
type JsonObject = { readonly [k: string]: Json };

/** A compiled model: the upstream (lenient, allow-list) schema, the exact output schema, and the projector. */
export interface CompiledModel {
  /** What the projection emits for one item: every allow-listed field, null when absent or withheld. */
  readonly outputSchema: z.ZodObject;
  /**
   * Projects one upstream item; throws PfrestResponseError(UNEXPECTED_SHAPE) on a structurally wrong value.
   * `at()` gives the item's path for the error (built only on failure: the hot path allocates no strings).
   */
  project(raw: unknown, withheld: ReadonlySet<string>, at: () => string): JsonObject;
}

export interface CompileOptions {
  /** Plural items carry pfrest's array-index `id`; child-model endpoints also carry `parent_id`. */
  readonly idFields: readonly ('id' | 'parent_id')[];
}

const SCALAR_OUT: Record<ScalarKind, z.ZodType> = {
  string: z.string(),
  number: z.number(),
  boolean: z.boolean(),
  scalar: z.union([z.string(), z.number(), z.boolean()]),
};

function checkScalar(kind: ScalarKind, v: unknown): boolean {
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

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function shapeError(path: string): PfrestResponseError {
  return new PfrestResponseError('UNEXPECTED_SHAPE', 200, null, path);
}

interface CompiledField {
  readonly name: string;
  /** Scalar kind of the value (or of each element when `list`); null for an embedded model. */
  readonly scalar: ScalarKind | null;
  readonly list: boolean;
  readonly nested: CompiledModel | null;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Compiles a model (and, recursively, the models it embeds) into an allow-list projector and its output schema.
 * The projector reads only the listed keys as own properties (never the prototype chain), checks each value's
 * JSON type, and builds a fresh frozen object — unknown upstream keys never reach the output.
 */
export function compileModel(
  models: Readonly<Record<string, ReadModelSpec>>,
  modelName: string,
  options: CompileOptions,
): CompiledModel {
  const spec = models[modelName];
  if (spec === undefined) throw new TypeError(`compileModel: unknown model "${modelName}"`);
  const fields: CompiledField[] = [];
  const shape: Record<string, z.ZodType> = {};
  const idFields = [...options.idFields];
  for (const idField of idFields) shape[idField] = SCALAR_OUT.scalar.nullable();
  for (const [name, kind] of Object.entries(spec.fields) as [string, FieldKind][]) {
    if (typeof kind === 'object') {
      const inner = compileModel(models, kind.model, { idFields: kind.many ? ['id'] : [] });
      fields.push({ name, scalar: null, list: kind.many, nested: inner });
      shape[name] = (kind.many ? z.array(inner.outputSchema) : inner.outputSchema).nullable();
    } else if (kind.endsWith('[]')) {
      const scalar = kind.slice(0, -2) as ScalarKind;
      fields.push({ name, scalar, list: true, nested: null });
      shape[name] = z.array(SCALAR_OUT[scalar]).nullable();
    } else {
      fields.push({ name, scalar: kind as ScalarKind, list: false, nested: null });
      shape[name] = SCALAR_OUT[kind as ScalarKind].nullable();
    }
  }
  const outputSchema = z.strictObject(shape);

  function projectField(f: CompiledField, v: unknown, withheld: ReadonlySet<string>, at: () => string): Json {
    if (v === null || v === undefined) return null;
    const nested = f.nested;
    if (nested !== null) {
      const innerWithheld = subPaths(withheld, f.name);
      if (!f.list) return nested.project(v, innerWithheld, () => `${at()}.${f.name}`);
      if (!Array.isArray(v)) throw shapeError(`${at()}.${f.name}`);
      const out: Json[] = new Array<Json>(v.length);
      for (let i = 0; i < v.length; i += 1) {
        out[i] = nested.project(v[i], innerWithheld, () => `${at()}.${f.name}[${i}]`);
      }
      return Object.freeze(out);
    }
    const scalar = f.scalar as ScalarKind;
    if (!f.list) {
      if (!checkScalar(scalar, v)) throw shapeError(`${at()}.${f.name}`);
      return v as Json;
    }
    if (!Array.isArray(v)) throw shapeError(`${at()}.${f.name}`);
    const out: Json[] = new Array<Json>(v.length);
    for (let i = 0; i < v.length; i += 1) {
      const item: unknown = v[i];
      if (!checkScalar(scalar, item)) throw shapeError(`${at()}.${f.name}[${i}]`);
      out[i] = item as Json;
    }
    return Object.freeze(out);
  }

  function project(raw: unknown, withheld: ReadonlySet<string>, at: () => string): JsonObject {
    if (!isPlainObject(raw)) throw shapeError(at());
    const out: Record<string, Json> = {};
    for (const idField of idFields) {
      const v = hasOwn.call(raw, idField) ? raw[idField] : null;
      if (v !== null && v !== undefined && !checkScalar('scalar', v)) throw shapeError(`${at()}.${idField}`);
      out[idField] = (v ?? null) as Json;
    }
    const anyWithheld = withheld.size > 0;
    for (const f of fields) {
      const v = hasOwn.call(raw, f.name) ? raw[f.name] : null;
      // Withheld fields are still type-checked, so a response's validity does not depend on the flag.
      const value = projectField(f, v, withheld, at);
      out[f.name] = anyWithheld && withheld.has(f.name) ? null : value;
    }
    return Object.freeze(out);
  }

  return Object.freeze({ outputSchema, project });
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
