// The product package as a user gets it: `npm pack` at the root, the tarball installed into an empty project with
// `npm install --omit=dev`, and the three installed commands run from there (a real MCP client for the server).
//
// better-sqlite3 is the one runtime dependency (a native addon; every other dependency is bundled into the
// programs). A user's install downloads a prebuilt addon or compiles it; neither is possible quickly here (no
// download host, and compiling takes minutes), so the test installs with --ignore-scripts and puts the addon the
// workspace compiled for this same Node (same ABI) where the install script would have put it.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_ROOT } from './workspace-root.js';

const PROGRAMS = [
  { name: 'mcp-server', bundle: 'dist/apps/mcp-server/main.js', sources: ['apps/mcp-server/src', 'libs'] },
  { name: 'signer-cli', bundle: 'dist/apps/signer-cli/main.js', sources: ['apps/signer-cli/src', 'libs'] },
  { name: 'pfsense-sim', bundle: 'dist/tools/pfsense-sim/main.js', sources: ['tools/pfsense-sim/src'] },
] as const;
const EXPECTED_FILES = [
  'LICENSE',
  'README.md',
  'dist/apps/mcp-server/main.js',
  'dist/apps/signer-cli/main.js',
  'dist/tools/pfsense-sim/main.js',
  'package.json',
  'server.json',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(path)) if (e !== 'node_modules' && e !== 'test') newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}

/** Builds a program only when its bundle is missing or older than its sources (other suites may be running it). */
function ensureBuilt(): void {
  for (const p of PROGRAMS) {
    const bundle = join(WORKSPACE_ROOT, p.bundle);
    const stale = !existsSync(bundle) || p.sources.some((s) => newestMtime(join(WORKSPACE_ROOT, s)) > statSync(bundle).mtimeMs);
    if (stale) execFileSync(process.execPath, ['tools/scripts/build-program.mjs', p.name], { cwd: WORKSPACE_ROOT, stdio: 'ignore' });
  }
}

let work: string;
let project: string;
let packedFiles: string[];
// The installed commands run with this test's Node first on PATH (their `#!/usr/bin/env node` finds it).
const env = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}` });
const bin = (name: string) => join(project, 'node_modules', '.bin', name);
const npm = (args: readonly string[], cwd: string) =>
  execFileSync('npm', [...args], {
    cwd,
    env: { ...env(), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'pfsense-mcp-pack-'));
  // prepack builds everything; the bundles are current already (ensureBuilt), so pack without scripts.
  const report = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], WORKSPACE_ROOT)) as [
    { filename: string; files: { path: string }[] },
  ];
  packedFiles = report[0].files.map((f) => f.path).sort();
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true }));
  npm(['install', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-package-lock', join(work, report[0].filename)], project);
  const addonDir = join(project, 'node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(addonDir, { recursive: true });
  copyFileSync(
    join(WORKSPACE_ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
    join(addonDir, 'better_sqlite3.node'),
  );
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package pfsense-mcp', () => {
  it('holds exactly the three programs, README, LICENSE, server.json and package.json (no tests, maps, fixtures, keys)', () => {
    // The server is code-split: main.js loads content-hashed chunks from its own directory, exactly those of its build.
    const chunk = /^dist\/apps\/mcp-server\/[a-z-]+-[A-Z0-9]{8}\.js$/u;
    const built = readdirSync(join(WORKSPACE_ROOT, 'dist', 'apps', 'mcp-server'))
      .filter((f) => f !== 'main.js')
      .map((f) => `dist/apps/mcp-server/${f}`);
    expect(built.length).toBeGreaterThan(0);
    expect(built.every((f) => chunk.test(f))).toBe(true);
    expect(packedFiles).toEqual([...EXPECTED_FILES, ...built].sort());
    expect(packedFiles.filter((f) => /\.map$|test|fixture|\.key$|\.pem$|lab-runner|bench/u.test(f))).toEqual([]);
  });

  it('installs with only better-sqlite3 and its own dependencies beside it', () => {
    const installed = readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed).toContain('pfsense-mcp');
    expect(installed).toContain('better-sqlite3');
    // Bundled, so never installed: the SDK, zod, kysely, noble.
    for (const bundled of ['@modelcontextprotocol', 'zod', 'kysely', '@noble']) expect(installed).not.toContain(bundled);
  });

  it('pfsense-mcp --version names the package version', () => {
    const { version } = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = spawnSync(bin('pfsense-mcp'), ['--version'], { env: env(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.startsWith(`pfsense-mcp ${version} `), r.stdout).toBe(true);
  });

  it('pfsense-mcp-signer --help and pfsense-sim --help answer', () => {
    const signer = spawnSync(bin('pfsense-mcp-signer'), ['--help'], { env: env(), encoding: 'utf8' });
    expect(signer.status, signer.stderr).toBe(0);
    expect(signer.stdout).toContain('pfsense-mcp-signer');
    const sim = spawnSync(bin('pfsense-sim'), ['--help'], { env: env(), encoding: 'utf8' });
    expect(sim.status, sim.stderr).toBe(0);
    expect(sim.stdout).toContain('pfsense-sim');
  });

  it('pfsense-mcp --demo serves an MCP client: server/discover and tools/list against the bundled simulator', async () => {
    const transport = new StdioClientTransport({
      command: bin('pfsense-mcp'),
      args: ['--demo'],
      env: env() as Record<string, string>,
      stderr: 'pipe',
    });
    // The v2 SDK Client in auto mode: it probes with server/discover and must land on 2026-07-28.
    const client = new Client({ name: 'packed-install-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getServerVersion()?.name).toBe('pfsense-mcp');
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(50);
      expect(tools.map((t) => t.name)).toContain('pfsense_get_firewall_aliases');
      const aliases = await client.callTool({ name: 'pfsense_get_firewall_aliases', arguments: { limit: 1 } });
      expect(aliases.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);
});
