#!/usr/bin/env node
// `npm run mcp|signer|lab|sim -- ARGS`: runs a built program with `node <entry>` and passes ARGS through.
// A program whose sources do not exist yet says so and exits 2.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LAYERS } from '../layers/layers.mjs';
import { PROGRAMS, workspaceRoot } from './programs.mjs';

const [name, sep, ...rest] = process.argv.slice(2);
const args = sep === '--' ? rest : [sep, ...rest].filter((a) => a !== undefined);
const program = PROGRAMS[name];
if (!program) {
  process.stderr.write(`run-built: unknown program "${name}"\n`);
  process.exit(2);
}
const root = LAYERS.find((l) => l.name === name).root;
if (!existsSync(join(workspaceRoot, root, 'src', 'main.ts'))) {
  process.stderr.write(`${program.command}: not built yet\n`);
  process.exit(2);
}
// Build on first use (a fresh clone has no dist/) and whenever a source is newer than the bundle (after a
// pull), so these scripts never run stale code. The MCP server's --demo and the lab runner spawn the built simulator, so it
// comes along.
function newestSourceMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts'))
      newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}
function isStale(program) {
  const bundle = join(workspaceRoot, PROGRAMS[program].entry);
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  const roots = [LAYERS.find((l) => l.name === program).root, ...LAYERS.filter((l) => l.kind === 'lib').map((l) => l.root)];
  return roots.some((root) => newestSourceMtime(join(workspaceRoot, root, 'src')) > built);
}
for (const needed of name === 'mcp-server' || name === 'lab-runner' ? [name, 'pfsense-sim'] : [name]) {
  if (!isStale(needed)) continue;
  const built = spawnSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'build-program.mjs'), needed], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const entry = join(workspaceRoot, program.entry);
const child = spawn(process.execPath, [entry, ...args], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
