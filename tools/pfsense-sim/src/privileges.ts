// pfrest privilege names: "api-v2-<path segments joined by '-', '_' as '-'>-<method>", plus "page-all"
// granting everything. scripts/generate-model-catalog.mjs proves this rule against every path of the
// trimmed OpenAPI document before it regenerates the catalogue.

export const PAGE_ALL = 'page-all';

export function privilegeFor(path: string, method: string): string {
  if (typeof path !== 'string' || !path.startsWith('/api/')) throw new TypeError('privilegeFor: "path" must start with /api/');
  return `${path.slice(1).replaceAll('/', '-').replaceAll('_', '-')}-${method.toLowerCase()}`;
}
