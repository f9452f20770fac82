// --data FILE: a JSON object mapping full read paths to their `data` payload exactly as pfrest returns it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { normaliseLoaded, type PathData } from './data-store.js';
import { READ_PATHS } from './model-catalog.js';
import { CodedError } from '@pfsense-mcp/foundation';

export class DataFileError extends CodedError<'DATA_FILE'> {
  override readonly name = 'DataFileError';
  readonly path: string | undefined;

  constructor(message: string, path?: string) {
    super('DATA_FILE', message);
    this.path = path;
  }
}

const payloadsSchema = z.record(z.string(), z.union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())]));

/** Validates loaded payloads: known read paths only, arrays for plural endpoints, objects for singular. */
export function loadPayloads(payloads: unknown): Map<string, PathData> {
  const parsed = payloadsSchema.safeParse(payloads);
  if (!parsed.success) throw new DataFileError('data must map API paths to an array or an object of objects');
  const out = new Map<string, PathData>();
  for (const [path, value] of Object.entries(parsed.data)) {
    const spec = READ_PATHS[path];
    if (!spec) throw new DataFileError(`data names a path the simulator does not serve: ${path.slice(0, 200)}`);
    if (spec.many !== Array.isArray(value)) {
      throw new DataFileError(`data for ${path} must be ${spec.many ? 'an array (plural endpoint)' : 'an object (singular endpoint)'}`);
    }
    out.set(path, { verbatim: true, value: normaliseLoaded(path, value) });
  }
  return out;
}

export function readDataFile(file: string): Map<string, PathData> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new DataFileError('data file is unreadable or not JSON', file);
  }
  return loadPayloads(json);
}
