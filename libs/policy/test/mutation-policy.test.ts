import { describe, expect, it } from 'vitest';
import { Capability, HTTP_METHODS, MutationPolicy, PolicyRefusalError } from '../src/index.js';
import type { HttpMethod, MutationPolicyEntry } from '../src/index.js';

const W = Capability.ALIAS_WRITE;
const ENTRY: MutationPolicyEntry = { capability: W, endpointSymbol: 'FIREWALL_ALIAS_PATCH', method: 'PATCH' };

function refusal(fn: () => void): PolicyRefusalError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PolicyRefusalError);
    return err as PolicyRefusalError;
  }
  throw new Error('expected a PolicyRefusalError');
}

describe('MutationPolicy', () => {
  it('the default (empty) policy refuses every well-formed triple', () => {
    const p = MutationPolicy.empty();
    expect(p.size).toBe(0);
    for (const m of HTTP_METHODS) {
      expect(p.allows(W, 'FIREWALL_ALIAS_PATCH', m)).toBe(false);
      const e = refusal(() => p.authorize(W, 'FIREWALL_ALIAS_PATCH', m));
      expect(e.code).toBe('NOT_ALLOW_LISTED');
      expect(e.name).toBe('PolicyRefusalError');
      expect([e.capability, e.endpointSymbol, e.method]).toEqual([W, 'FIREWALL_ALIAS_PATCH', m]);
    }
  });

  it('allows exactly the listed triple and nothing near it', () => {
    const p = MutationPolicy.of([ENTRY]);
    expect(() => p.authorize(W, 'FIREWALL_ALIAS_PATCH', 'PATCH')).not.toThrow();
    expect(p.allows(W, 'FIREWALL_ALIAS_PATCH', 'PATCH')).toBe(true);
    // other method, other symbol (case, prefix, suffix), other capability
    for (const m of ['POST', 'PUT', 'DELETE', 'GET'] as HttpMethod[]) refusal(() => p.authorize(W, 'FIREWALL_ALIAS_PATCH', m));
    for (const s of ['firewall_alias_patch', 'FIREWALL_ALIAS', 'FIREWALL_ALIAS_PATCH_', 'FIREWALL_ALIAS_PATCH2']) {
      refusal(() => p.authorize(W, s, 'PATCH'));
    }
    refusal(() => p.authorize(Capability.ALIAS_READ, 'FIREWALL_ALIAS_PATCH', 'PATCH'));
  });

  it('is immutable: the source array and entries can change without effect', () => {
    const src: MutationPolicyEntry[] = [{ ...ENTRY }];
    const p = MutationPolicy.of(src);
    (src[0] as { method: string }).method = 'DELETE';
    src.push({ capability: W, endpointSymbol: 'OTHER', method: 'POST' });
    expect(p.allows(W, 'FIREWALL_ALIAS_PATCH', 'PATCH')).toBe(true);
    expect(p.allows(W, 'FIREWALL_ALIAS_PATCH', 'DELETE')).toBe(false);
    expect(p.size).toBe(1);
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.entries())).toBe(true);
    expect(() => {
      (p.entries() as MutationPolicyEntry[]).push(src[1]!);
    }).toThrow(TypeError);
    expect(() => {
      (p.entries()[0] as { method: string }).method = 'DELETE';
    }).toThrow(TypeError);
  });

  it('of() refuses malformed entries with a TypeError naming the entry', () => {
    const bad: unknown[] = [
      { ...ENTRY, capability: Capability.ALIAS_READ }, // a READ capability cannot be a mutation
      { ...ENTRY, capability: 'ALIAS_DELETE' },
      { ...ENTRY, method: 'GET' },
      { ...ENTRY, method: 'patch' },
      { ...ENTRY, endpointSymbol: '/api/v2/firewall/alias' },
      { ...ENTRY, endpointSymbol: '*' },
      { ...ENTRY, endpointSymbol: '' },
      { ...ENTRY, extra: 1 },
      { capability: W, method: 'PATCH' },
      null,
      'ALIAS_WRITE PATCH',
    ];
    for (const b of bad) expect(() => MutationPolicy.of([b as MutationPolicyEntry])).toThrow(/"entries\[0\]/);
    expect(() => MutationPolicy.of([ENTRY, { ...ENTRY }])).toThrow(/duplicates/);
    expect(() => MutationPolicy.of('x' as unknown as MutationPolicyEntry[])).toThrow(/"entries"/);
  });

  it('allows() and authorize() validate their arguments', () => {
    const p = MutationPolicy.of([ENTRY]);
    expect(() => p.authorize('X' as Capability, 'FIREWALL_ALIAS_PATCH', 'PATCH')).toThrow(TypeError);
    expect(() => p.authorize(W, 'a b', 'PATCH')).toThrow(/"endpointSymbol"/);
    expect(() => p.authorize(W, 'FIREWALL_ALIAS_PATCH', 'patch' as HttpMethod)).toThrow(/"method"/);
    expect(() => p.allows(W, 42 as unknown as string, 'PATCH')).toThrow(/"endpointSymbol"/);
  });
});
