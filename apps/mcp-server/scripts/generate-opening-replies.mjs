#!/usr/bin/env node
// Precomputes what the MCP SDK server of this program answers to the opening requests (`initialize` for each 2025-era
// revision, `server/discover` for 2026-07-28) and to tools/list (every tool entry, in registration order), so the
// server can answer them before it loads the SDK, zod and the READ catalogue (docs/DESIGN.md §8). Never edit the
// output by hand:
//   node apps/mcp-server/scripts/generate-opening-replies.mjs [OUT_FILE]
// Bundles test/support/sdk-opening-replies.ts (the program's own server factory and tool registrations, served by the
// SDK's stdio entry in memory) with esbuild, asks it, and writes apps/mcp-server/src/runtime/opening/opening-replies.ts (or
// OUT_FILE). test/early-opening.test.ts re-runs it into a temp file and fails on any difference.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importWorkspaceBundle } from './import-workspace-bundle.mjs';

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspaceRoot = resolve(appDir, '..', '..');
const outFile = resolve(process.argv[2] ?? join(appDir, 'src', 'runtime', 'opening', 'opening-replies.ts'));
/** The stateless revision this server serves besides the 2025 era ones (apps/mcp-server/README.md, Protocol revisions). */
const MODERN_REVISIONS = ['2026-07-28'];

const entry = `
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { READ_CATALOGUE } from '@pfsense-mcp/pfsense-read';
import { sdkReplies } from './apps/mcp-server/test/support/sdk-opening-replies.ts';
import { Capability } from '@pfsense-mcp/policy';
import { INFO_TOOL_CAPABILITY, INFO_TOOL_NAME } from './apps/mcp-server/src/tools/register-info-tool.ts';
import { WRITE_OPERATIONS_TOOL_NAME, WRITE_TOOL_NAME } from './apps/mcp-server/src/index.ts';
export { SUPPORTED_PROTOCOL_VERSIONS, READ_CATALOGUE, sdkReplies, INFO_TOOL_CAPABILITY, INFO_TOOL_NAME, WRITE_OPERATIONS_TOOL_NAME, WRITE_TOOL_NAME };
export const WRITE_CAPABILITY = Capability.ALIAS_WRITE;
`;
const sdk = await importWorkspaceBundle(workspaceRoot, entry, {
  // The write tools' modules reach the SQLite stores; listing opens none, and a data: module cannot load an addon.
  plugins: [
    {
      name: 'no-sqlite',
      setup(b) {
        b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: 'better-sqlite3', namespace: 'no-sqlite' }));
        b.onLoad({ filter: /.*/, namespace: 'no-sqlite' }, () => ({
          contents: 'export default function Database() { throw new Error("no SQLite in the generator"); }',
          loader: 'js',
        }));
      },
    },
  ],
  // Bundled CommonJS may call require() (node: built-ins only); a data: module has no URL to anchor one on.
  banner: {
    js: `import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(${JSON.stringify(join(workspaceRoot, 'package.json'))});`,
  },
});

const clientInfo = { name: 'generator', version: '0' };
const envelope = (revision) => ({
  'io.modelcontextprotocol/protocolVersion': revision,
  'io.modelcontextprotocol/clientInfo': clientInfo,
  'io.modelcontextprotocol/clientCapabilities': {},
});
const resultOf = (reply) => {
  if (reply.result === undefined) throw new Error(`generate-opening-replies: the SDK refused: ${JSON.stringify(reply.error)}`);
  return reply.result;
};
const withoutTools = (result) => ({ ...result, tools: [] });

const auditor = { profile: 'auditor', allowedTools: null, toolsets: null };
const writeTools = [sdk.WRITE_TOOL_NAME, sdk.WRITE_OPERATIONS_TOOL_NAME];
const everything = { profile: 'write_protected', allowedTools: null, toolsets: null, writeTools };

const initialize = {};
for (const revision of sdk.SUPPORTED_PROTOCOL_VERSIONS.filter((v) => !MODERN_REVISIONS.includes(v))) {
  const [reply] = await sdk.sdkReplies(auditor, [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo } },
  ]);
  initialize[revision] = resultOf(reply);
}
const discover = {};
const modernToolsList = {};
for (const revision of MODERN_REVISIONS) {
  const [opened, listed] = await sdk.sdkReplies(auditor, [
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope(revision) } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope(revision) } },
  ]);
  discover[revision] = resultOf(opened);
  modernToolsList[revision] = withoutTools(resultOf(listed));
}
const [, legacyListed] = await sdk.sdkReplies(everything, [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: sdk.SUPPORTED_PROTOCOL_VERSIONS[0], capabilities: {}, clientInfo },
  },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]);
const capabilities = new Map(sdk.READ_CATALOGUE.map((t) => [t.name, t.capability]));
const tools = resultOf(legacyListed).tools.map((listed) => ({
  name: listed.name,
  kind: listed.name === sdk.INFO_TOOL_NAME ? 'info' : writeTools.includes(listed.name) ? 'write' : 'read',
  capability:
    listed.name === sdk.INFO_TOOL_NAME
      ? sdk.INFO_TOOL_CAPABILITY
      : (capabilities.get(listed.name) ?? (writeTools.includes(listed.name) ? sdk.WRITE_CAPABILITY : null)),
  listed,
}));
const replies = { initialize, discover, toolsList: { legacy: withoutTools(resultOf(legacyListed)), modern: modernToolsList }, tools };

const lines = [
  '// GENERATED by apps/mcp-server/scripts/generate-opening-replies.mjs from the MCP SDK server of this program — DO NOT EDIT.',
  '// Re-run the generator after changing a tool, its schemas, the server identity or the SDK; test/early-opening.test.ts',
  "// fails on drift. The SDK's own answers to the opening requests and every tool entry of tools/list, in registration",
  '// order, so the first replies need neither the SDK nor zod nor the catalogue (docs/DESIGN.md §8). A JSON string:',
  '// parsed once, when the first reply is made, faster than a literal of this size.',
  '',
  `export const OPENING_REPLIES_JSON = ${JSON.stringify(JSON.stringify(replies))};`,
  '',
];
writeFileSync(outFile, lines.join('\n'));
process.stdout.write(
  `wrote ${Object.keys(initialize).length} initialize, ${Object.keys(discover).length} discover replies and ${tools.length} tools to ${outFile}\n`,
);
