import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface BuiltSimulator {
  readonly url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Spawns dist/tools/pfsense-sim/main.js with `args` and resolves on its JSON ready line. */
export function startBuiltSimulator(workspaceRoot: string, args: readonly string[]): Promise<BuiltSimulator> {
  const main = join(workspaceRoot, 'dist', 'tools', 'pfsense-sim', 'main.js');
  if (!existsSync(main)) return Promise.reject(new Error('bench: dist/tools/pfsense-sim/main.js is missing; run `npm run build`'));
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('bench: the simulator did not become ready'));
    }, 30_000);
    child.once('exit', () => reject(new Error('bench: the simulator exited before it was ready')));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      child.stdout.resume();
      const ready = JSON.parse(buffered.slice(0, end)) as { url: string };
      resolve({
        url: ready.url,
        apiKey: '',
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
