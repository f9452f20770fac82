import type { FieldKind, ReadModelSpec } from './read-model-spec.js';

/**
 * How a list tool's field takes part in `fields`, `filter` and `sort_by`: its kind (a model's scalar kind, a list of
 * one, an embedded model, or pfrest's integer `id`/`parent_id`) and whether it is identifying (usable only with
 * include_identifying_metadata). Secret and withheld fields are in no model, so they are never here.
 */
export interface QueryField {
  readonly name: string;
  readonly kind: Exclude<FieldKind, object> | 'model' | 'id';
  readonly identifying: boolean;
}

/** The query fields of one list tool. */
export interface QueryFieldTable {
  /** `id` (and `parent_id` on child-model endpoints) then every model field, by name. */
  readonly byName: ReadonlyMap<string, QueryField>;
  /** pfrest's row ids, always in a row whatever `fields` names. */
  readonly idFields: readonly string[];
  /** The model's fields in response order: what `fields` may name. */
  readonly modelFields: readonly string[];
}

/** Fields a filter may name: ids, scalars and lists of scalars (an embedded model is not comparable). */
export function isFilterable(field: QueryField): boolean {
  return field.kind !== 'model';
}

/** Fields sort_by may name: model scalars. pfrest sorts only by model fields (`Endpoint::validate_sort_by`), and a
 * list or an embedded model has no order. */
export function isSortable(field: QueryField): boolean {
  return field.kind === 'string' || field.kind === 'number' || field.kind === 'boolean' || field.kind === 'scalar';
}

/**
 * The table of a plural tool's model. `identifying` holds the tool's identifying paths; only top-level names count
 * here (a `parent.field` path is nulled inside an embedded model, which is selectable as a whole but never compared).
 */
export function buildQueryFieldTable(
  models: Readonly<Record<string, ReadModelSpec>>,
  modelName: string,
  idFields: readonly string[],
  identifying: readonly string[],
): QueryFieldTable {
  const spec = models[modelName];
  if (spec === undefined) throw new TypeError(`buildQueryFieldTable: unknown model "${modelName}"`);
  const identifyingNames = new Set(identifying.filter((p) => !p.includes('.')));
  const byName = new Map<string, QueryField>();
  for (const id of idFields) byName.set(id, Object.freeze({ name: id, kind: 'id', identifying: false }));
  const modelFields: string[] = [];
  for (const [name, kind] of Object.entries(spec.fields) as [string, FieldKind][]) {
    modelFields.push(name);
    const queryKind = typeof kind === 'object' ? 'model' : kind;
    byName.set(name, Object.freeze({ name, kind: queryKind, identifying: identifyingNames.has(name) }));
  }
  return Object.freeze({ byName, idFields: Object.freeze([...idFields]), modelFields: Object.freeze(modelFields) });
}
