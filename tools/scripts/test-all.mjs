#!/usr/bin/env node
// `npm test`: lint, typecheck, build and every test of every project through `nx run-many`, then one closing
// line `N passed, N failed` (CI reads it) added up from each project's vitest JSON report. A lint, typecheck or
// build failure counts as one failed check per failed task, so the line never says "0 failed" on a red run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from './programs.mjs';

const reportDir = join(workspaceRoot, 'tmp', 'vitest');
rmSync(reportDir, { recursive: true, force: true });

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' };
const nx = join(workspaceRoot, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
const started = Date.now();
// Stream nx's output as it comes (a long run shows progress) and keep a copy to read the failed-task list.
const child = spawn(
  process.execPath,
  [nx, 'run-many', '-t', 'lint', 'typecheck', 'test', '--skip-nx-cache', '--outputStyle=static', '--parallel=2'],
  { cwd: workspaceRoot, env, stdio: ['ignore', 'pipe', 'inherit'] },
);
let output = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
const status = await new Promise((resolveStatus) => child.on('close', (code) => resolveStatus(code ?? 1)));
const run = { status, stdout: output };

let passed = 0;
let failed = 0;
let skipped = 0;
const perProject = [];
if (existsSync(reportDir)) {
  for (const file of readdirSync(reportDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    let report;
    try {
      report = JSON.parse(readFileSync(join(reportDir, file), 'utf8'));
    } catch {
      // A report cut short (a killed vitest) is a failure of that project, not a reason to lose the closing line.
      failed += 1;
      perProject.push(`${file.replace(/\.json$/, '')}: unreadable report, counted as 1 failed`);
      continue;
    }
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    // A suite that fails to load has no failed *tests*; count it so the line stays honest.
    const brokenSuites = report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
    failed += brokenSuites;
    perProject.push(`${file.replace(/\.json$/, '')}: ${report.numPassedTests} passed, ${report.numFailedTests + brokenSuites} failed`);
  }
}
// Tasks nx lists under "Failed tasks:" (lint, typecheck, build, or a test run).
const failedSection = /Failed tasks:\n\n((?:- [^\n]+\n)+)/u.exec(run.stdout ?? '');
const failedTasks = failedSection
  ? failedSection[1]
      .trim()
      .split('\n')
      .map((l) => l.replace(/^- /u, '').trim())
  : [];
const nonTestFailures = failedTasks.filter((t) => !t.endsWith(':test')).length;
if (run.status !== 0 && failed === 0 && nonTestFailures === 0) failed += 1;
failed += nonTestFailures;

process.stdout.write(`\n${perProject.join('\n')}\n`);
if (failedTasks.length > 0) process.stdout.write(`failed tasks: ${failedTasks.join(', ')}\n`);
process.stdout.write(`took ${Math.round((Date.now() - started) / 1000)} s\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
