// One world for the in-process write suites: one simulator per file (the write-path keys, write-simulator.ts),
// write directories made in the test process, and the in-process harness over them; everything a test opens is
// closed after the file. The hooks are registered by `useInProcessWriteWorld` at collection time.
import { afterAll, beforeAll } from 'vitest';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import type { Era } from './clients.js';
import { initTestWriteDirectory, keyFile, type TestWriteDirectory } from './test-write-directory.js';
import { serverConfig, startWriteHarness, type WriteHarness } from './write-harness.js';
import { READ_KEY, WRITE_KEY, startWriteSimulator } from './write-simulator.js';

export interface HarnessOptions {
  readonly allowListed?: () => boolean;
  /** The READ key the harness presents (default READ_KEY). */
  readonly readKey?: string;
  readonly era?: Era;
}

export interface InProcessWriteWorld {
  /** The file's simulator (from `beforeAll` on). */
  readonly sim: RunningSimulator;
  /** A fresh write directory (removed after the file). */
  writeDir(options?: Parameters<typeof initTestWriteDirectory>[0]): Promise<TestWriteDirectory>;
  /** The harness on `w` (no write directory when null) with a fresh write-key file, closed after the file. */
  harness(w: TestWriteDirectory | null, extra?: Parameters<typeof serverConfig>[1], options?: HarnessOptions): Promise<WriteHarness>;
}

export function useInProcessWriteWorld(): InProcessWriteWorld {
  let sim: RunningSimulator | undefined;
  const open: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    sim = await startWriteSimulator();
  });
  afterAll(async () => {
    for (const close of open.splice(0).reverse()) await close();
    await sim?.close();
  });
  const running = (): RunningSimulator => {
    if (sim === undefined) throw new Error('the simulator is not started (outside the suite hooks)');
    return sim;
  };
  return Object.freeze({
    get sim(): RunningSimulator {
      return running();
    },
    writeDir: async (options: Parameters<typeof initTestWriteDirectory>[0] = {}): Promise<TestWriteDirectory> => {
      const w = await initTestWriteDirectory(options);
      open.push(() => w.cleanup());
      return w;
    },
    harness: async (
      w: TestWriteDirectory | null,
      extra: Parameters<typeof serverConfig>[1] = {},
      options: HarnessOptions = {},
    ): Promise<WriteHarness> => {
      const writeKeyFile = w === null ? null : keyFile(w.root, `write-key-${Math.random().toString(16).slice(2)}`, WRITE_KEY);
      const config = serverConfig(running(), {
        write: {
          dir: w?.layout.dir ?? null,
          anchorDir: w?.layout.anchorDirIsExternal === true ? w.layout.anchorDir : null,
          apiKeyFile: writeKeyFile,
          ...extra.write,
        },
        ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'write')),
      });
      const h = await startWriteHarness(config, options.readKey ?? READ_KEY, options);
      open.push(() => h.close());
      return h;
    },
  });
}
