// Proves the layering law really fails lint: each case lints a violating file placed (virtually) inside a
// project and expects the named rule to fire. A case that stops firing means the table was loosened.
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
let eslint: ESLint;

beforeAll(() => {
  // @nx/enforce-module-boundaries reads Nx's cached project graph; make sure it exists.
  execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  eslint = new ESLint({ cwd: root });
}, 120_000);

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
}

const cases: ReadonlyArray<{ name: string; file: string; code: string; rule: string; mentions: string }> = [
  {
    name: 'canonical importing executor',
    file: 'libs/canonical/src/zz-fixture.ts',
    code: "import { MutationExecutor } from '@pfsense-mcp/executor';\nexport const x = MutationExecutor;\n",
    rule: 'boundaries/dependencies',
    mentions: '"canonical" may not import "executor"',
  },
  {
    name: 'signer-cli importing transports',
    file: 'apps/signer-cli/src/zz-fixture.ts',
    code: "import { createHttpTransport } from '@pfsense-mcp/transports';\nexport const x = createHttpTransport;\n",
    rule: 'boundaries/dependencies',
    mentions: '"signer-cli" may not import "transports"',
  },
  {
    name: 'pfsense-sim importing a product lib',
    file: 'tools/pfsense-sim/src/zz-fixture.ts',
    code: "import { canonicalize } from '@pfsense-mcp/canonical';\nexport const x = canonicalize;\n",
    rule: 'boundaries/dependencies',
    mentions: '"pfsense-sim" may not import "canonical"',
  },
  {
    // The one edge between the two is contract-store → authorization (the shared config-history invariants); the
    // reverse would put SQLite into the signer, which imports authorization.
    name: 'authorization importing the contract store',
    file: 'libs/authorization/src/zz-fixture.ts',
    code: "import { configHistoryRecordSchema } from '@pfsense-mcp/contract-store';\nexport const x = configHistoryRecordSchema;\n",
    rule: 'boundaries/dependencies',
    mentions: '"authorization" may not import "contract-store"',
  },
  {
    name: "mcp-server's tools/ importing the contract store",
    file: 'apps/mcp-server/src/tools/zz-fixture.ts',
    code: "import { x as y } from '@pfsense-mcp/contract-store';\nexport const x = y;\n",
    rule: 'boundaries/dependencies',
    mentions: 'may not import "contract-store"',
  },
  {
    name: 'foundation importing a product library',
    file: 'libs/foundation/src/zz-fixture.ts',
    code: "import { digest } from '@pfsense-mcp/canonical';\nexport const x = digest;\n",
    rule: 'boundaries/dependencies',
    mentions: '"foundation" may not import "canonical"',
  },
  {
    name: 'foundation importing a package',
    file: 'libs/foundation/src/zz-fixture.ts',
    code: "import { z } from 'zod';\nexport const x = z;\n",
    rule: 'no-restricted-imports',
    mentions: 'nothing but node: built-ins',
  },
  {
    name: 'foundation keeps the cross-project rules next to its built-ins-only rule',
    file: 'libs/foundation/src/zz-fixture.ts',
    code: "import { x as y } from '../../canonical/src/digest.js';\nexport const x = y;\n",
    rule: 'no-restricted-imports',
    mentions: 'public entry',
  },
  {
    name: 'a tool importing foundation (only libs, apps, bench and the simulator, a shipped program, may)',
    file: 'tools/repo-checks/src/zz-fixture.ts',
    code: "import { deepFreeze } from '@pfsense-mcp/foundation';\nexport const x = deepFreeze;\n",
    rule: 'boundaries/dependencies',
    mentions: '"repo-checks" may not import "foundation"',
  },
  {
    name: 'a product source importing test support (the recording mock is for tests only)',
    file: 'libs/pfsense-read/src/zz-fixture.ts',
    code: "import { RecordingMockTransport } from '@pfsense-mcp/test-support';\nexport const x = RecordingMockTransport;\n",
    rule: 'boundaries/dependencies',
    mentions: '"pfsense-read" may not import "test-support"',
  },
  {
    name: 'test support importing a product library other than transports',
    file: 'tools/test-support/src/zz-fixture.ts',
    code: "import { digest } from '@pfsense-mcp/canonical';\nexport const x = digest;\n",
    rule: 'boundaries/dependencies',
    mentions: '"test-support" may not import "canonical"',
  },
  {
    name: 'crypto importing canonical internals by a relative path',
    file: 'libs/crypto/src/zz-fixture.ts',
    code: "import { x as y } from '../../canonical/src/digest.js';\nexport const x = y;\n",
    rule: 'no-restricted-imports',
    mentions: 'public entry',
  },
  {
    name: 'better-sqlite3 outside contract-store',
    file: 'libs/executor/src/zz-fixture.ts',
    code: "import Database from 'better-sqlite3';\nexport const x = Database;\n",
    rule: 'no-restricted-imports',
    mentions: 'only in contract-store',
  },
  {
    name: '@noble/hashes outside crypto',
    file: 'libs/canonical/src/zz-fixture.ts',
    code: "import { sha256 } from '@noble/hashes/sha2.js';\nexport const x = sha256;\n",
    rule: 'no-restricted-imports',
    mentions: 'only in crypto',
  },
  {
    name: 'the MCP server SDK outside mcp-server',
    file: 'libs/coordinator/src/zz-fixture.ts',
    code: "import { McpServer } from '@modelcontextprotocol/server';\nexport const x = McpServer;\n",
    rule: 'no-restricted-imports',
    mentions: 'only in mcp-server, repo-checks',
  },
  {
    name: 'the MCP client SDK (v2 or v1) in the signer',
    file: 'apps/signer-cli/src/zz-fixture.ts',
    code: "import { Client } from '@modelcontextprotocol/client';\nimport { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';\nexport const x = [Client, StdioClientTransport];\n",
    rule: 'no-restricted-imports',
    mentions: 'only in mcp-server, repo-checks',
  },
  {
    name: "the store's executor entry outside libs/executor",
    file: 'libs/coordinator/src/zz-fixture.ts',
    code: "import { x as y } from '@pfsense-mcp/contract-store/executor';\nexport const x = y;\n",
    rule: 'no-restricted-imports',
    mentions: 'only by libs/executor',
  },
  {
    name: 'lab-runner importing transports outside its runtime factory',
    file: 'apps/lab-runner/src/zz-fixture.ts',
    code: "import { FaultProxyTransport } from '@pfsense-mcp/transports';\nexport const x = FaultProxyTransport;\n",
    rule: 'no-restricted-imports',
    mentions: 'only by apps/lab-runner/src/runtime-factory.ts',
  },
  {
    name: 'lab-runner importing write-client (a type) outside its runtime factory',
    file: 'apps/lab-runner/src/zz-fixture.ts',
    code: "import type { WriteApiClient } from '@pfsense-mcp/write-client';\nexport type X = WriteApiClient;\n",
    rule: 'no-restricted-imports',
    mentions: 'only by apps/lab-runner/src/runtime-factory.ts',
  },
  {
    name: 'lab-runner keeps the confined-package rules next to its factory-only rule',
    file: 'apps/lab-runner/src/zz-fixture.ts',
    code: "import Database from 'better-sqlite3';\nexport const x = Database;\n",
    rule: 'no-restricted-imports',
    mentions: 'only in contract-store',
  },
  {
    name: "lab-runner's runtime factory still refused @noble/curves",
    file: 'apps/lab-runner/src/runtime-factory.ts',
    code: "import { ed25519 } from '@noble/curves/ed25519.js';\nexport const x = ed25519;\n",
    rule: 'no-restricted-imports',
    mentions: 'only in crypto',
  },
  {
    name: 'a loop in an adapter (the repo config wires the adapter rules)',
    file: 'libs/adapters/src/zz-fixture.ts',
    code: 'export function f(xs: number[]): number {\n  let n = 0;\n  for (const x of xs) n += x;\n  return n;\n}\n',
    rule: 'adapter-restrictions/no-loop',
    mentions: '',
  },
  {
    name: 'a value import of pfsense-read in an adapter',
    file: 'libs/adapters/src/zz-fixture.ts',
    code: "import { RestApiClient } from '@pfsense-mcp/pfsense-read';\nexport const x = RestApiClient;\n",
    rule: 'adapter-restrictions/pfsense-read-type-only',
    mentions: '',
  },
  {
    name: 'console in mcp-server',
    file: 'apps/mcp-server/src/zz-fixture.ts',
    code: "console.log('hello');\nexport {};\n",
    rule: 'no-console',
    mentions: '',
  },
  {
    name: 'importing stdout from node:process in mcp-server',
    file: 'apps/mcp-server/src/zz-fixture.ts',
    code: "import { stdout } from 'node:process';\nstdout.write('hello');\nexport {};\n",
    rule: 'no-restricted-imports',
    mentions: 'stdout belongs to the MCP protocol',
  },
  {
    name: 'process.stdout in mcp-server',
    file: 'apps/mcp-server/src/zz-fixture.ts',
    code: "process.stdout.write('hello');\nexport {};\n",
    rule: 'no-restricted-properties',
    mentions: 'stdout belongs to the MCP protocol',
  },
];

describe('layering lint', () => {
  for (const c of cases) {
    it(`fails on ${c.name}`, async () => {
      const messages = await lint(c.file, c.code);
      const hit = messages.find((m) => m.rule === c.rule);
      expect(hit, JSON.stringify(messages)).toBeDefined();
      expect(hit?.message).toContain(c.mentions);
    });
  }

  it('passes allowed edges: crypto importing canonical, executor importing the executor entry, the MCP SDK in mcp-server and bench', async () => {
    expect(
      await lint('libs/crypto/src/zz-fixture.ts', "import { digest } from '@pfsense-mcp/canonical';\nexport const x = digest;\n"),
    ).toEqual([]);
    const sdk =
      "import { McpServer } from '@modelcontextprotocol/server';\nimport { Client } from '@modelcontextprotocol/client';\nexport const x = [McpServer, Client];\n";
    for (const file of [
      'apps/mcp-server/src/runtime/zz-fixture.ts',
      'apps/mcp-server/test/zz-fixture.test.ts',
      'tools/bench/src/zz-fixture.ts',
    ]) {
      expect(
        (await lint(file, sdk)).filter((m) => m.rule === 'no-restricted-imports'),
        file,
      ).toEqual([]);
    }
    // On purpose (tools/layers/layers.mjs): the contract store reads the config-history invariants from authorization.
    expect(
      (
        await lint(
          'libs/contract-store/src/zz-fixture.ts',
          "import { checkConfigHistoryInvariants } from '@pfsense-mcp/authorization';\nexport const x = checkConfigHistoryInvariants;\n",
        )
      ).filter((m) => m.rule === 'boundaries/dependencies' || m.rule === '@nx/enforce-module-boundaries'),
    ).toEqual([]);
    const executor = await lint(
      'libs/executor/src/zz-fixture.ts',
      "import { x as y } from '@pfsense-mcp/contract-store/executor';\nexport const x = y;\n",
    );
    expect(executor.filter((m) => m.rule === 'no-restricted-imports' || m.rule === 'boundaries/dependencies')).toEqual([]);
  });

  it('every lib and app may import foundation, and foundation itself node: built-ins and its own files', async () => {
    const code = "import { deepFreeze } from '@pfsense-mcp/foundation';\nexport const x = deepFreeze;\n";
    const importers = [
      'libs/canonical/src',
      'libs/policy/src',
      'libs/state-machine/src',
      'libs/transports/src',
      'libs/coordinator/src',
      'apps/signer-cli/src',
      'apps/lab-runner/src',
      'apps/mcp-server/src/runtime',
      'apps/mcp-server/src/tools',
      'tools/bench/src',
    ];
    for (const dir of importers) {
      const messages = await lint(`${dir}/zz-fixture.ts`, code);
      expect(
        messages.filter(
          (m) => m.rule === 'no-restricted-imports' || m.rule === 'boundaries/dependencies' || m.rule === '@nx/enforce-module-boundaries',
        ),
        dir,
      ).toEqual([]);
    }
    const own = await lint(
      'libs/foundation/src/zz-fixture.ts',
      "import { lstatSync } from 'node:fs';\nimport { deepFreeze } from './deep-freeze.js';\nexport const x = [lstatSync, deepFreeze];\n",
    );
    expect(own.filter((m) => m.rule === 'no-restricted-imports' || m.rule === 'boundaries/dependencies')).toEqual([]);
  });

  it("lab-runner's runtime factory may import transports and write-client", async () => {
    const code =
      "import { FaultProxyTransport } from '@pfsense-mcp/transports';\nimport { WriteApiClient } from '@pfsense-mcp/write-client';\nexport const x = [FaultProxyTransport, WriteApiClient];\n";
    const messages = await lint('apps/lab-runner/src/runtime-factory.ts', code);
    expect(messages.filter((m) => m.rule === 'no-restricted-imports' || m.rule === 'boundaries/dependencies')).toEqual([]);
  });

  it('Nx depConstraints come from the same table', async () => {
    const messages = await lint(
      'libs/canonical/src/zz-fixture.ts',
      "import { x as y } from '@pfsense-mcp/executor';\nexport const x = y;\n",
    );
    expect(messages.map((m) => m.rule)).toContain('@nx/enforce-module-boundaries');
  });
});

describe('test fixtures', () => {
  it('a test may use the simulator, a transport and a write client; its sources may not', async () => {
    const code =
      "import { startSimulator } from '@pfsense-mcp/pfsense-sim';\nimport { createHttpTransport } from '@pfsense-mcp/transports';\nimport { WriteApiClient } from '@pfsense-mcp/write-client';\nexport const x = [startSimulator, createHttpTransport, WriteApiClient];\n";
    const inTest = await lint('libs/coordinator/test/zz-fixture.test.ts', code);
    expect(inTest.filter((m) => m.rule === 'boundaries/dependencies' || m.rule === '@nx/enforce-module-boundaries')).toEqual([]);
    const inSrc = await lint('libs/coordinator/src/zz-fixture.ts', code);
    expect(inSrc.filter((m) => m.rule === 'boundaries/dependencies').length).toBe(3);
    // The executor-only store entry stays closed to tests of other libraries.
    const entry = await lint(
      'libs/coordinator/test/zz-fixture.test.ts',
      "import { ExecutorContractStore } from '@pfsense-mcp/contract-store/executor';\nexport const x = ExecutorContractStore;\n",
    );
    expect(entry.map((m) => m.rule)).toContain('no-restricted-imports');
  });
});
