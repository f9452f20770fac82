// A corpus of response variants for every READ tool, built from a fully populated upstream item of its model:
// extra fields, missing fields, nulls, numeric strings, integers where strings are expected, empty strings
// where numbers are expected, text where booleans are expected, HATEOAS links — and the response shapes of
// pfSense-pkg-RESTAPI 2.0 to 2.10 where they differ from the 2.10 models (read from pfrest's own Model classes,
// release by release). Every variant must succeed, fit the output schema, and name in `drift` exactly the
// fields it had to null.
import { describe, expect, it } from 'vitest';
import {
  PFREST_TESTED_RANGE,
  READ_CATALOGUE,
  READ_MODELS,
  RestApiClient,
  isTestedPfrestVersion,
  parsePfrestVersion,
  runReadTool,
} from '../src/index.js';
import type { FieldKind, ReadToolDefinition } from '../src/index.js';
import { FakeTransport, envelope } from './fake-transport.js';
import { buildFixture } from './upstream-fixture.js';

type Item = Record<string, unknown>;
/** Rewrites one scalar value of a field of `kind`; return KEEP to leave it, DROP to delete the key. */
type Rewrite = (kind: string, value: unknown) => unknown;
const KEEP = Symbol('keep');
const DROP = Symbol('drop');

/**
 * Applies `rewrite` to every scalar field of `item` (and of the models it embeds) and returns the names of the
 * fields whose new value `isMisfit` says cannot be projected (`parent.field` inside embedded models).
 */
function transform(
  model: string,
  item: Item,
  rewrite: Rewrite,
  isMisfit: (kind: string, value: unknown, inList: boolean) => boolean,
  prefix = '',
): { item: Item; misfits: Set<string> } {
  const spec = READ_MODELS[model];
  if (spec === undefined) throw new Error(`unknown model ${model}`);
  const out: Item = { ...item };
  const misfits = new Set<string>();
  for (const [name, kind] of Object.entries(spec.fields) as [string, FieldKind][]) {
    if (!(name in item)) continue;
    const value = item[name];
    if (typeof kind === 'object') {
      const rewriteOne = (v: unknown) => {
        const inner = transform(kind.model, v as Item, rewrite, isMisfit, `${prefix}${name}.`);
        for (const m of inner.misfits) misfits.add(m);
        return inner.item;
      };
      out[name] = kind.many ? (value as unknown[]).map(rewriteOne) : rewriteOne(value);
      continue;
    }
    const scalarKind = kind.endsWith('[]') ? kind.slice(0, -2) : kind;
    const apply = (v: unknown) => {
      const next = rewrite(scalarKind, v);
      return next === KEEP ? v : next;
    };
    if (!kind.endsWith('[]') && !Array.isArray(value) && rewrite(scalarKind, value) === DROP) {
      delete out[name];
      continue;
    }
    if (kind.endsWith('[]')) {
      const next = (value as unknown[]).map(apply).filter((v) => v !== DROP);
      out[name] = next;
      if (next.some((v) => isMisfit(scalarKind, v, true))) misfits.add(`${prefix}${name}`);
    } else {
      const next = apply(value);
      if (next === DROP) delete out[name];
      else {
        out[name] = next;
        if (isMisfit(scalarKind, next, false)) misfits.add(`${prefix}${name}`);
      }
    }
  }
  return { item: out, misfits };
}

const never = () => false;

async function project(tool: ReadToolDefinition, item: Item) {
  const data = tool.plural ? [item, item] : item;
  const input = tool.supportsIdentifyingMetadata ? { include_identifying_metadata: true } : {};
  const result = (await runReadTool(new RestApiClient(new FakeTransport(() => envelope(data))), tool, input)) as {
    data: unknown;
    drift?: string[];
  };
  expect(tool.outputSchema.safeParse(result).success, `${tool.name}: output schema`).toBe(true);
  return result;
}

/** Every scalar leaf of a projection, with its path (list indices dropped) — to compare field by field. */
function leaves(value: unknown, path = '', out = new Map<string, unknown[]>()): Map<string, unknown[]> {
  if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object')) {
    for (const v of value) leaves(v, path, out);
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) leaves(v, path === '' ? k : `${path}.${k}`, out);
  } else {
    out.set(path, [...(out.get(path) ?? []), value]);
  }
  return out;
}

const CASES = READ_CATALOGUE.map((t) => [t.name, t] as const);

describe('response variants, every READ tool', () => {
  it.each(CASES)('%s: extra fields and HATEOAS links are dropped', async (_name, tool) => {
    const { item } = buildFixture(tool.model);
    const baseline = await project(tool, item);
    const extra = await project(tool, {
      ...item,
      added_in_a_later_release: 'x',
      another: { nested: [1, 2] },
      _links: { self: { href: '/api/v2/x' } },
    });
    expect(extra).toEqual(baseline);
    expect(baseline.drift).toBeUndefined();
  });

  it.each(CASES)('%s: missing fields and nulls are null, not drift', async (_name, tool) => {
    const { item } = buildFixture(tool.model);
    const fields = Object.keys(READ_MODELS[tool.model]?.fields ?? {});
    // every field missing but one, every field null, and each embedded item's fields missing or null too
    const missing = Object.fromEntries(Object.entries(item).filter(([k]) => k === fields[0] || !fields.includes(k)));
    const nulls = Object.fromEntries(Object.entries(item).map(([k, v]) => [k, fields.includes(k) ? null : v]));
    const innerMissing = transform(tool.model, item, (_kind, v) => (Array.isArray(v) ? KEEP : DROP), never);
    const innerNulls = transform(
      tool.model,
      item,
      () => null,
      (_kind, v, inList) => inList && v === null,
    );
    for (const variant of [missing, nulls, innerMissing.item, {}]) {
      const result = await project(tool, variant);
      expect(result.drift, tool.name).toBeUndefined();
    }
    // A null *element* of a list is no field value: that list is null and named, like any misfit.
    expect((await project(tool, innerNulls.item)).drift ?? [], tool.name).toEqual([...innerNulls.misfits].sort());
    // every top-level field is null when upstream sent nothing
    const empty = (await project(tool, {})).data;
    const first = (tool.plural ? (empty as unknown[])[0] : empty) as Item;
    expect(Object.values(first).every((v) => v === null)).toBe(true);
  });

  it.each(CASES)('%s: numeric strings for numbers and integers for strings are coerced back, losslessly', async (_name, tool) => {
    const { item } = buildFixture(tool.model);
    const baseline = await project(tool, item);
    const numericStrings = transform(tool.model, item, (kind, v) => (kind === 'number' && typeof v === 'number' ? String(v) : KEEP), never);
    expect(await project(tool, numericStrings.item)).toEqual(baseline);
    // A string field that arrives as an integer comes back as that integer's text.
    const ints = transform(tool.model, item, (kind) => (kind === 'string' ? 4242 : KEEP), never);
    const result = await project(tool, ints.item);
    expect(result.drift).toBeUndefined();
    const expected = transform(tool.model, item, (kind) => (kind === 'string' ? '4242' : KEEP), never);
    expect(result).toEqual(await project(tool, expected.item));
  });

  it.each(CASES)('%s: empty strings for numbers and text for booleans are null and named in drift', async (_name, tool) => {
    const { item } = buildFixture(tool.model);
    const baseline = leaves((await project(tool, item)).data);
    const bad = transform(
      tool.model,
      item,
      (kind) => (kind === 'number' ? '' : kind === 'boolean' ? 'true' : KEEP),
      (kind, v) => (kind === 'number' && v === '') || (kind === 'boolean' && v === 'true'),
    );
    const result = await project(tool, bad.item);
    expect(result.drift ?? [], tool.name).toEqual([...bad.misfits].sort());
    // exactly the misfit fields changed (to null); every other field is as in the baseline
    const after = leaves(result.data);
    for (const [path, values] of baseline) {
      const misfit = [...bad.misfits].some((m) => path === m || path.startsWith(`${m}.`));
      if (misfit)
        expect(
          after.get(path)?.every((v) => v === null),
          path,
        ).toBe(true);
      else expect(after.get(path), path).toEqual(values);
    }
  });
});

/**
 * Where pfSense-pkg-RESTAPI's Model classes (pfSense-pkg-RESTAPI/files/usr/local/pkg/RESTAPI/Models/*.inc) differ
 * between a release and 2.10.0 for a model behind a READ tool: fields added in a release (absent before it) and
 * fields removed (present before). JSON-type changes between releases (IPsecPhase2Encryption.keylen Integer →
 * KeyLen, NetworkInterface.gateway, StaticRoute.gateway and PortForward.associated_rule_id String → ForeignModel,
 * PortForward.target String → SpecialNetwork) already land on fields the models type as `scalar`; they are
 * exercised by the value variants below.
 */
const ADDED: readonly (readonly [model: string, field: string, since: string])[] = [
  ['Certificate', 'csr', '2.2.0'],
  ['Certificate', 'caref', '2.3.0'],
  ['Certificate', 'valid_from', '2.8.0'],
  ['Certificate', 'valid_until', '2.8.0'],
  ['Certificate', 'valid_days_left', '2.8.0'],
  ['CertificateAuthority', 'caref', '2.8.0'],
  ['CertificateRevocationList', 'cert', '2.2.0'],
  ['FirewallRule', 'associated_rule_id', '2.1.0'],
  ['FirewallRule', 'tag', '2.4.0'],
  ['FirewallRule', 'dscp', '2.9.0'],
  ['OpenVPNServer', 'use_tls', '2.2.0'],
  ['OpenVPNClientSpecificOverride', 'remove_options', '2.5.0'],
  ['PortForward', 'ipprotocol', '2.1.0'],
  ['RESTAPISettings', 'expose_sensitive_fields', '2.2.0'],
  ['RESTAPISettings', 'override_sensitive_fields', '2.3.0'],
  ['RESTAPISettings', 'log_level', '2.7.0'],
  ['RESTAPISettings', 'allow_development_packages', '2.8.0'],
  ['VirtualIP', 'carp_mode', '2.3.0'],
  ['VirtualIP', 'carp_peer', '2.3.0'],
];
/** Fields a release sent that 2.10 no longer has (the model drops them). */
const REMOVED: readonly (readonly [model: string, field: string, until: string, value: unknown])[] = [
  ['OpenVPNClientSpecificOverride', 'remove_route', '2.5.0', true],
];
/** Values of `scalar` fields as releases sent them, one JSON type per release line. */
const SCALAR_VALUES: readonly (readonly [model: string, field: string, values: readonly unknown[]])[] = [
  ['IPsecPhase2Encryption', 'keylen', [128, 0, 'auto']],
  ['NetworkInterface', 'gateway', ['WAN_DHCP', 3]],
  ['StaticRoute', 'gateway', ['WAN_DHCP', 0]],
  ['PortForward', 'target', ['10.0.0.5', 'lan:ip']],
  ['PortForward', 'associated_rule_id', ['nat_5f1e', 12]],
];

const RELEASES = Array.from({ length: 11 }, (_, minor) => `2.${minor}.0`);
const before = (a: string, b: string) => {
  const [x, y] = [parsePfrestVersion(a), parsePfrestVersion(b)];
  if (x === null || y === null) throw new Error('bad version');
  return x.major !== y.major ? x.major < y.major : x.minor !== y.minor ? x.minor < y.minor : x.patch < y.patch;
};
const toolsOf = (model: string) => READ_CATALOGUE.filter((t) => t.model === model);

describe('pfSense-pkg-RESTAPI 2.0 – 2.10 response shapes', () => {
  it('the table names real fields of models behind READ tools, and the tested range covers every release in it', () => {
    for (const [model, field] of ADDED) {
      expect(READ_MODELS[model]?.fields, `${model}.${field}`).toHaveProperty(field);
      expect(toolsOf(model).length, model).toBeGreaterThan(0);
    }
    for (const [model, field] of REMOVED) expect(READ_MODELS[model]?.fields).not.toHaveProperty(field);
    for (const [model, field] of SCALAR_VALUES) expect(READ_MODELS[model]?.fields[field], `${model}.${field}`).toBe('scalar');
    for (const release of RELEASES) expect(isTestedPfrestVersion(parsePfrestVersion(release) as never), release).toBe(true);
    expect(PFREST_TESTED_RANGE).toEqual({ min: '2.0.0', max: '2.10.x' });
    expect(isTestedPfrestVersion(parsePfrestVersion('v2.11.0') as never)).toBe(false);
  });

  const byRelease = RELEASES.flatMap((release) =>
    [...new Set([...ADDED, ...REMOVED].map(([model]) => model))].flatMap((model) =>
      toolsOf(model).map((tool) => [release, tool.name, tool, model] as const),
    ),
  );

  it.each(byRelease)('%s: %s reads as that release answers it', async (release, _name, tool, model) => {
    const { item } = buildFixture(tool.model);
    const baseline = leaves((await project(tool, item)).data);
    const old: Item = { ...item };
    const absent = ADDED.filter(([m, , since]) => m === model && before(release, since)).map(([, field]) => field);
    for (const field of absent) delete old[field];
    for (const [m, field, until, value] of REMOVED) if (m === model && before(release, until)) old[field] = value;
    const result = await project(tool, old);
    expect(result.drift, `${release} ${tool.name}`).toBeUndefined();
    const after = leaves(result.data);
    for (const [path, values] of baseline) {
      const top = path.split('.')[0] ?? path;
      if (absent.includes(top)) expect(after.get(path)?.every((v) => v === null) ?? true, path).toBe(true);
      else expect(after.get(path), path).toEqual(values);
    }
  });

  it.each(
    SCALAR_VALUES.flatMap(([model, field, values]) =>
      toolsOf(model).flatMap((tool) => values.map((v) => [tool.name, field, v, tool] as const)),
    ),
  )('%s: %s as %j passes through unchanged', async (_name, field, value, tool) => {
    const { item } = buildFixture(tool.model);
    const result = await project(tool, { ...item, [field]: value });
    expect(result.drift).toBeUndefined();
    const first = (tool.plural ? (result.data as Item[])[0] : result.data) as Item;
    expect(first[field]).toEqual(value);
  });
});
