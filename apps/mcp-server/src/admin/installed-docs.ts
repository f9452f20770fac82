import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The documents the package ships (package.json "files") and the programs point their users to. */
export type ShippedDoc = 'OPERATIONS.md' | 'DESIGN.md';

// The program runs as dist/apps/mcp-server/*.js inside the installed package or the workspace (docs/ three levels
// up), or from source under the tests (apps/mcp-server/src/admin/: four levels up). A reference the user can open
// is the absolute path of the copy beside the program that printed it; without one, the repository path.
const here = dirname(fileURLToPath(import.meta.url));
const CANDIDATE_ROOTS = [resolve(here, '..', '..', '..'), resolve(here, '..', '..', '..', '..')];

const cache = new Map<ShippedDoc, string>();

/** The absolute path of a shipped document beside this program, else `docs/NAME`. */
export function installedDoc(name: ShippedDoc): string {
  const known = cache.get(name);
  if (known !== undefined) return known;
  const found = CANDIDATE_ROOTS.map((root) => join(root, 'docs', name)).find((path) => existsSync(path)) ?? `docs/${name}`;
  cache.set(name, found);
  return found;
}
