// Builds a full upstream item for a models.json model: every field (secrets included) with a distinct,
// type-correct value, recursively through embedded models — what a fully populated pfrest response looks like,
// plus `id`/`parent_id` and unknown extra keys.
import { MODELS_JSON, secretFieldsOf } from './vendored-pfrest.js';

export const SECRET_SENTINEL = 'SENTINEL-SECRET';
export const UNKNOWN_SENTINEL = 'SENTINEL-UNKNOWN-FIELD';

export interface Fixture {
  /** The upstream item. */
  readonly item: Record<string, unknown>;
  /** Planted value per `Model.field` (non-secret fields only). */
  readonly planted: ReadonlyMap<string, unknown>;
}

export function buildFixture(modelName: string, extra: Record<string, unknown> = {}): Fixture {
  const planted = new Map<string, unknown>();
  let counter = 900_000;
  function item(name: string, depth: number): Record<string, unknown> {
    const model = MODELS_JSON.models[name];
    if (model === undefined) throw new Error(`unknown model ${name}`);
    const secrets = new Set(secretFieldsOf(name));
    const out: Record<string, unknown> = { id: 0, parent_id: 0, [`${UNKNOWN_SENTINEL}-${name}`]: UNKNOWN_SENTINEL };
    for (const f of model.fields) {
      let value: unknown;
      if (secrets.has(f.name)) {
        value = `${SECRET_SENTINEL}-${name}.${f.name}`;
      } else if (f.type === 'NestedModelField') {
        const inner = item(f.model as string, depth + 1);
        value = f.many ? [inner] : inner;
      } else if (f.type === 'BooleanField') {
        value = true;
      } else if (['IntegerField', 'UnixTimeField', 'FloatField'].includes(f.type)) {
        value = ++counter;
      } else {
        value = `V:${name}.${f.name}:V`;
      }
      if (f.many && f.type !== 'NestedModelField') value = [value];
      if (!secrets.has(f.name) && f.type !== 'NestedModelField') planted.set(`${name}.${f.name}`, value);
      out[f.name] = value;
    }
    return out;
  }
  return { item: { ...item(modelName, 0), ...extra }, planted };
}
