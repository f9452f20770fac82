// Gives seeded objects the exact pfrest shape: every model field, in pfrest's response order, with the
// model's default where the demo data says nothing; and removes the fields pfrest never returns.
import { MODELS } from './model-catalog.js';
import type { FieldSpec, ModelSpec } from './model-types.js';

export type JsonObject = Record<string, unknown>;

function modelSpec(model: string): ModelSpec {
  const spec = MODELS[model];
  if (!spec) throw new RangeError(`unknown pfrest model ${model}`);
  return spec;
}

function fallback(field: FieldSpec): unknown {
  if (field.default !== undefined) return structuredClone(field.default);
  if (field.nested) return modelSpec(field.nested).many ? [] : null;
  if (field.many) return field.allowNull ? null : [];
  if (field.allowNull) return null;
  if (field.choices && field.choices.length > 0) return field.choices[0];
  switch (field.kind) {
    case 'boolean':
      return false;
    case 'integer':
    case 'float':
      return 0;
    default:
      return '';
  }
}

/** Builds a full pfrest object of `model` from a partial one; `id`/`parent_id` lead when given. */
export function shapeObject(model: string, partial: Readonly<JsonObject>): JsonObject {
  const spec = modelSpec(model);
  const out: JsonObject = {};
  if ('id' in partial) out.id = partial.id;
  if ('parent_id' in partial) out.parent_id = partial.parent_id;
  for (const field of spec.fields) {
    const given = partial[field.name];
    if (given === undefined) {
      out[field.name] = fallback(field);
    } else if (field.nested && given !== null) {
      out[field.name] = Array.isArray(given)
        ? given.map((item: JsonObject) => shapeObject(field.nested as string, item))
        : shapeObject(field.nested, given as JsonObject);
    } else {
      out[field.name] = structuredClone(given);
    }
  }
  return out;
}

/** Removes write-only and sensitive fields (recursively through nested models), as pfrest does. */
export function hideSecrets(model: string, value: Readonly<JsonObject>): JsonObject {
  const spec = MODELS[model];
  if (!spec) return { ...value };
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const field = spec.fields.find((f) => f.name === key);
    if (field?.hidden) continue;
    if (field?.nested && v !== null && typeof v === 'object') {
      out[key] = Array.isArray(v)
        ? v.map((item: JsonObject) => hideSecrets(field.nested as string, item))
        : hideSecrets(field.nested, v as JsonObject);
    } else {
      out[key] = v;
    }
  }
  return out;
}

export function modelFieldNames(model: string): readonly string[] {
  return MODELS[model]?.fields.map((f) => f.name) ?? [];
}
