#!/usr/bin/env node
// `npm run demo`: the product against the bundled simulator, through a real MCP client (demo-read.mjs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { workspaceRoot } from './programs.mjs';

const r = spawnSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'demo-read.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
