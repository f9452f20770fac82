// The two packages as users get them. The server's: `npm pack` at the root, the tarball installed into an empty
// project with `npm install --omit=dev`, and its two commands run from there (a real MCP client for the server); it
// holds no signer. The operator's: `npm run pack:signer`, installed into another empty project, `pfsense-mcp-signer`
// run from there; it holds the signer's bundle alone, with no dependency (no SQLite, no network package).
//
// better-sqlite3 is the one runtime dependency (a native addon; every other dependency is bundled into the
// programs). A user's install downloads a prebuilt addon or compiles it; neither is possible quickly here (no
// download host, and compiling takes minutes), so the test installs with --ignore-scripts and puts the addon the
// workspace compiled for this same Node (same ABI) where the install script would have put it.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  realpathSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownAnchors } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const PROGRAMS = [
  { name: 'mcp-server', bundle: 'dist/apps/mcp-server/main.js', sources: ['apps/mcp-server/src', 'libs'] },
  { name: 'signer-cli', bundle: 'dist/apps/signer-cli/main.js', sources: ['apps/signer-cli/src', 'libs'] },
  { name: 'pfsense-sim', bundle: 'dist/tools/pfsense-sim/main.js', sources: ['tools/pfsense-sim/src'] },
] as const;
const EXPECTED_FILES = [
  'CHANGELOG.md',
  'LICENSE',
  'README.md',
  'dist/apps/mcp-server/main.js',
  'dist/tools/pfsense-sim/main.js',
  'package.json',
  'server.json',
  // The documents the programs point to (docs/), and the READMEs and source note those documents link.
  'docs/DESIGN.md',
  'docs/OPERATIONS.md',
  'vendor/pfrest/SOURCE.md',
];
/** Every README.md of apps/, libs/ and tools/ in the workspace: the package ships them for docs/DESIGN.md's links. */
const README_FILES = ['apps', 'libs', 'tools'].flatMap((top) =>
  readdirSync(join(WORKSPACE_ROOT, top))
    .filter((d) => existsSync(join(WORKSPACE_ROOT, top, d, 'README.md')))
    .map((d) => `${top}/${d}/README.md`),
);

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
let signerProject: string;
let signerFiles: string[];
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
  // The operator's package, packed by the script `npm run pack:signer` runs (the bundle is current: --no-build).
  const signer = JSON.parse(
    execFileSync(process.execPath, ['tools/scripts/pack-signer.mjs', '--no-build', '--json', '--out', work], {
      cwd: WORKSPACE_ROOT,
      encoding: 'utf8',
    }),
  ) as { file: string; files: string[] };
  signerFiles = signer.files;
  signerProject = join(work, 'signer-project');
  mkdirSync(signerProject);
  writeFileSync(join(signerProject, 'package.json'), JSON.stringify({ name: 'operator-machine', version: '1.0.0', private: true }));
  npm(['install', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-package-lock', signer.file], signerProject);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package pfsense-mcp', () => {
  it('holds exactly the server and the simulator, README, LICENSE, server.json and package.json (no signer, tests, maps, fixtures, keys)', () => {
    // The server is code-split: main.js loads content-hashed chunks from its own directory, exactly those of its build.
    const chunk = /^dist\/apps\/mcp-server\/[a-z-]+-[A-Z0-9]{8}\.js$/u;
    const built = readdirSync(join(WORKSPACE_ROOT, 'dist', 'apps', 'mcp-server'))
      .filter((f) => f !== 'main.js')
      .map((f) => `dist/apps/mcp-server/${f}`);
    expect(built.length).toBeGreaterThan(0);
    expect(built.every((f) => chunk.test(f))).toBe(true);
    expect(packedFiles).toEqual([...EXPECTED_FILES, ...README_FILES, ...built].sort());
    expect(packedFiles.filter((f) => !f.endsWith('.md') && /\.map$|test|fixture|\.key$|\.pem$|lab-runner|bench|signer/u.test(f))).toEqual(
      [],
    );
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'pfsense-mcp', 'package.json'), 'utf8')) as { bin: object };
    expect(Object.keys(manifest.bin).sort()).toEqual(['pfsense-mcp', 'pfsense-sim']);
    expect(existsSync(bin('pfsense-mcp-signer'))).toBe(false);
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

  it('pfsense-sim --help answers', () => {
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

describe('the documents the installed programs point to', () => {
  it('every docs/… reference printed by admin --help, init and status is a file of the installed package, its anchor a heading', () => {
    const dir = join(work, 'write-dir');
    const outputs = [
      spawnSync(bin('pfsense-mcp'), ['admin', '--help'], { env: env(), encoding: 'utf8' }),
      spawnSync(bin('pfsense-mcp'), ['admin', 'init', '--dir', dir], { env: env(), encoding: 'utf8' }),
      spawnSync(bin('pfsense-mcp'), ['admin', 'status', '--dir', dir], { env: env(), encoding: 'utf8' }),
    ];
    for (const r of outputs) expect(r.status, r.stderr).toBe(0);
    const printed = outputs.map((r) => `${r.stdout}\n${r.stderr}`).join('\n');
    const references = [...printed.matchAll(/(\/[^\s`'"()]*\/docs\/(?:OPERATIONS|DESIGN)\.md)(?:#([a-z0-9-]+))?/gu)];
    expect(references.length).toBeGreaterThanOrEqual(3);
    expect(printed).not.toMatch(/(?<![\w/])docs\/(?:OPERATIONS|DESIGN)\.md/u);
    const packageDir = realpathSync(join(project, 'node_modules', 'pfsense-mcp'));
    for (const [, path, anchor] of references) {
      expect(realpathSync(path as string).startsWith(`${packageDir}/`), path).toBe(true);
      if (anchor !== undefined) expect(markdownAnchors(readFileSync(path as string, 'utf8')).has(anchor), `${path}#${anchor}`).toBe(true);
    }
  });
});

describe('the packed package pfsense-mcp-signer (the operator machine)', () => {
  it('holds the signer bundle, its README, LICENSE and package.json, and depends on nothing', () => {
    expect(signerFiles).toEqual(['LICENSE', 'README.md', 'main.js', 'package.json']);
    const manifest = JSON.parse(readFileSync(join(signerProject, 'node_modules', 'pfsense-mcp-signer', 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest['dependencies']).toBeUndefined();
    expect(manifest['bin']).toEqual({ 'pfsense-mcp-signer': 'main.js' });
    const installed = readdirSync(join(signerProject, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(['pfsense-mcp-signer']);
    const bundle = readFileSync(join(signerProject, 'node_modules', 'pfsense-mcp-signer', 'main.js'), 'utf8');
    for (const absent of ['better-sqlite3', 'node:http', 'node:https', 'node:net', 'node:tls', 'undici', 'XMLHttpRequest', 'WebSocket('])
      expect(bundle).not.toContain(absent);
  });

  it('pfsense-mcp-signer --version and --help answer from the installed package', () => {
    const { version } = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as { version: string };
    const signerBin = join(signerProject, 'node_modules', '.bin', 'pfsense-mcp-signer');
    const v = spawnSync(signerBin, ['--version'], { env: env(), encoding: 'utf8' });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain(version);
    const help = spawnSync(signerBin, ['--help'], { env: env(), encoding: 'utf8' });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('pfsense-mcp-signer');
  });
});
