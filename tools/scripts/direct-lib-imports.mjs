// An esbuild plugin for code-split programs: rewrites `import { a, b } from '@pfsense-mcp/<lib>'` in the workspace's
// own sources into imports of the files that lib's index.ts re-exports `a` and `b` from. With code splitting, esbuild
// places a module in every chunk that can reach it through an import, used or not: through a lib's index, a chunk
// that needs one constant would load every module the index names (zod among them). Importing the defining files
// directly keeps each chunk to what it uses (docs/DESIGN.md §8). The same files are loaded either way, so the
// program's behaviour does not change; the sources keep importing the lib's public API (the layering lint).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'(@pfsense-mcp\/[a-z-]+)';/g;
const RE_EXPORT = /export\s*(type\s*)?\{([^}]*)\}\s*from\s*'([^']+)';/g;

/** `a`, `b as c`, `type T` → [{ imported, local, type }]. */
function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const type = s.startsWith('type ');
      const [imported, local = imported] = (type ? s.slice(5) : s).split(/\s+as\s+/).map((x) => x.trim());
      return { imported, local, type };
    });
}

/** @param {string} workspaceRoot @param {Record<string, string[]>} paths tsconfig `paths` */
export function directLibImports(workspaceRoot, paths) {
  const barrels = new Map();
  /** name → { file, name } as the lib's index re-exports it, or null when the index is not plain named re-exports. */
  const exportsOf = (lib) => {
    if (barrels.has(lib)) return barrels.get(lib);
    const target = paths[lib]?.[0];
    let table = null;
    if (target !== undefined && target.endsWith('/index.ts')) {
      const indexFile = resolve(workspaceRoot, target);
      const source = readFileSync(indexFile, 'utf8');
      const withoutComments = source.replace(/\/\/[^\n]*/g, '');
      if (!/export\s*\*/.test(withoutComments)) {
        table = new Map();
        for (const [, typeOnly, list, from] of withoutComments.matchAll(RE_EXPORT)) {
          if (typeOnly !== undefined) continue;
          for (const { imported, local, type } of specifiers(list)) {
            if (type) continue;
            if (from.startsWith('@pfsense-mcp/')) {
              const inner = exportsOf(from)?.get(imported);
              table.set(local, inner ?? { file: from, name: imported });
            } else table.set(local, { file: join(dirname(indexFile), from.replace(/\.js$/, '.ts')), name: imported });
          }
        }
        // Anything else exported from the index (a declaration) keeps the import on the index.
        const remaining = withoutComments.replace(RE_EXPORT, '').replace(/export\s+type\s+[^;]*;/g, '');
        if (/\bexport\b/.test(remaining)) table = null;
      }
    }
    barrels.set(lib, table);
    return table;
  };
  return {
    name: 'direct-lib-imports',
    setup(build) {
      const own = ['libs', 'apps', 'tools'].map((dir) => `${join(workspaceRoot, dir)}/`);
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!own.some((dir) => args.path.startsWith(dir))) return undefined;
        const source = readFileSync(args.path, 'utf8');
        let changed = false;
        const contents = source.replace(IMPORT, (statement, list, lib) => {
          const table = exportsOf(lib);
          if (table === null) return statement;
          const values = specifiers(list).filter((s) => !s.type);
          if (values.some((s) => !table.has(s.imported))) return statement;
          changed = true;
          return values
            .map((s) => {
              const { file, name } = table.get(s.imported);
              return `import { ${name} as ${s.local} } from ${JSON.stringify(file)};`;
            })
            .join('\n');
        });
        return changed ? { contents, loader: 'ts', resolveDir: dirname(args.path) } : undefined;
      });
    },
  };
}
