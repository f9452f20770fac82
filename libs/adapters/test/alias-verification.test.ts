import { describe, expect, it } from 'vitest';
import { AdapterInputError, AliasDescriptionAdapter as A, aliasSnapshotOf } from '../src/index.js';
import { WEB, as, intentFor } from './support.js';

const pre = WEB;
const intent = intentFor('WEB_PORTS', 'new text');
const post = as({ ...pre, descr: 'new text' });

describe('isSemanticallyVerified', () => {
  it('holds when only the description changed, to the new value, on the same id', () => {
    expect(A.isSemanticallyVerified(pre, post, intent)).toBe(true);
  });

  // Fingerprint-completeness (capability_adapter_contract "Required tests"): each protected field of the
  // documented list (name, type, address, detail) and the id, changed alone, defeats verification.
  it.each([
    ['the id (renumbered or recreated)', { id: 2 }],
    ['the name', { name: 'WEB_PORTS2' }],
    ['the type', { type: 'host' }],
    ['an address member', { address: ['80', '8443'] }],
    ['the address order', { address: ['443', '80'] }],
    ['a detail', { detail: ['http', 'tls'] }],
    ['the detail order', { detail: ['https', 'http'] }],
    ['a member added', { address: ['80', '443', '8080'], detail: ['http', 'https', 'x'] }],
    ['the description (not the new value)', { descr: 'new text ' }],
    ['the description (unchanged)', { descr: pre.descr }],
  ])('fails when the post-state differs in %s', (_n, patch) => {
    expect(A.isSemanticallyVerified(pre, as({ ...post, ...patch }), intent)).toBe(false);
  });

  it('fails for an intent naming another alias, and for malformed inputs (never throws)', () => {
    expect(A.isSemanticallyVerified(pre, post, intentFor('LAN_SERVERS', 'new text'))).toBe(false);
    expect(A.isSemanticallyVerified(pre, { ...post, extra: 1 } as never, intent)).toBe(false);
    expect(A.isSemanticallyVerified(pre, [post] as never, intent)).toBe(false);
    expect(A.isSemanticallyVerified(null as never, post, intent)).toBe(false);
    expect(A.isSemanticallyVerified(pre, post, { ...intent, operation: 'x' })).toBe(false);
  });
});

describe('rollback', () => {
  const snapshot = aliasSnapshotOf(pre);
  const resolved = Object.freeze({ identity: Object.freeze({ alias_name: 'WEB_PORTS' }), locator: 1 });

  it('buildRollbackRequest writes the old description back with apply=false, as the closed model', () => {
    const request = A.buildRollbackRequest(snapshot, resolved);
    expect(request).toStrictEqual({ id: 1, name: 'WEB_PORTS', descr: 'HTTP and HTTPS', apply: false });
    expect(Object.isFrozen(request)).toBe(true);
    expect(A.isRequestModel(request)).toBe(true);
  });

  it("restores an old description that the forward input rules would refuse (it is the appliance's own value)", () => {
    const odd = { ...snapshot, descr: 'line\r\nbreak' };
    expect(A.buildRollbackRequest(odd, resolved).descr).toBe('line\r\nbreak');
  });

  it('refuses a snapshot of another alias, a snapshot with an id or missing field, and a bad target', () => {
    expect(() => A.buildRollbackRequest({ ...snapshot, name: 'LAN_SERVERS' }, resolved)).toThrow(AdapterInputError);
    expect(() => A.buildRollbackRequest(pre, resolved)).toThrow(AdapterInputError);
    expect(() => A.buildRollbackRequest({ name: 'WEB_PORTS', descr: 'x' }, resolved)).toThrow(AdapterInputError);
    expect(() => A.buildRollbackRequest(snapshot, { ...resolved, locator: '1' } as never)).toThrow(AdapterInputError);
  });

  it('isRollbackVerified holds only when the fresh read equals the snapshot in all five fields', () => {
    expect(A.isRollbackVerified(snapshot, pre)).toBe(true);
    expect(A.isRollbackVerified(snapshot, post)).toBe(false);
    const changes = [{ name: 'X' }, { type: 'host' }, { address: ['443', '80'] }, { detail: ['x', 'y'] }, { descr: '' }];
    expect(changes.map((c) => A.isRollbackVerified(snapshot, as({ ...pre, ...c })))).toEqual(changes.map(() => false));
    expect(A.isRollbackVerified({ ...snapshot, extra: 1 }, pre)).toBe(false);
    expect(A.isRollbackVerified(snapshot, null as never)).toBe(false);
  });
});
