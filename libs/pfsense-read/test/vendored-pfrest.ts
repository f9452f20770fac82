// Test-only access to the vendored pfrest data in <root>/vendor/pfrest (never read by src/). The repo root is
// computed from this file's location: <root>/libs/pfsense-read/test → <root>.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const VENDORED_PFREST = join(REPO_ROOT, 'vendor', 'pfrest');

export interface ToolEndpoint {
  readonly path: string | null;
  readonly capability: string;
  readonly inputs: readonly string[];
}

export interface ModelField {
  readonly name: string;
  readonly type: string;
  readonly many: boolean;
  readonly write_only: boolean;
  readonly sensitive: boolean;
  readonly representation_only?: boolean;
  readonly note?: string;
  readonly model?: string | readonly string[];
}

export interface ModelsJson {
  readonly paths: Readonly<Record<string, { model: string; many: boolean; parent_model: string | null }>>;
  readonly models: Readonly<Record<string, { many: boolean; parent_model: string | null; fields: readonly ModelField[] }>>;
}

export const TOOL_ENDPOINTS = JSON.parse(readFileSync(join(VENDORED_PFREST, 'tool-endpoints.json'), 'utf8')) as Readonly<
  Record<string, ToolEndpoint>
>;

export const MODELS_JSON = JSON.parse(readFileSync(join(VENDORED_PFREST, 'models.json'), 'utf8')) as ModelsJson;

export const TOOL_REFERENCE_MD = readFileSync(join(VENDORED_PFREST, 'tool-reference.md'), 'utf8');

// Secrets upstream does not flag: this product names SMTP password, NTP auth key, outbound-NAT source hash key and
// API key material; models.json notes them. Matched on the note text so a new note is caught too.
const SECRET_NOTE = /password|private key|pre-shared|preshared|\bpsk\b|hash|api key|authentication key|tls .*key|secret/i;

/** Every field of a models.json model that holds a secret: flagged upstream, or noted as one. */
export function secretFieldsOf(modelName: string): string[] {
  const model = MODELS_JSON.models[modelName];
  if (model === undefined) throw new Error(`unknown model ${modelName}`);
  return model.fields
    .filter((f) => f.write_only || f.sensitive || (f.note !== undefined && SECRET_NOTE.test(f.note) && !/public key/i.test(f.note)))
    .map((f) => f.name);
}
