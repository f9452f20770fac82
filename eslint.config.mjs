// Lint = the layering law of docs/DESIGN.md §2, generated from the one table in tools/layers/layers.mjs,
// plus the few product rules that are cheaper to hold in lint than in review.
import js from '@eslint/js';
import nxPlugin from '@nx/eslint-plugin';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';
import adapterRestrictions from './tools/lint-rules/adapter-restrictions.mjs';
import {
  CONFINED_PACKAGES,
  EXEMPT_FROM_PACKAGE_CONFINEMENT,
  FOUNDATION,
  LAB_RUNTIME_FACTORY,
  LAYERS,
  MCP_SERVER_TOOLS_MAY_IMPORT,
  layerTag,
} from './tools/layers/layers.mjs';

const TEST_SUFFIX = '~test';
// Tests compose what they exercise like a composition root does: they may also use the simulator, a real
// transport, a write client and the shared test support as fixtures. Product sources never gain these edges.
const TEST_FIXTURES = ['pfsense-sim', 'transports', 'write-client', 'test-support'];
const MCP_TOOLS = 'mcp-server~tools';

// Element types: each project's sources, its tests (which may also use the simulator as a fixture) and
// mcp-server's tools/ folder, which is narrower than the rest of the app.
const elements = [
  { type: MCP_TOOLS, pattern: 'apps/mcp-server/src/tools', partialMatch: false },
  ...LAYERS.flatMap((l) => [
    { type: `${l.name}${TEST_SUFFIX}`, pattern: `${l.root}/test`, partialMatch: false },
    { type: l.name, pattern: l.root, partialMatch: false },
  ]),
  { type: 'lint-rules', pattern: 'tools/lint-rules', partialMatch: false },
];

const types = (names) => ({ element: { types: { anyOf: names } } });
const policies = [
  ...LAYERS.map((l) => ({ from: { element: { type: l.name } }, allow: { to: types([l.name, ...l.mayImport]) } })),
  ...LAYERS.map((l) => ({
    from: { element: { type: `${l.name}${TEST_SUFFIX}` } },
    allow: { to: types([l.name, `${l.name}${TEST_SUFFIX}`, ...l.mayImport, ...TEST_FIXTURES]) },
  })),
  { from: { element: { type: MCP_TOOLS } }, allow: { to: types([MCP_TOOLS, ...MCP_SERVER_TOOLS_MAY_IMPORT]) } },
  // mcp-server's composition root may hand its tools/ folder what it constructed.
  { from: { element: { type: 'mcp-server' } }, allow: { to: types([MCP_TOOLS]) } },
];

// Nx depConstraints from the same table (a second, independent check of the same law).
const depConstraints = [
  ...LAYERS.map((l) => ({ sourceTag: layerTag(l.name), onlyDependOnLibsWithTags: [layerTag(l.name), ...l.mayImport.map(layerTag)] })),
  { sourceTag: 'layer:lint-rules', onlyDependOnLibsWithTags: ['layer:lint-rules'] },
];

// One no-restricted-imports block per layer: confined external packages (better-sqlite3/kysely, @noble/*, the MCP SDK),
// no reaching into another project's files past its public entry, and the executor-only store entry.
const projectNames = LAYERS.map((l) => l.name).join('|');
const EXECUTOR_ENTRY = '@pfsense-mcp/contract-store/executor';
const EXECUTOR_ENTRY_MAY_IMPORT = ['executor', 'contract-store', 'bench'];
const restrictedImports = LAYERS.flatMap((l) => {
  const patterns = [];
  if (!EXEMPT_FROM_PACKAGE_CONFINEMENT.includes(l.name)) {
    for (const c of CONFINED_PACKAGES.filter((c) => !c.onlyIn.includes(l.name))) {
      patterns.push({
        group: c.packages.flatMap((p) => [p, `${p}/**`]),
        message: `layering (tools/layers/layers.mjs): ${c.packages.join(', ')} may be imported only in ${c.onlyIn.join(', ')}; call that library's public API instead.`,
      });
    }
  }
  patterns.push({
    regex: `^(\\.\\./)+(${projectNames})/(src|test)/`,
    message:
      "layering: import another project only through its public entry '@pfsense-mcp/<name>', never by a relative path into its files.",
  });
  patterns.push({
    regex: '^@pfsense-mcp/[a-z-]+/(src|test)(/|$)',
    message: "layering: import a library only through its public entry '@pfsense-mcp/<name>' (src/index.ts).",
  });
  if (l.name !== 'bench' && l.name !== 'contract-store') {
    patterns.push({
      group: ['@pfsense-mcp/contract-store/bench'],
      message: 'layering: the store benchmark entry (raw floors over store internals) is for tools/bench only.',
    });
  }
  const paths = [];
  if (l.name === 'mcp-server') {
    // stdout belongs to the MCP protocol; the two files that must touch it say why in a disable comment.
    for (const name of ['node:process', 'process']) {
      paths.push({
        name,
        importNames: ['stdout'],
        message: 'mcp-server: stdout belongs to the MCP protocol; log JSON lines to stderr through the logger.',
      });
    }
  }
  if (!EXECUTOR_ENTRY_MAY_IMPORT.includes(l.name)) {
    patterns.push({
      group: [EXECUTOR_ENTRY],
      message: `layering (docs/DESIGN.md §2): ${EXECUTOR_ENTRY} (execution transitions, artifact decryption) may be imported only by libs/executor; use @pfsense-mcp/contract-store.`,
    });
  }
  const block = {
    files: [`${l.root}/**/*.ts`, `${l.root}/**/*.mts`],
    rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
  };
  if (l.name === FOUNDATION) {
    // The bottom layer every library imports stays free of packages and projects: node: built-ins and its own
    // files only (its tests may use vitest). A later block replaces the rule's options, so it repeats them.
    const onlyBuiltins = {
      regex: '^(?!node:|\\./)',
      message: `layering (docs/DESIGN.md §2): ${FOUNDATION} imports nothing but node: built-ins and its own files; keep anything else in the library that owns it.`,
    };
    return [
      block,
      {
        files: [`${l.root}/src/**/*.ts`, `${l.root}/src/**/*.mts`],
        rules: { 'no-restricted-imports': ['error', { paths, patterns: [...patterns, onlyBuiltins] }] },
      },
    ];
  }
  if (l.name !== 'lab-runner') return [block];
  // The lab's runtime factory alone builds the write path; the rest of its sources get the same patterns
  // plus this one (a later block replaces the rule's options, so it repeats them rather than loosening).
  const factoryOnly = {
    group: LAB_RUNTIME_FACTORY.onlyThere.flatMap((name) => [`@pfsense-mcp/${name}`, `@pfsense-mcp/${name}/**`]),
    message: `layering (docs/DESIGN.md §2): ${LAB_RUNTIME_FACTORY.onlyThere.join(', ')} may be imported in lab-runner only by ${LAB_RUNTIME_FACTORY.file}; take what it built from its LabRuntime.`,
  };
  return [
    block,
    {
      files: [`${l.root}/src/**/*.ts`, `${l.root}/src/**/*.mts`],
      ignores: [LAB_RUNTIME_FACTORY.file],
      rules: { 'no-restricted-imports': ['error', { paths, patterns: [...patterns, factoryOnly] }] },
    },
  ];
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'tmp/**', '**/fixtures/lint/**', '.nx/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    plugins: { boundaries, '@nx': nxPlugin },
    settings: {
      'boundaries/elements': elements,
      'boundaries/include': ['libs/**/*', 'apps/**/*', 'tools/**/*'],
      'import/resolver': {
        typescript: { project: './tsconfig.base.json', alwaysTryTypes: true },
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            'layering (docs/DESIGN.md §2, tools/layers/layers.mjs): "{{from.type}}" may not import "{{to.type}}"; move the code to a layer both may use instead of loosening the table.',
          policies,
        },
      ],
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints, enforceBuildableLibDependency: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  ...restrictedImports,
  {
    // Tests may also use the fixtures (TEST_FIXTURES; boundaries has the same exception per element type).
    files: ['**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: depConstraints.map((d) => ({
            ...d,
            onlyDependOnLibsWithTags: [...d.onlyDependOnLibsWithTags, ...TEST_FIXTURES.map(layerTag)],
          })),
          enforceBuildableLibDependency: false,
        },
      ],
    },
  },
  {
    // Config files are tooling, outside the layering law.
    files: ['**/vitest.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off', 'boundaries/dependencies': 'off' },
  },
  {
    // Adapters are pure: one target per call, no I/O of their own, no write path (docs/DESIGN.md §2).
    files: ['libs/adapters/src/**/*.ts'],
    ...adapterRestrictions.configs.recommended,
  },
  {
    // stdout belongs to the MCP protocol (docs/DESIGN.md §2): log JSON lines to stderr through the logger.
    files: ['apps/mcp-server/src/**/*.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'stdout',
          message: 'mcp-server: stdout belongs to the MCP protocol; log JSON lines to stderr through the logger.',
        },
      ],
    },
  },
);
