#!/usr/bin/env node
// Generator (never run at runtime): reads the vendored pfrest data in vendor/pfrest/ (tool-endpoints.json,
// models.json, tool-reference.md) and writes src/read-models.ts and src/read-catalogue-data.ts. The output is
// committed and reviewed as data; re-run only on purpose (`node libs/pfsense-read/scripts/generate-catalogue.mjs`),
// then review the diff. The drift tests in test/ compare the committed TypeScript with the vendored files, and
// tools/repo-checks re-runs this script in a lone copy of the repository and fails on any difference.
// `--out DIR` writes the files into DIR instead of src/ (the drift test regenerates into a temp dir and compares).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const libRoot = join(here, '..');
const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
const outDir = args.out === undefined ? join(libRoot, 'src') : resolve(args.out);
const pfrest = join(libRoot, '..', '..', 'vendor', 'pfrest');
const toolEndpoints = JSON.parse(readFileSync(join(pfrest, 'tool-endpoints.json'), 'utf8'));
const models = JSON.parse(readFileSync(join(pfrest, 'models.json'), 'utf8'));
const apiMd = readFileSync(join(pfrest, 'tool-reference.md'), 'utf8');

// Reviewed exclusions: fields that hold or may hold secrets. Upstream flags (write_only / sensitive) are honoured
// automatically; these are the ones upstream does not flag (models.json `note`s) plus free-form configuration
// blobs that upstream never inspects and that can embed credentials (TSIG keys, auth tokens).
const EXCLUDED = {
  'EmailNotificationSettings.password': 'SMTP password, not flagged upstream',
  'NTPSettings.serverauthkey': 'NTP authentication key',
  'OutboundNATMapping.source_hash_key': 'source-hash pool key, not flagged upstream',
  'RESTAPIKey.key': 'API key material (representation_only)',
  'RESTAPIKey.hash': 'API key hash',
  'OpenVPNServer.tls': 'OpenVPN TLS auth/crypt key',
  'BINDSettings.bind_custom_options': 'free-form BIND configuration; may embed TSIG keys',
  'BINDSettings.bind_global_settings': 'free-form BIND configuration; may embed TSIG keys',
  'DNSResolverSettings.custom_options': 'free-form Unbound configuration; may embed credentials',
  'OpenVPNServer.custom_options': 'free-form OpenVPN directives; may embed credentials',
  'OpenVPNClientSpecificOverride.custom_options': 'free-form OpenVPN directives; may embed credentials',
};

const KIND_OF_TYPE = {
  BooleanField: 'boolean',
  IntegerField: 'number',
  UnixTimeField: 'number',
  FloatField: 'number',
  StringField: 'string',
  Base64Field: 'string',
  DateTimeField: 'string',
  UIDField: 'string',
  // Values whose JSON type depends on configuration (numeric ids, port ranges, interface representation).
  PortField: 'scalar',
  InterfaceField: 'scalar',
  SpecialNetworkField: 'scalar',
  FilterAddressField: 'scalar',
  ForeignModelField: 'scalar',
  KeyLenField: 'scalar',
};

// ---- tool-reference.md: groups, purposes, security notes -------------------------------------------------------------
const api = {};
let group = null;
let current = null;
let field = null;
for (const line of apiMd.split('\n')) {
  const g = /^## (.+)$/.exec(line);
  if (g) {
    group = g[1].trim();
    current = null;
    continue;
  }
  const t = /^### `([a-z0-9_]+)`/.exec(line);
  if (t) {
    current = { group, purpose: '', security: '' };
    api[t[1]] = current;
    field = null;
    continue;
  }
  if (!current) continue;
  const f = /^- \*\*(\w+):\*\*\s*(.*)$/.exec(line);
  if (f) {
    field = f[1].toLowerCase();
    if (field in current) current[field] = f[2].trim();
    else field = null;
    continue;
  }
  if (field && /^\s+\S/.test(line)) current[field] += (current[field].endsWith('-') ? '' : ' ') + line.trim();
  else if (!line.trim()) field = null;
}

// ---- models reachable from the tools -----------------------------------------------------------------------
const used = new Map();
function useModel(name) {
  if (used.has(name)) return;
  const m = models.models[name];
  if (!m) throw new Error(`missing model ${name}`);
  used.set(name, null);
  const order = m.response_order ?? m.fields.map((x) => x.name);
  const byName = new Map(m.fields.map((x) => [x.name, x]));
  const fields = [];
  const excluded = [];
  for (const fname of order) {
    const f = byName.get(fname);
    const key = `${name}.${fname}`;
    if (f.write_only || f.sensitive || key in EXCLUDED) {
      excluded.push([fname, f.write_only ? 'write-only upstream' : f.sensitive ? 'sensitive upstream' : EXCLUDED[key]]);
      continue;
    }
    if (f.type === 'NestedModelField') {
      const target = f.model;
      useModel(target);
      fields.push([fname, { model: target, many: f.many }]);
      continue;
    }
    const kind = KIND_OF_TYPE[f.type];
    if (!kind) throw new Error(`unknown field type ${f.type}`);
    fields.push([fname, f.many ? `${kind}[]` : kind]);
  }
  for (const k of Object.keys(EXCLUDED))
    if (k.startsWith(name + '.') && !byName.has(k.slice(name.length + 1))) throw new Error(`stale exclusion ${k}`);
  used.set(name, { many: m.many, fields, excluded });
}

const tools = [];
for (const [name, te] of Object.entries(toolEndpoints).sort(([a], [b]) => a.localeCompare(b))) {
  if (te.path === null) continue; // pfsense_mcp_info belongs to the server
  const p = models.paths[te.path];
  const a = api[name];
  if (!p || !a) throw new Error(`missing path/api entry for ${name}`);
  useModel(p.model);
  tools.push({ name, te, p, a });
}

// ---- titles ------------------------------------------------------------------------------------------------
const WORDS = {
  nat: 'NAT',
  dhcp: 'DHCP',
  dns: 'DNS',
  ipsec: 'IPsec',
  openvpn: 'OpenVPN',
  wireguard: 'WireGuard',
  arp: 'ARP',
  carp: 'CARP',
  ntp: 'NTP',
  ssh: 'SSH',
  acme: 'ACME',
  vpn: 'VPN',
  restapi: 'REST API',
  csos: 'client-specific overrides',
  crls: 'CRLs',
  gres: 'GREs',
  laggs: 'LAGGs',
  vlans: 'VLANs',
  sas: 'SAs',
  ips: 'IPs',
  hasync: 'HA sync',
  webgui: 'web GUI',
  eap: 'EAP',
  freeradius: 'FreeRADIUS',
  bind: 'BIND',
  phase1: 'phase 1',
  phase2: 'phase 2',
  phase2s: 'phase 2 entries',
  ip: 'IP',
  auth: 'auth',
  one: 'one',
  to: 'to',
};
function titleOf(name) {
  const words = name
    .replace(/^pfsense_get_/, '')
    .split('_')
    .map((w) => WORDS[w] ?? w);
  const s = words.join(' ').replace('one to one', '1:1');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ---- emit --------------------------------------------------------------------------------------------------
const q = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
let out = `// DO NOT EDIT: generated by libs/pfsense-read/scripts/generate-catalogue.mjs from vendor/pfrest/models.json
// (pfrest v2.10.0); change the generator or the vendored data, re-run it and review the diff.
// Allow-list of the response fields each READ model exposes. Anything not listed here is dropped by the
// projection. Secret-bearing fields are absent on purpose; each model lists what it leaves out and why.
// Drift-checked by test/catalogue-drift.test.ts and test/secret-fields.test.ts.
import { deepFreeze } from '@pfsense-mcp/foundation';
import type { ReadModelSpec } from './read-model-spec.js';

export const READ_MODELS: Readonly<Record<string, ReadModelSpec>> = deepFreeze({
`;
for (const [name, spec] of [...used.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  if (spec.excluded.length) for (const [f, why] of spec.excluded) out += `  // ${name}.${f}: excluded (${why})\n`;
  out += `  ${name}: {\n    many: ${spec.many},\n`;
  if (spec.excluded.length) out += `    withheld: [${spec.excluded.map(([f]) => q(f)).join(', ')}],\n`;
  out += `    fields: {\n`;
  for (const [f, kind] of spec.fields) {
    out += `      ${/^[a-z_][a-z0-9_]*$/i.test(f) ? f : q(f)}: ${typeof kind === 'string' ? q(kind) : `{ model: ${q(kind.model)}, many: ${kind.many} }`},\n`;
  }
  out += `    },\n  },\n`;
}
out += `});\n`;
writeFileSync(join(outDir, 'read-models.ts'), out);

function concise(text) {
  return text.replace(/`/g, '').replace(/\s+/g, ' ').replace(/ -- /g, ' - ').trim();
}
let cat = `// DO NOT EDIT: generated by libs/pfsense-read/scripts/generate-catalogue.mjs from vendor/pfrest/tool-endpoints.json,
// models.json and tool-reference.md; change the generator or the vendored data, re-run it and review the diff.
// One entry per pfREST READ tool of tool-reference.md, under the same names.
// Checked against the vendored files by test/catalogue-drift.test.ts.
import { deepFreeze } from '@pfsense-mcp/foundation';
import type { ReadCatalogueEntry } from './read-catalogue-entry.js';

export const READ_CATALOGUE_DATA: readonly ReadCatalogueEntry[] = deepFreeze([
`;
for (const { name, te, p, a } of tools) {
  cat += `  {
    name: ${q(name)},
    title: ${q(titleOf(name))},
    group: ${q(a.group)},
    description: ${q(concise(a.purpose))},
    capability: ${q(te.capability)},
    path: ${q(te.path)},
    model: ${q(p.model)},
    plural: ${p.many},
    childOf: ${p.parent_model ? q(p.parent_model) : 'null'},
    identifyingFlag: ${te.inputs.includes('include_identifying_metadata')},
  },
`;
}
cat += `]);\n`;
writeFileSync(join(outDir, 'read-catalogue-data.ts'), cat);
console.log(`models: ${used.size}, tools: ${tools.length}`);
