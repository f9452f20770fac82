// The runnable programs and their built entry points (fixed: docs, tests and MCP client configs rely on them).
// `split`: the entry point loads content-hashed chunks from its own directory on demand (build-program.mjs).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const PROGRAMS = Object.freeze({
  'mcp-server': { entry: 'dist/apps/mcp-server/main.js', command: 'pfsense-mcp', split: true },
  'signer-cli': { entry: 'dist/apps/signer-cli/main.js', command: 'pfsense-mcp-signer' },
  'lab-runner': { entry: 'dist/apps/lab-runner/main.js', command: 'pfsense-mcp-lab' },
  'pfsense-sim': { entry: 'dist/tools/pfsense-sim/main.js', command: 'pfsense-sim' },
  // Workspace-only: the benchmark harness (`npm run bench`).
  bench: { entry: 'dist/tools/bench/main.js', command: 'pfsense-mcp-bench' },
});
