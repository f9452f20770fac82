import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { describe, expect, it } from 'vitest';
import {
  AdapterInputError,
  AliasDescriptionAdapter as A,
  aliasSnapshotDigest,
  aliasSnapshotOf,
  aliasTargetFingerprint,
} from '../src/index.js';
import { LAN, as, clone } from './support.js';

const target = LAN;
const { id: _id, ...semantic } = target;

describe('aliasTargetFingerprint', () => {
  it('is digest(TARGET_FINGERPRINT, {name, type, descr, address, detail}) and excludes the id', () => {
    expect(aliasTargetFingerprint(target)).toBe(digest(DigestPurpose.TARGET_FINGERPRINT, semantic));
    expect(aliasTargetFingerprint(semantic)).toBe(aliasTargetFingerprint(target));
    expect(aliasTargetFingerprint({ ...target, id: 9 })).toBe(aliasTargetFingerprint(target));
    expect(A.fingerprint(target)).toBe(aliasTargetFingerprint(target));
  });

  it('is stable across calls and key order', () => {
    const reordered = {
      detail: [...target.detail],
      address: [...target.address],
      descr: target.descr,
      type: target.type,
      name: target.name,
    };
    expect(aliasTargetFingerprint(reordered)).toBe(aliasTargetFingerprint(clone(target)));
  });

  it('changes with every semantic field, and with member order', () => {
    const base = aliasTargetFingerprint(target);
    const variants = [
      { ...target, name: 'LAN_SERVERS2' },
      { ...target, type: 'network' },
      { ...target, descr: 'Servers ' },
      { ...target, address: ['10.0.0.1', '10.0.0.3'] },
      { ...target, detail: ['a', 'c'] },
      { ...target, address: ['10.0.0.2', '10.0.0.1'] },
      { ...target, detail: ['b', 'a'] },
    ];
    const prints = variants.map((v) => aliasTargetFingerprint(v));
    expect(prints.filter((p) => p === base)).toEqual([]);
    expect(new Set(prints).size).toBe(prints.length);
  });

  it('validates the object itself (zod): missing, wrong-typed or inconsistent fields are refused', () => {
    const bad = [
      { ...semantic, descr: undefined },
      { name: target.name, type: target.type, address: target.address, detail: target.detail },
      { ...semantic, type: 'url' },
      { ...semantic, address: 'x' },
      { ...semantic, detail: ['a'] },
      'LAN_SERVERS',
      null,
    ];
    bad.forEach((v) => expect(() => aliasTargetFingerprint(v)).toThrow(AdapterInputError));
  });

  it('is the same function of the snapshot (so the signer and the executor agree)', () => {
    const snap = aliasSnapshotOf(target);
    expect(snap).toEqual(semantic);
    expect(Object.isFrozen(snap)).toBe(true);
    expect(aliasTargetFingerprint(snap)).toBe(aliasTargetFingerprint(target));
    expect(A.snapshotOf(as(target))).toEqual(snap);
    expect(aliasSnapshotDigest(snap)).toBe(digest(DigestPurpose.SNAPSHOT, semantic));
    expect(aliasSnapshotDigest(snap)).not.toBe(aliasTargetFingerprint(target));
    expect(() => aliasSnapshotDigest(target)).toThrow(AdapterInputError);
  });
});
