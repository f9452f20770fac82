#!/usr/bin/env node
// `npm run pack:signer`: the operator's package, `pfsense-mcp-signer-<version>.tgz` — the signer alone, for the
// machine that holds the operator keys. The server's package (`npm pack` at the root) does not carry it: the
// signer belongs on another machine than the server (docs/DESIGN.md §10). The package is the signer's one bundle
// (it has no SQLite and no network code: apps/signer-cli/test checks the bundle, tools/repo-checks the package),
// its README and the licence; no dependencies.
//
// Usage: node tools/scripts/pack-signer.mjs [--out DIR] [--no-build] [--json]
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROGRAMS, workspaceRoot } from './programs.mjs';

const args = process.argv.slice(2);
const HELP = `usage: npm run pack:signer -- [--out DIR] [--no-build] [--json]
Packs pfsense-mcp-signer-<version>.tgz (the operator's signer alone) into DIR (default: the workspace root).
Prints the tarball's path (with --json: {"file", "files"}) on stdout.
`;
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}
const known = new Set(['--out', '--no-build', '--json']);
for (let i = 0; i < args.length; i += 1) {
  if (!known.has(args[i])) {
    process.stderr.write(`pack-signer: unknown option ${JSON.stringify(args[i])}\n${HELP}`);
    process.exit(2);
  }
  if (args[i] === '--out') i += 1;
}
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? resolve(args[outIndex + 1] ?? '') : workspaceRoot;
if (outIndex >= 0 && args[outIndex + 1] === undefined) {
  process.stderr.write(`pack-signer: --out needs a directory\n${HELP}`);
  process.exit(2);
}

const root = JSON.parse(readFileSync(join(workspaceRoot, 'package.json'), 'utf8'));
const entry = join(workspaceRoot, PROGRAMS['signer-cli'].entry);
if (!args.includes('--no-build')) {
  execFileSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'build-program.mjs'), 'signer-cli'], {
    cwd: workspaceRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
if (!existsSync(entry)) {
  process.stderr.write(`pack-signer: ${PROGRAMS['signer-cli'].entry} is missing; run without --no-build\n`);
  process.exit(1);
}

const stage = mkdtempSync(join(tmpdir(), 'pfsense-mcp-signer-pack-'));
try {
  const manifest = {
    name: 'pfsense-mcp-signer',
    version: root.version,
    description: "pfsense-mcp's off-host signer: reviews the server's requests and signs the operator's approvals.",
    license: root.license,
    keywords: ['mcp', 'pfsense', 'ed25519', 'signer'],
    type: 'module',
    engines: root.engines,
    bin: { 'pfsense-mcp-signer': 'main.js' },
    files: ['main.js', 'README.md', 'LICENSE'],
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(entry, join(stage, 'main.js'));
  copyFileSync(join(workspaceRoot, 'apps', 'signer-cli', 'README.md'), join(stage, 'README.md'));
  copyFileSync(join(workspaceRoot, 'LICENSE'), join(stage, 'LICENSE'));
  mkdirSync(out, { recursive: true });
  const report = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: stage,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const file = join(out, report[0].filename);
  const files = report[0].files.map((f) => f.path).sort();
  process.stdout.write(args.includes('--json') ? `${JSON.stringify({ file, files })}\n` : `${file}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
