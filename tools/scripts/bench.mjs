#!/usr/bin/env node
// `npm run bench [-- --json]`: builds the programs the benchmarks spawn, then runs the harness in tools/bench.
// Results are printed (a table, or JSON lines with --json); nothing here is a pass/fail test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROGRAMS, workspaceRoot } from './programs.mjs';

if (!existsSync(join(workspaceRoot, 'tools', 'bench', 'src', 'main.ts'))) {
  process.stderr.write('bench: not built yet\n');
  process.exit(2);
}
for (const name of ['pfsense-sim', 'mcp-server', 'signer-cli', 'bench']) {
  const r = spawnSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'build-program.mjs'), name], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const r = spawnSync(process.execPath, [join(workspaceRoot, PROGRAMS.bench.entry), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
