// Deterministic demo appliance: every read path gets plausible data shaped by its pfrest model.
import type { PathData } from './data-store.js';
import { READ_PATHS } from './model-catalog.js';
import { shapeObject, type JsonObject } from './model-shaper.js';
import { SeededRandom } from './seeded-random.js';
import { demoRecords } from './demo-records.js';

/** Paths whose payload the simulator computes per request rather than storing. */
const COMPUTED = new Set(['/api/v2/firewall/apply']);

export function seedDemoData(seed: string): Map<string, PathData> {
  if (typeof seed !== 'string' || seed.length === 0 || seed.length > 200)
    throw new TypeError('seedDemoData: "seed" must be a 1–200 character string');
  const rnd = new SeededRandom(seed);
  const raw = demoRecords(rnd);
  const out = new Map<string, PathData>();
  for (const [path, spec] of Object.entries(READ_PATHS)) {
    if (COMPUTED.has(path)) continue;
    const given = raw[path];
    if (spec.many) {
      const items = Array.isArray(given) ? (given as JsonObject[]) : [];
      out.set(path, { verbatim: false, value: items.map((item) => shapeObject(spec.model, item)) });
    } else {
      out.set(path, { verbatim: false, value: shapeObject(spec.model, (given as JsonObject | undefined) ?? {}) });
    }
  }
  return out;
}
