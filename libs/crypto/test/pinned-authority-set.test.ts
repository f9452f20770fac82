import { describe, expect, it } from 'vitest';
import type { AuthorityRole, PinnedAuthority } from '../src/index.js';
import {
  AUTHORITY_ROLES,
  AuthorityError,
  ED25519_ALGORITHM,
  PinnedAuthoritySet,
  ed25519Sign,
  generateEd25519KeyPair,
  keyIdOf,
} from '../src/index.js';

function signer(role: AuthorityRole, active = true) {
  const { privateKey, publicKey } = generateEd25519KeyPair();
  const entry: PinnedAuthority = { keyId: keyIdOf(publicKey), publicKey, role, active };
  return { privateKey, entry };
}

const msg = new TextEncoder().encode('canonical payload');

function codeOf(fn: () => void): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AuthorityError);
    return (e as AuthorityError).code;
  }
  return 'OK';
}

describe('PinnedAuthoritySet', () => {
  const plan = signer('plan-authorization');
  const confirm = signer('confirmation');
  const recon = signer('reconciliation');
  const server = signer('server-request');
  const retired = signer('confirmation', false);
  const set = PinnedAuthoritySet.of([plan.entry, confirm.entry, recon.entry, server.entry, retired.entry]);

  const input = (s: ReturnType<typeof signer>, role: AuthorityRole, over: Record<string, unknown> = {}) => ({
    role,
    keyId: s.entry.keyId,
    algorithm: ED25519_ALGORITHM,
    message: msg,
    signature: ed25519Sign(s.privateKey, msg),
    ...over,
  });

  it('accepts a valid signature by an active key in its own role', () => {
    for (const s of [plan, confirm, recon, server]) expect(codeOf(() => set.verify(input(s, s.entry.role)))).toBe('OK');
  });

  it('fails closed on unknown, inactive and wrong-role keys and bad signatures', () => {
    const stranger = signer('confirmation');
    expect(codeOf(() => set.verify(input(stranger, 'confirmation')))).toBe('UNKNOWN_KEY');
    expect(codeOf(() => set.verify(input(retired, 'confirmation')))).toBe('INACTIVE_KEY');
    expect(codeOf(() => set.verify(input(confirm, 'plan-authorization')))).toBe('WRONG_ROLE');
    expect(codeOf(() => set.verify(input(plan, 'plan-authorization', { message: new Uint8Array([1]) })))).toBe('BAD_SIGNATURE');
    expect(codeOf(() => set.verify(input(plan, 'plan-authorization', { signature: new Uint8Array(64) })))).toBe('BAD_SIGNATURE');
    expect(codeOf(() => set.verify(input(plan, 'plan-authorization', { signature: new Uint8Array(3) })))).toBe('BAD_SIGNATURE');
  });

  it('a server-request key verifies only in role server-request', () => {
    for (const role of AUTHORITY_ROLES.filter((r) => r !== 'server-request')) {
      expect(codeOf(() => set.verify(input(server, role)))).toBe('WRONG_ROLE');
    }
    // And no other role's key is accepted as a server request.
    for (const s of [plan, confirm, recon]) expect(codeOf(() => set.verify(input(s, 'server-request')))).toBe('WRONG_ROLE');
  });

  it('checks the algorithm before anything else (even for an unknown key and a garbage signature)', () => {
    for (const algorithm of ['ed25519', 'EdDSA', 'Ed448', '', 'Ed25519 ']) {
      expect(codeOf(() => set.verify(input(plan, 'plan-authorization', { algorithm })))).toBe('UNSUPPORTED_ALGORITHM');
    }
    const garbage = { keyId: 'nope', algorithm: 'RS256', signature: new Uint8Array(1) };
    expect(codeOf(() => set.verify(input(plan, 'plan-authorization', garbage)))).toBe('UNSUPPORTED_ALGORITHM');
    // The signature object is never touched when the algorithm is wrong.
    const trap = new Proxy(new Uint8Array(64), {
      get() {
        throw new Error('signature was read');
      },
    });
    expect(codeOf(() => set.verify(input(plan, 'plan-authorization', { algorithm: 'none', signature: trap })))).toBe(
      'UNSUPPORTED_ALGORITHM',
    );
  });

  it('precedence: unknown key before role; inactive before role', () => {
    expect(codeOf(() => set.verify(input(retired, 'plan-authorization')))).toBe('INACTIVE_KEY');
    expect(codeOf(() => set.verify(input(plan, 'confirmation', { keyId: 'f'.repeat(64) })))).toBe('UNKNOWN_KEY');
    expect(codeOf(() => set.verify(input(plan, 'confirmation', { keyId: 42 })))).toBe('UNKNOWN_KEY');
  });

  it('names the role in the error and refuses an unknown role as a caller bug', () => {
    try {
      set.verify(input(confirm, 'reconciliation'));
    } catch (e) {
      expect((e as AuthorityError).role).toBe('reconciliation');
      expect((e as Error).message).toContain('reconciliation');
    }
    expect(() => set.verify(input(plan, 'admin' as AuthorityRole))).toThrow(TypeError);
  });

  it('validates entries at construction', () => {
    const good = plan.entry;
    const bad = (over: Record<string, unknown>) => codeOf(() => PinnedAuthoritySet.of([{ ...good, ...over } as PinnedAuthority]));
    expect(bad({ role: 'owner' })).toBe('INVALID_ENTRY');
    expect(bad({ active: 'yes' })).toBe('INVALID_ENTRY');
    expect(bad({ keyId: good.keyId.toUpperCase() })).toBe('INVALID_ENTRY');
    expect(bad({ keyId: confirm.entry.keyId })).toBe('INVALID_ENTRY'); // id of another key
    expect(bad({ publicKey: new Uint8Array(32) })).toBe('INVALID_ENTRY'); // small-order point
    expect(bad({ publicKey: new Uint8Array(31) })).toBe('INVALID_ENTRY');
    expect(codeOf(() => PinnedAuthoritySet.of([good, { ...good, role: 'confirmation' }]))).toBe('DUPLICATE_KEY');
    expect(codeOf(() => PinnedAuthoritySet.of([null as never]))).toBe('INVALID_ENTRY');
    expect(() => PinnedAuthoritySet.of('x' as never)).toThrow(TypeError);
  });

  it('is immutable: later changes to inputs or outputs do not change what is trusted', () => {
    const k = signer('confirmation');
    const entries: PinnedAuthority[] = [{ ...k.entry, publicKey: Uint8Array.from(k.entry.publicKey) }];
    const s = PinnedAuthoritySet.of(entries);
    entries[0]!.publicKey.fill(0);
    entries.push(server.entry);
    const got = s.get(k.entry.keyId)!;
    got.publicKey.fill(0);
    s.entries()[0]!.publicKey.fill(0);
    expect(s.entries()).toHaveLength(1);
    expect(Object.isFrozen(s.entries())).toBe(true);
    expect(codeOf(() => s.verify(input(k, 'confirmation')))).toBe('OK');
    expect(s.get('missing')).toBeUndefined();
    expect(s.get(k.entry.keyId)?.role).toBe('confirmation');
  });
});
