// ESLint plugin: the adapter restrictions of docs/DESIGN.md §2,
// for libs/adapters/src/**/*.ts. Adapters are pure functions: the executor alone reads (through the reader
// it passes to readTarget), sends (through its WriteApiClient) and decides. Plain .mjs so eslint.config.mjs
// loads it without a TypeScript loader. Each message names the right way.

const PFSENSE_READ = '@pfsense-mcp/pfsense-read';

/** Libraries on the write path an adapter must never reach (with any subpath). */
const WRITE_PATH_LIBS = ['@pfsense-mcp/transports', '@pfsense-mcp/write-client', '@pfsense-mcp/contract-store', '@pfsense-mcp/executor'];

/** Node modules that do I/O (with or without the node: prefix, and their subpaths such as fs/promises). */
const NODE_IO_MODULES = ['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'fs', 'child_process'];
/** HTTP client packages (with any subpath). */
const HTTP_CLIENT_PACKAGES = ['undici'];

const NETWORK_GLOBALS = new Set(['fetch', 'WebSocket', 'XMLHttpRequest']);
const TRANSPORT_VERBS = new Set(['send', 'request', 'post', 'put', 'patch', 'delete', 'get']);

function matchesPackage(source, name) {
  return source === name || source.startsWith(`${name}/`);
}

function writePathLib(source) {
  return WRITE_PATH_LIBS.find((lib) => matchesPackage(source, lib));
}

function ioModule(source) {
  const bare = source.startsWith('node:') ? source.slice('node:'.length) : source;
  return NODE_IO_MODULES.find((m) => matchesPackage(bare, m)) ?? HTTP_CLIENT_PACKAGES.find((p) => matchesPackage(source, p));
}

/** Every static module specifier of a file: import/export-from declarations and `import x = require('…')`. */
function moduleSourceVisitors(check) {
  const literal = (node) => (node && node.type === 'Literal' && typeof node.value === 'string' ? node.value : null);
  return {
    ImportDeclaration: (node) => check(node, literal(node.source)),
    ExportNamedDeclaration: (node) => node.source && check(node, literal(node.source)),
    ExportAllDeclaration: (node) => check(node, literal(node.source)),
    TSImportEqualsDeclaration: (node) =>
      node.moduleReference.type === 'TSExternalModuleReference' && check(node, literal(node.moduleReference.expression)),
    ImportExpression: (node) => check(node, literal(node.source)),
  };
}

const noWritePathImport = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters must not import transports, write-client, contract-store or executor' },
    schema: [],
    messages: {
      forbidden:
        'adapters: "{{source}}" is on the write path and adapters never reach it; return a closed request model from buildRequest and let MutationExecutor send it through its WriteApiClient (docs/DESIGN.md §4).',
    },
  },
  create(context) {
    return moduleSourceVisitors((node, source) => {
      if (source !== null && writePathLib(source) !== undefined) context.report({ node, messageId: 'forbidden', data: { source } });
    });
  },
};

function isTypeOnlyImport(node) {
  if (node.importKind === 'type') return true;
  // `import { type A }` keeps a runtime import under verbatimModuleSyntax (`import {} from '…'`): not type-only.
  return false;
}

const pfsenseReadTypeOnly = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters may import @pfsense-mcp/pfsense-read with `import type` only' },
    schema: [],
    messages: {
      valueImport:
        'adapters: import @pfsense-mcp/pfsense-read with `import type { … }` only (a value import would pull a transport into the adapter and the signer); readTarget receives the reader from the executor.',
    },
  },
  create(context) {
    const isPfsenseRead = (source) => source !== null && matchesPackage(source, PFSENSE_READ);
    const literal = (node) => (node && node.type === 'Literal' && typeof node.value === 'string' ? node.value : null);
    return {
      ImportDeclaration(node) {
        if (isPfsenseRead(literal(node.source)) && !isTypeOnlyImport(node)) context.report({ node, messageId: 'valueImport' });
      },
      ExportNamedDeclaration(node) {
        if (node.source && isPfsenseRead(literal(node.source)) && node.exportKind !== 'type') {
          context.report({ node, messageId: 'valueImport' });
        }
      },
      ExportAllDeclaration(node) {
        if (isPfsenseRead(literal(node.source)) && node.exportKind !== 'type') context.report({ node, messageId: 'valueImport' });
      },
      TSImportEqualsDeclaration(node) {
        if (
          node.moduleReference.type === 'TSExternalModuleReference' &&
          isPfsenseRead(literal(node.moduleReference.expression)) &&
          node.importKind !== 'type'
        ) {
          context.report({ node, messageId: 'valueImport' });
        }
      },
      ImportExpression(node) {
        if (isPfsenseRead(literal(node.source))) context.report({ node, messageId: 'valueImport' });
      },
    };
  },
};

const noIoModule = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters must not import node I/O modules or HTTP client packages' },
    schema: [],
    messages: {
      forbidden:
        'adapters: "{{source}}" does I/O and adapters are pure; the one read goes through the reader passed to readTarget (its readAllPages), and only MutationExecutor sends.',
    },
  },
  create(context) {
    return moduleSourceVisitors((node, source) => {
      if (source !== null && ioModule(source) !== undefined) context.report({ node, messageId: 'forbidden', data: { source } });
    });
  },
};

const noNetworkGlobal = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters must not reference fetch, WebSocket or XMLHttpRequest' },
    schema: [],
    messages: {
      forbidden:
        'adapters: "{{name}}" reaches the network and adapters are pure; read through the reader passed to readTarget and let MutationExecutor send.',
    },
  },
  create(context) {
    return {
      Identifier(node) {
        if (NETWORK_GLOBALS.has(node.name)) context.report({ node, messageId: 'forbidden', data: { name: node.name } });
      },
      MemberExpression(node) {
        // globalThis['fetch'] and the like.
        if (node.computed && node.property.type === 'Literal' && NETWORK_GLOBALS.has(node.property.value)) {
          context.report({ node: node.property, messageId: 'forbidden', data: { name: node.property.value } });
        }
      },
    };
  },
};

/** The name a callee or key spells, when it is static: `f`, `o.f`, `o['f']`, `o?.f`. */
function staticName(node) {
  if (!node) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'PrivateIdentifier') return node.name;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  if (node.type === 'MemberExpression') return staticName(node.property);
  if (node.type === 'ChainExpression') return staticName(node.expression);
  if (node.type === 'TSNonNullExpression') return staticName(node.expression);
  return null;
}

function isFunctionNode(node) {
  return node && (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression');
}

const noTransportVerb = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters must not call or define anything named send/request/post/put/patch/delete/get' },
    schema: [],
    messages: {
      call: 'adapters: a call named "{{name}}" looks like a transport verb; adapters never send or fetch — build a closed request model (buildRequest) and read only through reader.readAllPages in readTarget; only MutationExecutor sends.',
      define:
        'adapters: a method named "{{name}}" looks like a transport verb; name adapter functions after what they compute (buildRequest, parseResponse, …) — only MutationExecutor sends.',
    },
  },
  create(context) {
    const reportDefinition = (node, key) => {
      const name = staticName(key);
      if (name !== null && TRANSPORT_VERBS.has(name)) context.report({ node: key, messageId: 'define', data: { name } });
    };
    return {
      CallExpression(node) {
        const name = staticName(node.callee);
        if (name !== null && TRANSPORT_VERBS.has(name)) context.report({ node, messageId: 'call', data: { name } });
      },
      NewExpression(node) {
        const name = staticName(node.callee);
        if (name !== null && TRANSPORT_VERBS.has(name)) context.report({ node, messageId: 'call', data: { name } });
      },
      MethodDefinition: (node) => reportDefinition(node, node.key),
      TSAbstractMethodDefinition: (node) => reportDefinition(node, node.key),
      TSMethodSignature: (node) => reportDefinition(node, node.key),
      PropertyDefinition: (node) => isFunctionNode(node.value) && reportDefinition(node, node.key),
      Property: (node) => (node.method || isFunctionNode(node.value)) && reportDefinition(node, node.key),
      TSPropertySignature: (node) => node.typeAnnotation?.typeAnnotation?.type === 'TSFunctionType' && reportDefinition(node, node.key),
      FunctionDeclaration: (node) => node.id && reportDefinition(node, node.id),
      VariableDeclarator: (node) => node.id.type === 'Identifier' && isFunctionNode(node.init) && reportDefinition(node, node.id),
    };
  },
};

const noLoop = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters must not contain for/while/do statements' },
    schema: [],
    messages: {
      forbidden:
        'adapters: no {{kind}} statement — one target per call (docs/DESIGN.md §4); express per-field work with array methods (map, every, some, find) over a single target.',
    },
  },
  create(context) {
    const report = (kind) => (node) => context.report({ node, messageId: 'forbidden', data: { kind } });
    return {
      ForStatement: report('for'),
      ForInStatement: report('for…in'),
      ForOfStatement: report('for…of'),
      WhileStatement: report('while'),
      DoWhileStatement: report('do…while'),
    };
  },
};

const noDynamicImport = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters must not use import() or require()' },
    schema: [],
    messages: {
      forbidden:
        'adapters: no {{kind}} — a computed module load escapes the static import checks; import what the adapter needs statically (canonical, policy, zod; pfsense-read by `import type`).',
    },
  },
  create(context) {
    return {
      ImportExpression: (node) => context.report({ node, messageId: 'forbidden', data: { kind: 'import()' } }),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') {
          context.report({ node, messageId: 'forbidden', data: { kind: 'require()' } });
        }
      },
    };
  },
};

/**
 * The closed alias PATCH bodies (docs/DESIGN.md §5), one per capability: the description's keys with `apply`
 * the literal false, or the entry lists' keys with `apply` the literal true. Keys sorted.
 */
const REQUEST_BODIES = Object.freeze([
  Object.freeze({ keys: Object.freeze(['apply', 'descr', 'id', 'name']), apply: false }),
  Object.freeze({ keys: Object.freeze(['address', 'apply', 'detail', 'id', 'name']), apply: true }),
]);

function propertyKeyName(property) {
  if (property.type !== 'Property' || property.computed) return null;
  if (property.key.type === 'Identifier') return property.key.name;
  if (property.key.type === 'Literal' && typeof property.key.value === 'string') return property.key.value;
  return null;
}

const closedRequestBody = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'an adapter request body (an object literal with `apply`) must be exactly {id, name, descr, apply: false} or {id, name, address, detail, apply: true}',
    },
    schema: [],
    messages: {
      open: "adapters: a request body must be exactly {id, name, descr, apply: false} (a description stays pending) or {id, name, address, detail, apply: true} (entries, applied) with plain keys (no spread, no computed key): `name` is the alias's unchanged name, so pfrest refuses a shifted `id` (FIELD_VALUE_CHANGED_WHEN_NOT_EDITABLE) (docs/DESIGN.md §5).",
    },
  },
  create(context) {
    return {
      ObjectExpression(node) {
        const names = node.properties.map(propertyKeyName);
        if (!names.includes('apply')) return;
        const apply = node.properties.find((p) => propertyKeyName(p) === 'apply');
        const applyValue = apply !== undefined && apply.value.type === 'Literal' ? apply.value.value : undefined;
        const sorted = [...names].sort();
        const closed = REQUEST_BODIES.some(
          (body) =>
            names.every((n) => n !== null) &&
            sorted.length === body.keys.length &&
            sorted.every((n, i) => n === body.keys[i]) &&
            applyValue === body.apply,
        );
        if (!closed) context.report({ node, messageId: 'open' });
      },
    };
  },
};

const rules = Object.freeze({
  'no-write-path-import': noWritePathImport,
  'pfsense-read-type-only': pfsenseReadTypeOnly,
  'no-io-module': noIoModule,
  'no-network-global': noNetworkGlobal,
  'no-transport-verb': noTransportVerb,
  'no-loop': noLoop,
  'no-dynamic-import': noDynamicImport,
  'closed-request-body': closedRequestBody,
});

const plugin = {
  meta: { name: 'adapter-restrictions', version: '1.0.0' },
  rules,
  configs: {},
};

/** Flat-config block: `{ files: ['libs/adapters/src/**\/*.ts'], ...adapterRestrictions.configs.recommended }`. */
plugin.configs.recommended = Object.freeze({
  plugins: { 'adapter-restrictions': plugin },
  rules: Object.freeze(Object.fromEntries(Object.keys(rules).map((name) => [`adapter-restrictions/${name}`, 'error']))),
});

export default plugin;
