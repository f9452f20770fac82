import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';
import { seedDemoData } from '../src/demo-data.js';
import { MODELS, READ_PATHS } from '../src/model-catalog.js';
import type { FieldSpec } from '../src/model-types.js';
import { api } from './helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 'office-1' });
});
afterAll(async () => sim.close());

function kindOk(field: FieldSpec, value: unknown): boolean {
  if (value === null) return true;
  if (field.nested) return typeof value === 'object';
  // A foreign-model field holds the referenced model's key, which may be an integer (vpnid, ikeid).
  if (field.fieldClass === 'ForeignModelField') return typeof value === 'string' || Number.isInteger(value);
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'float':
      return typeof value === 'number';
    default:
      return typeof value === 'string';
  }
}

/** Problems of one served object against its pfrest model (field set, order, kinds, choices, no secrets). */
function shapeProblems(model: string, obj: Record<string, unknown>, where: string): string[] {
  const spec = MODELS[model];
  if (!spec) return [`${where}: unknown model ${model}`];
  const problems: string[] = [];
  const expected = spec.fields.filter((f) => !f.hidden).map((f) => f.name);
  const keys = Object.keys(obj).filter((k) => k !== 'id' && k !== 'parent_id');
  if (JSON.stringify(keys) !== JSON.stringify(expected)) problems.push(`${where}: fields ${keys.join(',')} != ${expected.join(',')}`);
  for (const f of spec.fields) {
    const v = obj[f.name];
    if (f.hidden || v === undefined) continue;
    const values = f.many && !f.nested ? (Array.isArray(v) ? v : v === null ? [] : [Symbol('not-array')]) : [v];
    for (const one of values) {
      if (!kindOk(f, one)) problems.push(`${where}.${f.name}: ${JSON.stringify(one)} is not ${f.kind}`);
      else if (f.choices && one !== null && !f.choices.includes(one))
        problems.push(`${where}.${f.name}: ${JSON.stringify(one)} not in choices`);
    }
    if (f.nested && v !== null) {
      const items = Array.isArray(v) ? v : [v];
      items.forEach((item, i) =>
        problems.push(...shapeProblems(f.nested as string, item as Record<string, unknown>, `${where}.${f.name}[${i}]`)),
      );
    }
  }
  return problems;
}

interface StoredSecret {
  readonly path: string;
  readonly field: string;
  readonly value: string;
}

/**
 * Every value the store holds in a field its pfrest model hides (nested models included), except values
 * that the store also holds in a visible field (a hidden `caref` repeats a CA's public `refid`).
 */
function hiddenValues(stored: ReturnType<typeof seedDemoData>): StoredSecret[] {
  const out: StoredSecret[] = [];
  const visible = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === 'string') visible.add(v);
    else if (Array.isArray(v)) v.forEach(collect);
  };
  const walk = (path: string, model: string, obj: Record<string, unknown>): void => {
    for (const f of MODELS[model]?.fields ?? []) {
      const v = obj[f.name];
      if (f.hidden) {
        for (const one of Array.isArray(v) ? v : [v]) {
          // Short values (booleans, "yes", small numbers) could occur by chance elsewhere; real secrets are long.
          if (typeof one === 'string' && one.length >= 8) out.push({ path, field: f.name, value: one });
        }
      } else if (f.nested && v !== null && typeof v === 'object') {
        for (const item of Array.isArray(v) ? v : [v]) walk(path, f.nested, item as Record<string, unknown>);
      } else {
        collect(v);
      }
    }
  };
  for (const [path, pd] of stored) {
    const model = READ_PATHS[path]?.model;
    if (model === undefined) continue;
    for (const row of Array.isArray(pd.value) ? pd.value : [pd.value]) walk(path, model, row as Record<string, unknown>);
  }
  return out.filter((s) => !visible.has(s.value));
}

describe('demo data', () => {
  it('serves every one of the 94 read paths with data shaped by its pfrest model', async () => {
    const c = api(sim.url, sim.apiKey);
    const paths = Object.keys(READ_PATHS);
    expect(paths).toHaveLength(94);
    const problems: string[] = [];
    for (const path of paths) {
      const spec = READ_PATHS[path];
      if (!spec) continue;
      const { status, env } = await c.get(path);
      expect(status, path).toBe(200);
      if (spec.many) {
        expect(Array.isArray(env.data), path).toBe(true);
        (env.data as Record<string, unknown>[]).forEach((o, i) => {
          if (!('id' in o)) problems.push(`${path}[${i}]: no id`);
          if (spec.parent && !('parent_id' in o)) problems.push(`${path}[${i}]: no parent_id`);
          problems.push(...shapeProblems(spec.model, o, `${path}[${i}]`));
        });
      } else {
        expect(env.data !== null && typeof env.data === 'object' && !Array.isArray(env.data), path).toBe(true);
        problems.push(...shapeProblems(spec.model, env.data as Record<string, unknown>, path));
      }
    }
    expect(problems).toEqual([]);
  });

  it('looks like a small office: interfaces with string ids, VLANs, ~20 rules, leases, tunnels, users', async () => {
    const c = api(sim.url, sim.apiKey);
    const data = async (p: string): Promise<Record<string, unknown>[]> => (await c.get(p)).env.data as Record<string, unknown>[];
    expect((await data('/api/v2/interfaces')).map((i) => i.id)).toEqual(['wan', 'lan', 'opt1', 'opt2', 'opt3']);
    expect((await data('/api/v2/interface/vlans')).map((v) => v.tag)).toEqual([20, 30]);
    const rules = await data('/api/v2/firewall/rules');
    expect(rules.length).toBeGreaterThanOrEqual(18);
    expect(rules.length).toBeLessThanOrEqual(24);
    expect((await data('/api/v2/status/dhcp_server/leases')).length).toBeGreaterThan(5);
    expect((await data('/api/v2/services/dhcp_server/static_mappings')).length).toBeGreaterThan(2);
    for (const p of [
      '/api/v2/firewall/nat/port_forwards',
      '/api/v2/routing/gateways',
      '/api/v2/services/dns_resolver/host_overrides',
      '/api/v2/status/ipsec/sas',
      '/api/v2/vpn/openvpn/servers',
      '/api/v2/status/wireguard/tunnels',
      '/api/v2/system/certificates',
      '/api/v2/system/certificate_authorities',
      '/api/v2/users',
      '/api/v2/status/services',
      '/api/v2/diagnostics/config_history/revisions',
      '/api/v2/firewall/aliases',
    ]) {
      expect((await data(p)).length, p).toBeGreaterThan(0);
    }
  });

  it('carries the appliance identity: netgate_id in status/system and pfhostid in system/hasync', async () => {
    const c = api(sim.url, sim.apiKey);
    const status = (await c.get('/api/v2/status/system')).env.data as { netgate_id: string };
    const hasync = (await c.get('/api/v2/system/hasync')).env.data as { pfhostid: string };
    expect(status.netgate_id).toMatch(/^[0-9a-f]{32}$/);
    expect(hasync.pfhostid).toMatch(/^[0-9a-f]{8}$/);
  });

  it('is deterministic per seed and differs between seeds', async () => {
    const same = await startSimulator({ seed: 'office-1' });
    const other = await startSimulator({ seed: 'office-2' });
    try {
      for (const p of [
        '/api/v2/status/system',
        '/api/v2/firewall/states?limit=0',
        '/api/v2/status/dhcp_server/leases',
        '/api/v2/system/certificates',
      ]) {
        const a = (await api(sim.url, sim.apiKey).get(p)).env.data;
        expect((await api(same.url, same.apiKey).get(p)).env.data, p).toEqual(a);
        expect((await api(other.url, other.apiKey).get(p)).env.data, p).not.toEqual(a);
      }
    } finally {
      await same.close();
      await other.close();
    }
  });

  it('stores seeded secrets but never returns write-only or sensitive fields', async () => {
    // First: the store really holds them (else "not returned" would prove nothing).
    const stored = seedDemoData('office-1');
    const secrets = hiddenValues(stored);
    const storedFields = new Set(secrets.map((s) => `${s.path} ${s.field}`));
    for (const must of [
      '/api/v2/system/certificates prv',
      '/api/v2/system/certificate_authorities prv',
      '/api/v2/users password',
      '/api/v2/status/wireguard/tunnels preshared_key',
      '/api/v2/firewall/virtual_ips password',
      '/api/v2/auth/keys hash',
      '/api/v2/auth/keys key',
      '/api/v2/system/hasync password',
      '/api/v2/services/ntp/settings serverauthkey',
    ]) {
      expect(storedFields, must).toContain(must);
    }
    // pfSense stores PEM material base64-encoded in config.xml.
    expect(
      secrets.some((s) => s.field === 'prv' && Buffer.from(s.value, 'base64').toString('utf8').includes('-----BEGIN PRIVATE KEY')),
    ).toBe(true);
    expect(secrets.some((s) => s.field === 'password' && s.value.startsWith('$2y$10$'))).toBe(true);

    const c = api(sim.url, sim.apiKey);
    // Then: no stored secret value appears in any response, whatever field it might have moved to.
    const bodies = new Map<string, string>();
    for (const path of Object.keys(READ_PATHS))
      bodies.set(path, (await c.get(`${path}${READ_PATHS[path]?.many ? '?limit=0' : ''}`)).res.text);
    for (const secret of secrets) {
      for (const [path, text] of bodies) expect(text.includes(secret.value), `${secret.path} ${secret.field} leaks in ${path}`).toBe(false);
    }
    const hidden: [string, string][] = [
      ['/api/v2/system/certificates', 'prv'],
      ['/api/v2/system/certificate_authorities', 'prv'],
      ['/api/v2/users', 'password'],
      ['/api/v2/users', 'ipsecpsk'],
      ['/api/v2/status/wireguard/peers', 'preshared_key'],
      ['/api/v2/firewall/virtual_ips', 'password'],
      ['/api/v2/auth/keys', 'hash'],
      ['/api/v2/auth/keys', 'key'],
      ['/api/v2/vpn/openvpn/servers', 'tls'],
      ['/api/v2/status/services', 'action'],
    ];
    for (const [path, field] of hidden) {
      const rows = (await c.get(path)).env.data as Record<string, unknown>[];
      expect(rows.length, path).toBeGreaterThan(0);
      for (const row of rows) expect(row, `${path} ${field}`).not.toHaveProperty(field);
    }
    const singles: [string, string][] = [
      ['/api/v2/system/hasync', 'password'],
      ['/api/v2/services/ntp/settings', 'serverauthkey'],
      ['/api/v2/system/restapi/settings', 'ha_sync_password'],
    ];
    for (const [path, field] of singles) expect((await c.get(path)).env.data, path).not.toHaveProperty(field);
    const tunnels = (await c.get('/api/v2/status/wireguard/tunnels')).env.data as { peers: Record<string, unknown>[] }[];
    expect(tunnels[0]?.peers.length).toBeGreaterThan(0);
    for (const peer of tunnels[0]?.peers ?? []) expect(peer).not.toHaveProperty('preshared_key');
    // No PEM private key or bcrypt hash anywhere in any response.
    for (const path of Object.keys(READ_PATHS)) {
      const text = (await c.get(path)).res.text;
      expect(text, path).not.toContain(Buffer.from('-----BEGIN PRIVATE KEY').toString('base64').slice(0, 20));
      expect(text, path).not.toContain('$2y$10$');
    }
  });
});
