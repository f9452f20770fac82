import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PROFILES } from '@pfsense-mcp/policy';
import { result, type BenchResult } from './bench-result.js';
import type { Benchmark } from './benchmark.js';
import { modelFacingBytes, estimatedTokens } from './model-facing-size.js';

/** docs/DESIGN.md §8: the model-facing part of the full READ surface (the auditor profile) stays ≤ 48 KB (it lists fields, filter, sort_by and sort_order on every list tool). */
const AUDITOR_TARGET_BYTES = 48 * 1024;

interface ListedTools {
  readonly tools: readonly { name: string; description?: string; inputSchema: unknown }[];
  readonly toolsets: readonly string[];
}

/** Spawns the built server with `extraEnv`, lists its tools as a client does, and asks pfsense_mcp_info for the toolsets. */
async function listTools(server: string, env: Record<string, string>, extraEnv: Record<string, string>, cwd: string): Promise<ListedTools> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [server],
    env: { ...env, ...extraEnv },
    cwd,
    stderr: 'ignore',
  });
  // The v2 SDK Client on the current revision (the tool definitions are the same in both eras).
  const client = new Client({ name: 'pfsense-mcp-bench', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    let toolsets: string[] = [];
    if (tools.some((t) => t.name === 'pfsense_mcp_info')) {
      const info = await client.callTool({ name: 'pfsense_mcp_info', arguments: {} });
      const sets = (info.structuredContent as { toolsets?: { name: string }[] } | undefined)?.toolsets ?? [];
      toolsets = sets.map((s) => s.name);
    }
    return { tools, toolsets };
  } finally {
    await client.close();
  }
}

/**
 * Tool surface: the model-facing part of `tools/list` (each tool's name, description and input schema, as JSON)
 * of the built server, as an MCP client receives it — per profile, then per toolset of the auditor profile
 * (PFSENSE_TOOLSETS=<one set>, which also keeps pfsense_mcp_info). Bytes, and tokens estimated at 4 bytes per
 * token. Target: the auditor profile ≤ 48 KB.
 */
export const toolSurfaceBenchmark: Benchmark = {
  id: 'tool-surface',
  title: 'Tool surface: model-facing tools/list size per profile and per toolset',
  async run(ctx) {
    const server = join(ctx.workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js');
    if (!existsSync(server)) throw new Error('bench: dist/apps/mcp-server/main.js is missing; run `npm run build`');
    const dir = mkdtempSync(join(tmpdir(), 'bench-surface-'));
    chmodSync(dir, 0o700);
    const keyFile = join(dir, 'api-key');
    writeFileSync(keyFile, 'bench-key-0123456789abcdef\n', { mode: 0o600 });
    // Listing tools and pfsense_mcp_info make no network call, so nothing needs to listen on the port.
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      PFSENSE_URL: 'http://127.0.0.1:9',
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_LOG_LEVEL: 'silent',
    };
    const out: BenchResult[] = [];
    const add = (label: string, listed: ListedTools, target: number | null) => {
      const bytes = modelFacingBytes(listed.tools);
      out.push(result(`tool_surface_${label}_bytes`, bytes, 'bytes', null, target));
      out.push(result(`tool_surface_${label}_tokens_est`, estimatedTokens(bytes), 'tokens'));
      out.push(result(`tool_surface_${label}_tools`, listed.tools.length, 'tools'));
    };
    try {
      let toolsets: readonly string[] = [];
      for (const profile of PROFILES) {
        const listed = await listTools(server, env, { PFSENSE_PROFILE: profile }, ctx.workspaceRoot);
        if (profile === 'auditor') toolsets = listed.toolsets;
        add(`profile_${profile}`, listed, profile === 'auditor' ? AUDITOR_TARGET_BYTES : null);
      }
      for (const set of toolsets) add(`toolset_${set}`, await listTools(server, env, { PFSENSE_TOOLSETS: set }, ctx.workspaceRoot), null);
      ctx.note(
        `tool surface: ${PROFILES.length} profiles, ${toolsets.length} toolsets (auditor profile; each also lists pfsense_mcp_info)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return out;
  },
};
