#!/usr/bin/env node
// `npm run demo`: the end-to-end demo on this laptop. It grows with the product: each part that exists is
// shown, and what is not built yet is named.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAYERS } from '../layers/layers.mjs';
import { workspaceRoot } from './programs.mjs';

const demoScript = join(workspaceRoot, 'tools', 'scripts', 'demo-read.mjs');
const built = LAYERS.filter((l) => existsSync(join(workspaceRoot, l.root, 'src', 'index.ts')) || existsSync(join(workspaceRoot, l.root, 'src', 'main.ts')))
  .map((l) => ({ name: l.name, ready: isBuilt(l) }));

function isBuilt(l) {
  if (existsSync(join(workspaceRoot, l.root, 'src', 'main.ts'))) return true;
  const index = join(workspaceRoot, l.root, 'src', 'index.ts');
  return existsSync(index) && !/^export \{\};\s*$/mu.test(readFileSync(index, 'utf8'));
}

process.stdout.write('pfsense-mcp — what is built in this checkout\n\n');
for (const b of built) process.stdout.write(`  ${b.ready ? '✔' : '·'} ${b.name}${b.ready ? '' : '  (not built yet)'}\n`);
process.stdout.write('\n');
if (existsSync(demoScript) && existsSync(join(workspaceRoot, 'apps', 'mcp-server', 'src', 'main.ts'))) {
  const r = spawnSync(process.execPath, [demoScript, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
process.stdout.write('The interactive demo arrives with the MCP server; until then, `npm test` shows what works.\n');
