// The generators' shared step: bundle an entry module of workspace sources with esbuild, in memory, and import the
// result from a data: URL, so nothing is written to disk and nothing is resolved at run time but node: built-ins.
import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * Bundles `entry` (source text, resolved from `workspaceRoot` with the workspace's path aliases) and imports it.
 * `plugins` and `banner` go to esbuild as they are; `loader` is the entry's own language ('ts' or 'js').
 */
export async function importWorkspaceBundle(workspaceRoot, entry, { loader = 'ts', plugins = [], banner } = {}) {
  const bundle = await build({
    stdin: { contents: entry, resolveDir: workspaceRoot, loader },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(workspaceRoot, 'tsconfig.base.json'),
    plugins,
    ...(banner === undefined ? {} : { banner }),
    logLevel: 'warning',
  });
  return import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);
}
