#!/usr/bin/env node
// The READ part of the demo: a real MCP client (the v2 SDK's, on protocol revision 2026-07-28) launches
// `pfsense-mcp --demo` over stdio — the server starts the bundled simulator itself — lists the tools and calls
// a few, as an AI client would.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PROGRAMS, workspaceRoot } from './programs.mjs';

const tty = process.stdout.isTTY;
const bold = (s) => (tty ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s) => (tty ? `\x1b[2m${s}\x1b[0m` : s);
const say = (s = '') => process.stdout.write(`${s}\n`);

for (const name of ['pfsense-sim', 'mcp-server']) {
  const r = spawnSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'build-program.mjs'), name], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(workspaceRoot, PROGRAMS['mcp-server'].entry), '--demo'],
  stderr: 'ignore',
});
// `auto`: probe with server/discover and take the current revision, falling back to the 2025 handshake.
const client = new Client({ name: 'pfsense-mcp-demo', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(transport);
try {
  const era = client.getProtocolEra() === 'modern' ? 'protocol revision 2026-07-28 (server/discover)' : 'a 2025 revision (initialize)';
  say(dim(`   connected over stdio, ${era}`));
  const { tools } = await client.listTools();
  const writes = tools.filter((t) => t.annotations?.readOnlyHint !== true);
  say(bold(`1. The server lists ${tools.length} tools (profile auditor): ${tools.length - writes.length} read-only, ${writes.length} that write.`));
  say(dim(`   e.g. ${tools.slice(0, 4).map((t) => t.name).join(', ')}, …`));
  say();

  const call = async (name, args = {}) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  };

  const info = await call('pfsense_mcp_info');
  say(bold('2. pfsense_mcp_info') + dim('  (answered by the server itself, no upstream call)'));
  say(`   ${JSON.stringify(info)}`);
  say();

  const aliases = await call('pfsense_get_firewall_aliases', { limit: 5 });
  say(bold('3. pfsense_get_firewall_aliases {limit: 5}') + dim('  (a GET to the simulator, projected to an allow-list)'));
  for (const a of aliases.data ?? []) say(`   ${String(a.name).padEnd(20)} ${String(a.type).padEnd(8)} ${a.descr ?? ''}`);
  say();

  const rules = await call('pfsense_get_firewall_rules', { limit: 5 });
  say(bold('4. pfsense_get_firewall_rules {limit: 5}'));
  for (const r of rules.data ?? []) say(`   ${String(r.type).padEnd(6)} ${String(r.interface).padEnd(10)} ${r.descr ?? ''}`);
  say();

  const certs = await call('pfsense_get_system_certificates', { limit: 3 });
  say(bold('5. pfsense_get_system_certificates {limit: 3}') + dim('  (private keys exist in no output model)'));
  for (const c of certs.data ?? []) say(`   ${c.descr ?? c.refid ?? ''}  fields: ${Object.keys(c).join(', ')}`);
  say();
  say('Point your own MCP client at it: see apps/mcp-server/README.md. `npm start` runs the same demo server.');
} finally {
  await client.close();
}
