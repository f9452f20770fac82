// Proves each adapter-restrictions rule fires on a violating fixture (and only that rule), with a message
// that names the right way, and that a compliant adapter module passes all of them. Self-contained: it
// builds its own flat config (typescript-eslint parser + this plugin), independent of eslint.config.mjs.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'fixtures', 'lint', 'adapters');
const PREFIX = 'adapter-restrictions';

interface PluginShape {
  readonly rules: Readonly<Record<string, unknown>>;
  readonly configs: { readonly recommended: { readonly rules: Readonly<Record<string, string>> } };
}

let plugin: PluginShape;
let eslint: ESLint;

beforeAll(async () => {
  // A computed specifier: the plugin is plain .mjs without type declarations.
  const url = pathToFileURL(join(here, '..', 'adapter-restrictions.mjs')).href;
  plugin = ((await import(url)) as { default: PluginShape }).default;
  eslint = new ESLint({ cwd: fixtures, overrideConfigFile: true, overrideConfig: configFor() });
});

function configFor(): Linter.Config[] {
  return [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser as Linter.Parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
      plugins: { [PREFIX]: plugin as never },
      rules: plugin.configs.recommended.rules as Linter.RulesRecord,
    },
  ];
}

async function lintFixture(name: string) {
  const [result] = await eslint.lintFiles([join(fixtures, name)]);
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message, line: m.line }));
}

const cases: ReadonlyArray<{ fixture: string; rule: string; count: number; rightWay: string }> = [
  {
    fixture: 'write-path-import.ts',
    rule: 'no-write-path-import',
    count: 4,
    rightWay: 'let MutationExecutor send it through its WriteApiClient',
  },
  { fixture: 'pfsense-read-value-import.ts', rule: 'pfsense-read-type-only', count: 3, rightWay: '`import type { … }` only' },
  { fixture: 'io-module.ts', rule: 'no-io-module', count: 8, rightWay: 'the one read goes through the reader passed to readTarget' },
  { fixture: 'network-global.ts', rule: 'no-network-global', count: 4, rightWay: 'read through the reader passed to readTarget' },
  { fixture: 'transport-verb.ts', rule: 'no-transport-verb', count: 10, rightWay: 'only MutationExecutor sends' },
  { fixture: 'loop.ts', rule: 'no-loop', count: 5, rightWay: 'array methods' },
  { fixture: 'dynamic-import.ts', rule: 'no-dynamic-import', count: 2, rightWay: 'import what the adapter needs statically' },
  {
    fixture: 'open-request-body.ts',
    rule: 'closed-request-body',
    count: 7,
    rightWay: 'exactly {id, name, descr, apply: false} (a description stays pending) or {id, name, address, detail, apply: true}',
  },
];

describe('adapter-restrictions plugin', () => {
  it('exports the rules and a recommended config with every rule at error', () => {
    expect(Object.keys(plugin.rules).sort()).toEqual(cases.map((c) => c.rule).sort());
    expect(plugin.configs.recommended.rules).toEqual(Object.fromEntries(cases.map((c) => [`${PREFIX}/${c.rule}`, 'error'])));
  });

  for (const c of cases) {
    it(`${c.rule} fires on ${c.fixture} (${c.count}×) and names the right way`, async () => {
      const messages = await lintFixture(c.fixture);
      expect(messages.map((m) => m.rule)).toEqual(Array(c.count).fill(`${PREFIX}/${c.rule}`));
      messages.forEach((m) => expect(m.message).toContain(c.rightWay));
    });
  }

  it('names what it found: the module, the global, the verb, the statement kind', async () => {
    const io = (await lintFixture('io-module.ts')).map((m) => /"([^"]+)"/.exec(m.message)?.[1]);
    expect(io).toEqual(['node:http', 'https', 'node:net', 'tls', 'fs', 'node:fs/promises', 'node:child_process', 'undici']);
    const verbs = (await lintFixture('transport-verb.ts')).map((m) => /"([^"]+)"/.exec(m.message)?.[1]);
    expect(verbs).toEqual(['send', 'request', 'post', 'put', 'patch', 'delete', 'get', 'send', 'get', 'request']);
    const loops = (await lintFixture('loop.ts')).map((m) => /no (\S+) statement/.exec(m.message)?.[1]);
    expect(loops).toEqual(['for', 'for…in', 'for…of', 'while', 'do…while']);
  });

  it('stays silent on a compliant adapter module (type-only pfsense-read, canonical, array methods, readAllPages)', async () => {
    expect(await lintFixture('clean.ts')).toEqual([]);
  });

  it('the real adapters library passes every rule', async () => {
    const root = join(here, '..', '..', '..');
    const atRoot = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: configFor() });
    const results = await atRoot.lintFiles([join(root, 'libs', 'adapters', 'src')]);
    expect(results.length).toBeGreaterThan(5);
    // Only this plugin's rules are configured here (directives for other rules are not its business).
    const ours = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId?.startsWith(`${PREFIX}/`) === true).map((m) => `${r.filePath}:${m.line} ${m.ruleId}`),
    );
    expect(ours).toEqual([]);
  });
});
