import { describe, expect, it } from 'vitest';
import { AliasDescriptionAdapter as A, TargetResolutionError, AdapterInputError } from '../src/index.js';
import { ALIASES, WEB, clone, fakeReader } from './support.js';

async function refusedWith(items: readonly unknown[], name: string): Promise<TargetResolutionError> {
  const error: unknown = await A.readTarget(fakeReader(items), { alias_name: name }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TargetResolutionError);
  return error as TargetResolutionError;
}

describe('readTarget', () => {
  it('reads every page of /api/v2/firewall/aliases once and returns the exact match, frozen', async () => {
    const reader = fakeReader(ALIASES);
    const target = await A.readTarget(reader, { alias_name: 'WEB_PORTS' });
    expect(reader.paths).toEqual(['/api/v2/firewall/aliases']);
    expect(target).toEqual(ALIASES[1]);
    expect(Object.isFrozen(target) && Object.isFrozen(target.address) && Object.isFrozen(target.detail)).toBe(true);
  });

  it('ignores fields the pinned model does not list (real appliances send more), and fingerprints the same', async () => {
    const wider = clone(ALIASES).map((a) => ({ ...(a as object), created_time: 1700000000, future_field: { x: 1 } }));
    const target = await A.readTarget(fakeReader(wider), { alias_name: 'WEB_PORTS' });
    expect(target).toEqual(ALIASES[1]);
    expect(A.fingerprint(target)).toBe(A.fingerprint(ALIASES[1] as never));
  });

  it('matches case-sensitively and exactly (no prefix, no folding)', async () => {
    expect((await refusedWith(ALIASES, 'web_ports')).code).toBe('NOT_FOUND');
    expect((await refusedWith(ALIASES, 'WEB')).code).toBe('NOT_FOUND');
    expect((await A.readTarget(fakeReader(ALIASES), { alias_name: 'Office_Nets' })).id).toBe(2);
  });

  it('refuses a missing alias and a duplicated name', async () => {
    expect((await refusedWith(ALIASES, 'NOPE')).code).toBe('NOT_FOUND');
    const dup = [...clone(ALIASES), { ...clone(WEB), id: 3 }];
    expect((await refusedWith(dup, 'WEB_PORTS')).code).toBe('DUPLICATE');
  });

  it.each(['url', 'url_ports', 'urltable', 'urltable_ports'])('refuses a URL-type alias (%s)', async (type) => {
    const items = clone(ALIASES).map((a) => (a.id === 1 ? { ...a, type } : a));
    expect((await refusedWith(items, 'WEB_PORTS')).code).toBe('URL_ALIAS');
  });

  it('refuses an unsupported type', async () => {
    const items = clone(ALIASES).map((a) => (a.id === 1 ? { ...a, type: 'mac' } : a));
    expect((await refusedWith(items, 'WEB_PORTS')).code).toBe('UNSUPPORTED_TYPE');
  });

  it.each(['id', 'type', 'descr', 'address', 'detail'])('refuses a target missing "%s"', async (field) => {
    const items = clone(ALIASES).map((a) => {
      if (a.id !== 1) return a;
      const copy: Record<string, unknown> = { ...a };
      delete copy[field];
      return copy;
    });
    const error = await refusedWith(items, 'WEB_PORTS');
    expect(error.code).toBe('MISSING_FIELD');
    expect(error.argument).toBe(`aliases[1].${field}`);
  });

  it.each([
    ['a number descr', { descr: 5 }],
    ['an address that is not an array', { address: '80' }],
    ['a non-string member', { detail: ['http', 7] }],
    ['address/detail cardinality differs', { detail: ['http'] }],
    ['a negative id', { id: -1 }],
    ['a lone surrogate in descr', { descr: '\uD800' }],
    // What the READ tools' projections coerce losslessly (integer ↔ integer-valued string) the write path's
    // authoritative read still refuses: it fingerprints exactly what pfSense holds.
    ['an integer-valued string id', { id: '1' }],
    ['an integer descr', { descr: 0 }],
    ['an integer address member', { address: [80, 443] }],
    ['a null descr', { descr: null }],
  ])('refuses a malformed target: %s', async (_name, patch) => {
    const items = clone(ALIASES).map((a) => (a.id === 1 ? { ...a, ...patch } : a));
    expect((await refusedWith(items, 'WEB_PORTS')).code).toBe('MALFORMED_TARGET');
  });

  it('refuses a listing whose other items are malformed (uniqueness cannot be proven)', async () => {
    expect((await refusedWith([...clone(ALIASES), null], 'WEB_PORTS')).code).toBe('MALFORMED_COLLECTION');
    expect((await refusedWith([...clone(ALIASES), { name: 7 }], 'WEB_PORTS')).code).toBe('MALFORMED_COLLECTION');
  });

  it('refuses an id that is not the item position (the locator is not trustworthy)', async () => {
    const items = clone(ALIASES).map((a) => (a.id === 1 ? { ...a, id: 7 } : a));
    expect((await refusedWith(items, 'WEB_PORTS')).code).toBe('LOCATOR_INCONSISTENT');
  });

  it('validates the identity before reading (no read for a bad name)', async () => {
    const reader = fakeReader(ALIASES);
    await expect(A.readTarget(reader, { alias_name: 'bad name' })).rejects.toBeInstanceOf(AdapterInputError);
    await expect(A.readTarget(reader, { alias_name: 'WEB_PORTS', extra: 1 })).rejects.toBeInstanceOf(AdapterInputError);
    await expect(A.readTarget(reader, 'WEB_PORTS')).rejects.toBeInstanceOf(AdapterInputError);
    expect(reader.paths).toEqual([]);
  });

  it('never puts the alias name or description into an error message', async () => {
    const items = clone(ALIASES).map((a) => (a.id === 1 ? { ...a, descr: 'SECRET-DESCR', detail: ['x'] } : a));
    const error = await refusedWith(items, 'WEB_PORTS');
    expect(error.message).not.toContain('SECRET-DESCR');
    expect(error.message).not.toContain('WEB_PORTS');
  });
});

describe('locator versus identity', () => {
  it('the locator is the id; identity and fingerprint ignore it', async () => {
    const target = await A.readTarget(fakeReader(ALIASES), { alias_name: 'WEB_PORTS' });
    expect(A.transportLocator(target)).toBe(1);
    // The same alias renumbered by a delete before it: same identity, same fingerprint, different locator.
    const renumbered = await A.readTarget(
      fakeReader(
        clone(ALIASES)
          .slice(1)
          .map((a, i) => ({ ...a, id: i })),
      ),
      { alias_name: 'WEB_PORTS' },
    );
    expect(A.transportLocator(renumbered)).toBe(0);
    expect(A.identityOfTarget(renumbered)).toEqual(A.identityOfTarget(target));
    expect(A.identityDigest(A.identityOfTarget(renumbered))).toBe(A.identityDigest({ alias_name: 'WEB_PORTS' }));
    expect(A.fingerprint(renumbered)).toBe(A.fingerprint(target));
    expect(A.resolveTransportTarget(renumbered)).toEqual({ identity: { alias_name: 'WEB_PORTS' }, locator: 0 });
  });
});
