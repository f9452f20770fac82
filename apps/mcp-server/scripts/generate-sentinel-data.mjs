#!/usr/bin/env node
// Generates test/fixtures/sentinel-data.json: a simulator --data payload for every READ path in which every
// secret-bearing field holds a unique sentinel string, including fields inside embedded (nested) models.
//   node apps/mcp-server/scripts/generate-sentinel-data.mjs [PFREST_DIR] [--out FILE] [--data-out FILE]
// --out FILE       where the fixture ({mark, secret_fields, data}) goes (default test/fixtures/sentinel-data.json)
// --data-out FILE  also write the bare payload (path → data), the file `pfsense-sim --data FILE` takes
// Secret-bearing = flagged sensitive or write-only in pfREST's models (vendor/pfrest/models.json), plus the
// fields upstream does not flag but which carry secrets (listed below, from models.json notes and the transport hardening of docs/DESIGN.md §10).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, 'data-out': { type: 'string' } },
});
const pfrestDir = resolve(positionals[0] ?? join(appDir, '..', '..', 'vendor', 'pfrest'));
const outFile = resolve(flags.out ?? join(appDir, 'test', 'fixtures', 'sentinel-data.json'));
const models = JSON.parse(readFileSync(join(pfrestDir, 'models.json'), 'utf8'));

const UNFLAGGED_SECRETS = new Set([
  'EmailNotificationSettings.password', // SMTP password
  'OutboundNATMapping.source_hash_key', // outbound-NAT source-hash key
  'RESTAPIKey.key', // API key material
  'NTPSettings.serverauthkey', // NTP auth key (also flagged)
  'BINDSettings.bind_custom_options', // free-form BIND config, may embed TSIG keys
  'BINDSettings.bind_global_settings',
  'DNSResolverSettings.custom_options', // free-form Unbound configuration, may embed credentials
  'OpenVPNServer.custom_options', // free-form OpenVPN directives, may embed credentials
  'OpenVPNClientSpecificOverride.custom_options',
]);
const STRINGY = new Set(['StringField', 'Base64Field']);
export const SENTINEL_MARK = 'PFMCPSENTINEL';

const secretFields = [];
function rowOf(modelName, depth = 0) {
  const model = models.models[modelName];
  if (!model || depth > 4) return {};
  const row = {};
  for (const f of model.fields) {
    const id = `${modelName}.${f.name}`;
    if (f.type === 'NestedModelField' && f.model) {
      const nested = rowOf(f.model, depth + 1);
      if (Object.keys(nested).length > 0) row[f.name] = f.many ? [nested] : nested;
      continue;
    }
    const secret = f.sensitive || f.write_only || UNFLAGGED_SECRETS.has(id);
    if (!secret || !STRINGY.has(f.type)) continue;
    const value = `${SENTINEL_MARK}-${id}-c0ffee`;
    row[f.name] = f.many ? [value] : value;
    secretFields.push(id);
  }
  return row;
}

const data = {};
for (const [path, spec] of Object.entries(models.paths)) {
  // Real appliances also return fields no model lists; one such field per row must be dropped as well.
  const row = { ...rowOf(spec.model), unlisted_private_key: `${SENTINEL_MARK}-unlisted-${path}-c0ffee` };
  data[path] = spec.many ? [row, { ...row }] : row;
}
const out = { mark: SENTINEL_MARK, secret_fields: [...new Set(secretFields)].sort(), data };
writeFileSync(outFile, `${JSON.stringify(out, null, 2)}\n`);
if (flags['data-out'] !== undefined) writeFileSync(resolve(flags['data-out']), `${JSON.stringify(data)}\n`);
process.stderr.write(`wrote ${outFile}: ${Object.keys(data).length} paths, ${out.secret_fields.length} secret fields\n`);
