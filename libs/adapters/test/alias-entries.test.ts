import { describe, expect, it } from 'vitest';
import {
  ALIAS_ENTRY_DEFAULT_DETAIL,
  AdapterInputError,
  TargetResolutionError,
  createAliasEntriesAdapter,
  isAliasEntriesRequest,
} from '../src/index.js';
import type { AliasEntriesTarget } from '../src/index.js';
import { fakeReader } from './support.js';

const LIMITS = { maxPrefixV4: 8, maxPrefixV6: 32, protectedNetworks: ['10.10.20.0/24'], maxMembers: 20_000 };
const A = createAliasEntriesAdapter(LIMITS);

const ALIASES = [
  { id: 0, name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['a'] },
  { id: 1, name: 'WEB_PORTS', type: 'port', descr: '', address: ['80'], detail: ['http'] },
  { id: 2, name: 'BLOCKLIST', type: 'network', descr: 'Bad', address: ['198.51.100.128/25', '192.0.2.0/24'], detail: ['x', 'y'] },
  { id: 3, name: 'BAD_HOSTS', type: 'host', descr: '', address: ['203.0.113.9'], detail: ['z'] },
  { id: 4, name: 'FQDNS', type: 'host', descr: '', address: ['example.com'], detail: ['f'] },
];
const rule = (tracker: number, type: string, source: string, extra: object = {}) => ({
  id: tracker - 100,
  tracker,
  type,
  interface: ['wan'],
  direction: 'any',
  disabled: false,
  descr: `rule ${tracker}`,
  source,
  destination: 'any',
  protocol: 'tcp',
  ...extra,
});
const RULES = [
  rule(100, 'block', 'BLOCKLIST'),
  rule(101, 'pass', 'any', { destination: '!BLOCKLIST' }),
  rule(102, 'block', 'BAD_HOSTS'),
  rule(103, 'pass', 'LAN_SERVERS', { disabled: true }),
  rule(104, 'block', 'WEB_PORTS'),
  rule(105, 'block', 'FQDNS'),
];

function reader(aliases: readonly unknown[] = ALIASES, rules: readonly unknown[] = RULES) {
  const paths: string[] = [];
  return {
    paths,
    readAllPages: async (path: string) => {
      paths.push(path);
      return structuredClone(path === '/api/v2/firewall/rules' ? rules : aliases) as readonly unknown[];
    },
  };
}

async function target(name: string, aliases?: readonly unknown[], rules?: readonly unknown[]): Promise<AliasEntriesTarget> {
  return A.readTarget(reader(aliases, rules), { alias_name: name });
}

function inputError(fn: () => unknown): AdapterInputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AdapterInputError);
    return e as AdapterInputError;
  }
  throw new Error('expected an AdapterInputError');
}

describe('the entries input: checked without the appliance', () => {
  it('fills a missing detail with the fixed text and keeps both lists', () => {
    expect(A.parseInput({ alias_name: 'BLOCKLIST', add: [{ address: '203.0.113.7/32' }] })).toEqual({
      alias_name: 'BLOCKLIST',
      add: [{ address: '203.0.113.7/32', detail: ALIAS_ENTRY_DEFAULT_DETAIL }],
      remove: [],
    });
    expect(A.parseInput({ alias_name: 'BLOCKLIST', remove: ['192.0.2.0/24'] })).toEqual({
      alias_name: 'BLOCKLIST',
      add: [],
      remove: ['192.0.2.0/24'],
    });
  });

  it.each([
    [{ alias_name: 'B' }, 'EMPTY', 'add'],
    [{ alias_name: 'B', add: [], remove: [] }, 'EMPTY', 'add'],
    [{ alias_name: 'B', add: Array.from({ length: 65 }, (_, i) => ({ address: `10.0.0.${i}` })) }, 'TOO_MANY', 'add'],
    [
      {
        alias_name: 'B',
        add: Array.from({ length: 40 }, (_, i) => ({ address: `10.0.0.${i}` })),
        remove: Array.from({ length: 25 }, (_, i) => `10.0.1.${i}`),
      },
      'TOO_MANY',
      'add',
    ],
    [{ alias_name: 'B', add: [{ address: 'example.com' }] }, 'NOT_LITERAL', 'add[0].address'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1-10.0.0.5' }] }, 'NOT_LITERAL', 'add[0].address'],
    [{ alias_name: 'B', add: [{ address: 'OTHER_ALIAS' }] }, 'NOT_LITERAL', 'add[0].address'],
    [{ alias_name: 'B', add: [{ address: '2001:DB8::1' }] }, 'NOT_CANONICAL', 'add[0].address'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1/8' }] }, 'NOT_CANONICAL', 'add[0].address'],
    [{ alias_name: 'B', remove: ['10.0.0.1', '10.0.0.1/32'] }, 'DUPLICATE', 'add'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1' }], remove: ['10.0.0.1'] }, 'DUPLICATE', 'add'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1', detail: 'a|b' }] }, 'FORBIDDEN_CHARACTER', 'add[0].detail'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1', detail: 'a\nb' }] }, 'CONTROL_CHARACTER', 'add[0].detail'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1', detail: 'x'.repeat(201) }] }, 'TOO_LONG', 'add[0].detail'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1', detail: '' }] }, 'EMPTY', 'add[0].detail'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1', port: 80 }] }, 'UNKNOWN_FIELD', 'add[0]'],
    [{ alias_name: 'B', add: [{ address: '10.0.0.1' }], apply: true }, 'UNKNOWN_FIELD', 'input'],
  ])('refuses %j as %s naming %s', (input, code, argument) => {
    const e = inputError(() => A.parseInput(input));
    expect(e.code).toBe(code);
    expect(e.argument).toBe(argument);
    expect(e.message).not.toContain('10.0.0');
  });

  it('a detail of 200 characters is accepted', () => {
    expect(A.parseInput({ alias_name: 'B', add: [{ address: '10.0.0.1', detail: 'é'.repeat(200) }] }).add[0]?.detail).toHaveLength(200);
  });

  it('the intent and the input are each other’s inverse', () => {
    const input = A.parseInput({
      alias_name: 'BLOCKLIST',
      add: [{ address: '203.0.113.7/32', detail: 'scanner' }],
      remove: ['192.0.2.0/24'],
    });
    const intent = A.intentOfInput(input);
    expect(intent.operation).toBe('change_firewall_alias_entries_v1');
    expect(A.inputOfIntent(intent)).toEqual(input);
    expect(A.intentDigest(intent)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('readTarget: the alias and the rules that use it', () => {
  it('reads the aliases and the rules, and keeps the referencing rules in order (negated too)', async () => {
    const r = reader();
    const t = await A.readTarget(r, { alias_name: 'BLOCKLIST' });
    expect(r.paths).toEqual(['/api/v2/firewall/aliases', '/api/v2/firewall/rules']);
    expect(t.usage.map((u) => [u.tracker, u.action])).toEqual([
      ['100', 'block'],
      ['101', 'pass'],
    ]);
    expect(Object.isFrozen(t)).toBe(true);
  });

  it('fails closed on a rule it cannot read', async () => {
    const e = await A.readTarget(reader(ALIASES, [...RULES, { tracker: 1, type: 'maybe' }]), { alias_name: 'BLOCKLIST' }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(TargetResolutionError);
  });
});

describe('normalizeIntent: the rules against the alias as read', () => {
  const normalize = async (name: string, change: object, adapter = A) =>
    adapter.normalizeIntent(adapter.parseInput({ alias_name: name, ...change }), await target(name));

  it('accepts a block of a host in a network alias used by an enabled block rule', async () => {
    const intent = await normalize('BLOCKLIST', { add: [{ address: '203.0.113.7/32' }] });
    expect(intent.add).toEqual([{ address: '203.0.113.7/32', detail: ALIAS_ENTRY_DEFAULT_DETAIL }]);
  });

  it.each([
    ['BLOCKLIST', { add: [{ address: '192.0.2.0/24' }] }, 'ALREADY_PRESENT'],
    ['BLOCKLIST', { remove: ['203.0.113.7/32'] }, 'NOT_PRESENT'],
    ['WEB_PORTS', { add: [{ address: '203.0.113.7' }] }, 'UNSUPPORTED_ALIAS'],
    ['FQDNS', { add: [{ address: '203.0.113.7' }] }, 'UNSUPPORTED_ALIAS'],
    ['LAN_SERVERS', { add: [{ address: '10.0.0.2' }] }, 'NOT_REFERENCED'],
    ['BAD_HOSTS', { add: [{ address: '198.51.100.0/24' }] }, 'CIDR_IN_HOST_ALIAS'],
    ['BLOCKLIST', { add: [{ address: '203.0.113.7' }] }, 'NOT_CIDR'],
    ['BLOCKLIST', { add: [{ address: '0.0.0.0/4' }] }, 'PREFIX_TOO_BROAD'],
    ['BLOCKLIST', { add: [{ address: '2001::/16' }] }, 'PREFIX_TOO_BROAD'],
    ['BLOCKLIST', { add: [{ address: '10.10.20.77/32' }] }, 'PROTECTED_NETWORK'],
    ['BLOCKLIST', { add: [{ address: '10.0.0.0/8' }] }, 'PROTECTED_NETWORK'],
  ])('%s %j → %s', async (name, change, code) => {
    const e = await normalize(name, change).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AdapterInputError);
    expect((e as AdapterInputError).code).toBe(code);
  });

  it('narrower bounds refuse what the defaults allow; removing from a protected network is refused too', async () => {
    const narrow = createAliasEntriesAdapter({ ...LIMITS, maxPrefixV4: 24, protectedNetworks: ['192.0.2.0/24'] });
    expect(
      ((await normalize('BLOCKLIST', { add: [{ address: '100.64.0.0/16' }] }, narrow).catch((x) => x)) as AdapterInputError).code,
    ).toBe('PREFIX_TOO_BROAD');
    expect(((await normalize('BLOCKLIST', { remove: ['192.0.2.0/24'] }, narrow).catch((x) => x)) as AdapterInputError).code).toBe(
      'PROTECTED_NETWORK',
    );
  });

  it('refuses past the member bound after the change', async () => {
    const small = createAliasEntriesAdapter({ ...LIMITS, maxMembers: 2 });
    const e = await normalize('BLOCKLIST', { add: [{ address: '203.0.113.7/32' }] }, small).catch((x: unknown) => x);
    expect((e as AdapterInputError).code).toBe('TOO_LARGE');
    await expect(normalize('BLOCKLIST', { add: [{ address: '203.0.113.7/32' }], remove: ['192.0.2.0/24'] }, small)).resolves.toBeTruthy();
  });

  it('refuses bounds broader than the product allows', () => {
    expect(() => createAliasEntriesAdapter({ ...LIMITS, maxPrefixV4: 4 })).toThrow(/maxPrefixV4/);
    expect(() => createAliasEntriesAdapter({ ...LIMITS, maxPrefixV6: 16 })).toThrow(/maxPrefixV6/);
    expect(() => createAliasEntriesAdapter({ ...LIMITS, protectedNetworks: ['10.0.0.1/8'] })).toThrow(/protectedNetworks\[0\]/);
  });
});

describe('fingerprint: complete lists and the usage of the alias', () => {
  it('changes with an entry, a rule flipped to pass, a rule disabled — not with a rule description', async () => {
    const base = A.fingerprint(await target('BLOCKLIST'));
    const flipped = RULES.map((r) => (r.tracker === 100 ? { ...r, type: 'pass' } : r));
    const disabled = RULES.map((r) => (r.tracker === 100 ? { ...r, disabled: true } : r));
    const renamed = RULES.map((r) => (r.tracker === 100 ? { ...r, descr: 'other words' } : r));
    const moreEntries = ALIASES.map((a) =>
      a.id === 2 ? { ...a, address: [...a.address, '203.0.113.0/24'], detail: [...a.detail, 'n'] } : a,
    );
    expect(A.fingerprint(await target('BLOCKLIST', ALIASES, flipped))).not.toBe(base);
    expect(A.fingerprint(await target('BLOCKLIST', ALIASES, disabled))).not.toBe(base);
    expect(A.fingerprint(await target('BLOCKLIST', moreEntries))).not.toBe(base);
    expect(A.fingerprint(await target('BLOCKLIST', ALIASES, renamed))).toBe(base);
  });

  it('differs in identity from the description capability on the same alias', async () => {
    const { AliasDescriptionAdapter } = await import('../src/index.js');
    expect(A.identityDigest({ alias_name: 'BLOCKLIST' })).not.toBe(AliasDescriptionAdapter.identityDigest({ alias_name: 'BLOCKLIST' }));
  });
});

describe('the request, the response and the post-conditions', () => {
  it('builds {id, name, address, detail, apply: true} with the complete aligned lists', async () => {
    const t = await target('BLOCKLIST');
    const intent = await A.normalizeIntent(
      A.parseInput({ alias_name: 'BLOCKLIST', add: [{ address: '203.0.113.7/32', detail: 'scanner' }], remove: ['198.51.100.128/25'] }),
      t,
    );
    const request = A.buildRequest(intent, A.resolveTransportTarget(t));
    expect(request).toEqual({
      id: 2,
      name: 'BLOCKLIST',
      address: ['192.0.2.0/24', '203.0.113.7/32'],
      detail: ['y', 'scanner'],
      apply: true,
    });
    expect(isAliasEntriesRequest(request)).toBe(true);
    expect(isAliasEntriesRequest({ ...request })).toBe(false);

    const data = { id: 2, name: 'BLOCKLIST', type: 'network', descr: 'Bad', address: request.address, detail: request.detail };
    const ok = { status: 200, body: JSON.stringify({ code: 200, status: 'ok', response_id: 'SUCCESS', message: '', data }) };
    expect(A.parseResponse(ok, request).accepted).toBe(true);
    const padded = { ...data, detail: ['y', 'Entry added Sat, 05 Dec 2026 12:00:00 +0000'] };
    const bad = { status: 200, body: JSON.stringify({ code: 200, status: 'ok', response_id: 'SUCCESS', message: '', data: padded }) };
    expect(A.parseResponse(bad, request)).toEqual({ accepted: false, reason: 'DATA_ENTRIES_DIFFER' });

    const post = { ...t, address: [...request.address], detail: [...request.detail] };
    expect(A.isSemanticallyVerified(t, post, intent)).toBe(true);
    expect(A.isSemanticallyVerified(t, { ...post, detail: padded.detail }, intent)).toBe(false);
    expect(A.isSemanticallyVerified(t, t, intent)).toBe(false);

    const snapshot = A.snapshotOf(t);
    const rollback = A.buildRollbackRequest(snapshot, A.resolveTransportTarget(post as AliasEntriesTarget));
    expect(rollback).toEqual({ id: 2, name: 'BLOCKLIST', address: t.address, detail: t.detail, apply: true });
    expect(A.isRollbackVerified(snapshot, t)).toBe(true);
    expect(A.isRollbackVerified(snapshot, post)).toBe(false);
  });

  it('reviews the complete state (every referencing rule, so the fingerprint is recomputable) and the change', async () => {
    const many = Array.from({ length: 12 }, (_, i) => rule(200 + i, i % 2 === 0 ? 'block' : 'pass', 'BLOCKLIST'));
    const t = await target('BLOCKLIST', ALIASES, many);
    const intent = A.intentOfInput(A.parseInput({ alias_name: 'BLOCKLIST', add: [{ address: '203.0.113.7/32' }] }));
    const review = A.reviewOf(t, intent);
    expect(review.pre_state.usage).toHaveLength(12);
    expect(review.pre_state.usage[1]).toEqual({
      tracker: '201',
      action: 'pass',
      interface: ['wan'],
      direction: 'any',
      disabled: false,
      descr: 'rule 201',
    });
    expect(review.pre_state.address).toEqual(['198.51.100.128/25', '192.0.2.0/24']);
    expect(A.fingerprint(review.pre_state)).toBe(A.fingerprint(t));
    expect(review.add).toEqual(intent.add);
  });

  it('is a frozen object of the port', () => {
    expect(Object.isFrozen(A)).toBe(true);
    expect(A.capability).toBe('ALIAS_ENTRIES_WRITE');
    expect(A.endpointSymbol).toBe('FIREWALL_ALIAS_ENTRIES_PATCH');
    expect(fakeReader([]).paths).toEqual([]);
  });
});
