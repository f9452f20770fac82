// The layering table of docs/DESIGN.md §2 — the single source of truth for
// eslint-plugin-boundaries policies and Nx depConstraints (see eslint.config.mjs).
// Change an edge here, on purpose, or not at all.

/** @typedef {{ name: string, kind: 'lib' | 'app' | 'tool', root: string, mayImport: readonly string[] }} Layer */

/**
 * The bottom layer: frozen collections, the HTTP method vocabulary, the clock check and argument assertions. It
 * imports nothing but `node:` built-ins (eslint.config.mjs holds that for its sources), and every lib and app — and bench,
 * which may import anything — may import it: the rows below get it added, so no row lists it.
 */
export const FOUNDATION = 'foundation';

/** @type {readonly Layer[]} */
const TABLE = Object.freeze([
  { name: FOUNDATION, kind: 'lib', root: 'libs/foundation', mayImport: [] },
  { name: 'canonical', kind: 'lib', root: 'libs/canonical', mayImport: [] },
  { name: 'crypto', kind: 'lib', root: 'libs/crypto', mayImport: ['canonical'] },
  { name: 'state-machine', kind: 'lib', root: 'libs/state-machine', mayImport: [] },
  { name: 'policy', kind: 'lib', root: 'libs/policy', mayImport: [] },
  { name: 'transports', kind: 'lib', root: 'libs/transports', mayImport: [] },
  { name: 'pfsense-read', kind: 'lib', root: 'libs/pfsense-read', mayImport: ['transports', 'policy'] },
  // canonical: the closed request model is sent as canonical JSON.
  { name: 'write-client', kind: 'lib', root: 'libs/write-client', mayImport: ['transports', 'policy', 'canonical'] },
  {
    name: 'contract-store',
    kind: 'lib',
    root: 'libs/contract-store',
    // authorization: the config-history facts and invariants, written once there (the lower of the two; the signer
    // imports authorization and must hold no SQLite code, so never the other way round).
    mayImport: ['canonical', 'crypto', 'state-machine', 'policy', 'authorization'],
  },
  { name: 'authorization', kind: 'lib', root: 'libs/authorization', mayImport: ['canonical', 'crypto'] },
  // pfsense-read is `import type` only for adapters (enforced by the adapter-restrictions plugin in tools/lint-rules).
  { name: 'adapters', kind: 'lib', root: 'libs/adapters', mayImport: ['canonical', 'policy', 'pfsense-read'] },
  {
    name: 'executor',
    kind: 'lib',
    root: 'libs/executor',
    mayImport: ['adapters', 'contract-store', 'write-client', 'pfsense-read', 'policy', 'crypto', 'canonical', 'state-machine'],
  },
  {
    name: 'coordinator',
    kind: 'lib',
    root: 'libs/coordinator',
    mayImport: [
      'executor',
      'contract-store',
      'authorization',
      'adapters',
      'pfsense-read',
      'policy',
      'crypto',
      'canonical',
      'state-machine',
    ],
  },
  {
    name: 'mcp-server',
    kind: 'app',
    root: 'apps/mcp-server',
    // runtime/ is the composition root; tools/ is narrowed further (see MCP_SERVER_TOOLS_MAY_IMPORT).
    mayImport: [
      'canonical',
      'crypto',
      'state-machine',
      'policy',
      'transports',
      'pfsense-read',
      'write-client',
      'contract-store',
      'authorization',
      'adapters',
      'executor',
      'coordinator',
    ],
  },
  { name: 'signer-cli', kind: 'app', root: 'apps/signer-cli', mayImport: ['authorization', 'crypto', 'canonical', 'adapters', 'policy'] },
  // The simulator is run as a built child program (dist/tools/pfsense-sim/main.js), never imported; tests may.
  {
    name: 'lab-runner',
    kind: 'app',
    root: 'apps/lab-runner',
    mayImport: [
      'canonical',
      'crypto',
      'state-machine',
      'policy',
      'transports',
      'pfsense-read',
      'write-client',
      'contract-store',
      'authorization',
      'adapters',
      'executor',
      'coordinator',
    ],
  },
  // foundation: the simulator is a shipped program too, and prints through the one terminal-safe helper.
  { name: 'pfsense-sim', kind: 'tool', root: 'tools/pfsense-sim', mayImport: [FOUNDATION] },
  // Shared test support (child processes for crash and race tests); only tests import it (TEST_FIXTURES).
  // Its recording mock is a Transport that validates calls as the HTTP transport does, hence transports.
  { name: 'test-support', kind: 'tool', root: 'tools/test-support', mayImport: ['transports'] },
  // Whole-repository checks (vendored data, no path outside the workspace, the lone-copy run); node built-ins only.
  { name: 'repo-checks', kind: 'tool', root: 'tools/repo-checks', mayImport: [] },
  {
    name: 'bench',
    kind: 'tool',
    root: 'tools/bench',
    mayImport: [
      'canonical',
      'crypto',
      'state-machine',
      'policy',
      'transports',
      'pfsense-read',
      'write-client',
      'contract-store',
      'authorization',
      'adapters',
      'executor',
      'coordinator',
      'pfsense-sim',
    ],
  },
]);

const importsFoundation = (l) => l.name !== FOUNDATION && (l.kind !== 'tool' || l.name === 'bench');

/** @type {readonly Layer[]} */
export const LAYERS = Object.freeze(
  TABLE.map((l) =>
    Object.freeze({ ...l, mayImport: Object.freeze(importsFoundation(l) ? [...l.mayImport, FOUNDATION] : [...l.mayImport]) }),
  ),
);

/** mcp-server's tools/ folder may import only these (docs/DESIGN.md §2). */
export const MCP_SERVER_TOOLS_MAY_IMPORT = Object.freeze(['pfsense-read', 'coordinator', FOUNDATION]);

/**
 * lab-runner: its runtime factory is the one file that builds the write path (docs/DESIGN.md §2, §7);
 * every other lab-runner source may not import these libraries.
 */
export const LAB_RUNTIME_FACTORY = Object.freeze({
  file: 'apps/lab-runner/src/runtime-factory.ts',
  onlyThere: Object.freeze(['write-client', 'transports']),
});

/** External packages confined to one layer (docs/DESIGN.md §2); `bench` is exempt. */
export const CONFINED_PACKAGES = Object.freeze([
  { packages: ['better-sqlite3', 'kysely'], onlyIn: ['contract-store'] },
  { packages: ['@noble/curves', '@noble/hashes'], onlyIn: ['crypto'] },
  // The MCP SDK — the v2 server and client, and the v1 SDK whose client keeps proving 2025-era hosts in one
  // e2e suite — belongs to the MCP server (its tests and the demo script included); repo-checks drives the
  // packed program with the client.
  {
    packages: ['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/core', '@modelcontextprotocol/sdk'],
    onlyIn: ['mcp-server', 'repo-checks'],
  },
]);

export const EXEMPT_FROM_PACKAGE_CONFINEMENT = Object.freeze(['bench']);

export const layerTag = (name) => `layer:${name}`;
