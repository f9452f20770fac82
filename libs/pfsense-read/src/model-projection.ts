import { z } from 'zod';
import { PfrestResponseError } from './pfrest-response-error.js';
import type { FieldKind, ReadModelSpec, ScalarKind } from './read-model-spec.js';

type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };
type JsonObject = { readonly [k: string]: Json };

/** A compiled model: the upstream (lenient, allow-list) schema, the exact output schema, and the projector. */
export interface CompiledModel {
  /** What the projection emits for one item: every allow-listed field, null when absent or withheld. */
  readonly outputSchema: z.ZodObject;
  /** Projects one upstream item; throws PfrestResponseError(UNEXPECTED_SHAPE) on a structurally wrong value. */
  project(raw: unknown, withheld: ReadonlySet<string>, basePath: string): JsonObject;
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

/**
 * Compiles a model (and, recursively, the models it embeds) into an allow-list projector and its output schema.
 * The projector reads only the listed keys with `Object.hasOwn` (never the prototype chain), checks each value's
 * JSON type, and builds a fresh frozen object — unknown upstream keys never reach the output.
 */
export function compileModel(
  models: Readonly<Record<string, ReadModelSpec>>,
  modelName: string,
  options: CompileOptions,
): CompiledModel {
  const spec = models[modelName];
  if (spec === undefined) throw new TypeError(`compileModel: unknown model "${modelName}"`);
  const entries = Object.entries(spec.fields);
  const nested = new Map<string, CompiledModel>();
  const shape: Record<string, z.ZodType> = {};
  for (const idField of options.idFields) shape[idField] = SCALAR_OUT.scalar.nullable();
  for (const [name, kind] of entries) {
    if (typeof kind === 'object') {
      const inner = compileModel(models, kind.model, { idFields: kind.many ? ['id'] : [] });
      nested.set(name, inner);
      shape[name] = (kind.many ? z.array(inner.outputSchema) : inner.outputSchema).nullable();
    } else if (kind.endsWith('[]')) {
      shape[name] = z.array(SCALAR_OUT[kind.slice(0, -2) as ScalarKind]).nullable();
    } else {
      shape[name] = SCALAR_OUT[kind as ScalarKind].nullable();
    }
  }
  const outputSchema = z.strictObject(shape);

  function projectField(name: string, kind: FieldKind, v: unknown, withheld: ReadonlySet<string>, path: string): Json {
    if (v === null || v === undefined) return null;
    if (typeof kind === 'object') {
      const inner = nested.get(name) as CompiledModel;
      const innerWithheld = subPaths(withheld, name);
      if (!kind.many) return inner.project(v, innerWithheld, path);
      if (!Array.isArray(v)) throw shapeError(path);
      return Object.freeze(v.map((item, i) => inner.project(item, innerWithheld, `${path}[${i}]`)));
    }
    if (kind.endsWith('[]')) {
      const itemKind = kind.slice(0, -2) as ScalarKind;
      if (!Array.isArray(v)) throw shapeError(path);
      v.forEach((item, i) => {
        if (!checkScalar(itemKind, item)) throw shapeError(`${path}[${i}]`);
      });
      return Object.freeze([...(v as Json[])]);
    }
    if (!checkScalar(kind as ScalarKind, v)) throw shapeError(path);
    return v as Json;
  }

  function project(raw: unknown, withheld: ReadonlySet<string>, basePath: string): JsonObject {
    if (!isPlainObject(raw)) throw shapeError(basePath);
    const out: Record<string, Json> = {};
    for (const idField of options.idFields) {
      const v = Object.hasOwn(raw, idField) ? raw[idField] : null;
      if (v !== null && v !== undefined && !checkScalar('scalar', v)) throw shapeError(`${basePath}.${idField}`);
      out[idField] = (v ?? null) as Json;
    }
    for (const [name, kind] of entries) {
      const v = Object.hasOwn(raw, name) ? raw[name] : null;
      // Withheld fields are still type-checked, so a response's validity does not depend on the flag.
      const value = projectField(name, kind, v, withheld, `${basePath}.${name}`);
      out[name] = withheld.has(name) ? null : value;
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
