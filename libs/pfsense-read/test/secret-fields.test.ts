import { describe, expect, it } from 'vitest';
import { READ_CATALOGUE, READ_MODELS, RestApiClient, runReadTool } from '../src/index.js';
import type { ReadToolDefinition } from '../src/index.js';
import { FakeTransport, envelope } from './fake-transport.js';
import { MODELS_JSON, secretFieldsOf } from './vendored-pfrest.js';
import { SECRET_SENTINEL, UNKNOWN_SENTINEL, buildFixture } from './upstream-fixture.js';

// Reviewed extra exclusions beyond models.json: free-form configuration blobs that may embed credentials.
const EXTRA_EXCLUDED = [
  'BINDSettings.bind_custom_options',
  'BINDSettings.bind_global_settings',
  'DNSResolverSettings.custom_options',
  'OpenVPNServer.custom_options',
  'OpenVPNClientSpecificOverride.custom_options',
];

// The secrets this product names explicitly (docs/DESIGN.md §9); each must be caught by secretFieldsOf (a guard on the guard).
const NAMED_SECRETS = [
  'Certificate.prv',
  'CertificateAuthority.prv',
  'CertificateRevocationListRevokedCertificate.prv',
  'EmailNotificationSettings.password',
  'HASync.password',
  'NTPSettings.serverauthkey',
  'OpenVPNServer.tls',
  'OutboundNATMapping.source_hash_key',
  'RESTAPIKey.key',
  'RESTAPIKey.hash',
  'RESTAPISettings.ha_sync_password',
  'User.password',
  'User.ipsecpsk',
  'VirtualIP.password',
  'WireGuardPeerStatus.preshared_key',
  'WireGuardTunnel.privatekey',
  'IPsecPhase1.pre_shared_key',
];

function withData(data: unknown): RestApiClient {
  return new RestApiClient(new FakeTransport(() => envelope(data)));
}

describe('secret-bearing fields exist in no model', () => {
  it('the secret detector finds every secret the product names', () => {
    const found = new Set(Object.keys(MODELS_JSON.models).flatMap((m) => secretFieldsOf(m).map((f) => `${m}.${f}`)));
    for (const s of NAMED_SECRETS) expect(found, s).toContain(s);
    // and does not swallow public material
    expect(found).not.toContain('WireGuardPeerStatus.public_key');
    expect(found).not.toContain('SystemStatus.serial');
  });

  it.each(Object.keys(READ_MODELS))('%s lists no write-only, sensitive or noted-secret field', (model) => {
    const fields = Object.keys(READ_MODELS[model]?.fields ?? {});
    for (const secret of secretFieldsOf(model)) expect(fields, `${model}.${secret}`).not.toContain(secret);
    for (const extra of EXTRA_EXCLUDED.filter((e) => e.startsWith(`${model}.`))) {
      expect(fields).not.toContain(extra.slice(model.length + 1));
    }
  });

  it('every non-secret models.json field of a used model is modelled (nothing else dropped silently)', () => {
    for (const [model, spec] of Object.entries(READ_MODELS)) {
      const secrets = new Set(secretFieldsOf(model));
      const expected = (MODELS_JSON.models[model]?.fields ?? [])
        .map((f) => f.name)
        .filter((f) => !secrets.has(f) && !EXTRA_EXCLUDED.includes(`${model}.${f}`));
      expect(Object.keys(spec.fields).sort(), model).toEqual(expected.sort());
    }
  });
});

describe('what a model leaves out is declared', () => {
  it.each(Object.keys(READ_MODELS))('%s: withheld lists exactly the upstream fields not modelled', (model) => {
    const spec = READ_MODELS[model];
    const upstream = (MODELS_JSON.models[model]?.fields ?? []).map((f) => f.name);
    const modelled = Object.keys(spec?.fields ?? {});
    expect([...(spec?.withheld ?? [])].sort()).toEqual(upstream.filter((f) => !modelled.includes(f)).sort());
    for (const secret of secretFieldsOf(model)) expect(spec?.withheld ?? [], `${model}.${secret}`).toContain(secret);
  });

  it('every tool names its model’s withheld fields (nested ones as parent.field)', () => {
    const crls = READ_CATALOGUE.find((t) => t.name === 'pfsense_get_system_crls');
    expect(crls?.withheldFields).toEqual(['cert.caref', 'cert.descr', 'cert.type', 'cert.crt', 'cert.prv']);
    const users = READ_CATALOGUE.find((t) => t.name === 'pfsense_get_users');
    expect(users?.withheldFields).toEqual(['password', 'ipsecpsk']);
    expect(users?.description).toContain('Never returned: password, ipsecpsk.');
  });
});

describe('sentinels planted in every secret field never reach any output', () => {
  it.each(READ_CATALOGUE.map((t) => [t.name, t] as const))('%s', async (_name, tool: ReadToolDefinition) => {
    const { item, planted } = buildFixture(tool.model);
    const data = tool.plural ? [item, item] : item;
    for (const flag of tool.supportsIdentifyingMetadata ? [false, true] : [false]) {
      const input = tool.supportsIdentifyingMetadata ? { include_identifying_metadata: flag } : {};
      const result = await runReadTool(withData(data), tool, input);
      const text = JSON.stringify(result);
      expect(text).not.toContain(SECRET_SENTINEL);
      expect(text).not.toContain(UNKNOWN_SENTINEL);
      expect(tool.outputSchema.safeParse(result).success).toBe(true);
      if (flag || !tool.supportsIdentifyingMetadata) {
        // The projection is not simply empty: every planted non-secret string of the tool's own model shows up.
        for (const [key, value] of planted) {
          if (key.startsWith(`${tool.model}.`) && typeof value === 'string' && !EXTRA_EXCLUDED.includes(key)) {
            expect(text, key).toContain(value);
          }
        }
      }
    }
  });
});
