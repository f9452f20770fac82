import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildChildScript, runChild, startChild } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'test-support-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('child processes for crash and race tests', () => {
  it('bundles a TypeScript fixture, passes the job as JSON in the environment and reads JSON lines', async () => {
    const entry = join(dir, 'echo-child.ts');
    writeFileSync(
      entry,
      "const job = JSON.parse(process.env['JOB'] ?? '{}') as { n: number };\n" +
        "for (let i = 0; i < job.n; i++) process.stdout.write(JSON.stringify({ i }) + '\\n');\n" +
        "process.stdin.on('data', () => undefined);\nprocess.stdin.on('end', () => process.exit(3));\n",
    );
    const built = await buildChildScript(entry, 'test-support-child');
    try {
      const running = startChild(built.script, 'JOB', { n: 3 });
      expect(await running.waitFor((l) => l['i'] === 2)).toEqual({ i: 2 });
      running.process.stdin?.end();
      const result = await running.done;
      expect([result.code, result.lines]).toEqual([3, [{ i: 0 }, { i: 1 }, { i: 2 }]]);
      const again = await runChild(built.script, 'JOB', { n: 1 });
      expect(again.lines).toEqual([{ i: 0 }]);
    } finally {
      built.remove();
    }
  });

  it('rejects a wait for a line the child never prints, once it exits', async () => {
    const entry = join(dir, 'silent-child.ts');
    writeFileSync(entry, 'process.exit(0);\n');
    const built = await buildChildScript(entry, 'test-support-child');
    try {
      await expect(startChild(built.script, 'JOB', {}).waitFor(() => true)).rejects.toThrow(/exited before/);
    } finally {
      built.remove();
    }
  });
});
