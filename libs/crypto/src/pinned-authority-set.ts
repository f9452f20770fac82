import { assertObject } from '@pfsense-mcp/foundation';
import { isHex64 } from '@pfsense-mcp/canonical';
import { AuthorityError } from './authority-error.js';
import type { AuthorityRole } from './authority-role.js';
import { isAuthorityRole } from './authority-role.js';
import { ED25519_ALGORITHM, ed25519Verify, isValidEd25519PublicKey } from './ed25519.js';
import { keyIdOf } from './key-id-of.js';

export interface PinnedAuthority {
  readonly keyId: string;
  readonly publicKey: Uint8Array;
  readonly role: AuthorityRole;
  readonly active: boolean;
}

export interface AuthorityVerifyInput {
  readonly role: AuthorityRole;
  readonly keyId: string;
  readonly algorithm: string;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

function copyOf(e: PinnedAuthority): PinnedAuthority {
  return Object.freeze({ keyId: e.keyId, publicKey: Uint8Array.from(e.publicKey), role: e.role, active: e.active });
}

/**
 * A fixed set of pinned signing keys. Built once from configuration; entries are validated (key id must be
 * the digest of the public key, key must be a valid non-small-order point, one entry per key id) and copied,
 * so later mutation of the caller's arrays cannot change what is trusted.
 */
export class PinnedAuthoritySet {
  readonly #byId: ReadonlyMap<string, PinnedAuthority>;
  readonly #entries: readonly PinnedAuthority[];

  private constructor(entries: readonly PinnedAuthority[]) {
    this.#entries = Object.freeze(entries);
    this.#byId = new Map(entries.map((e) => [e.keyId, e]));
    Object.freeze(this);
  }

  static of(entries: readonly PinnedAuthority[]): PinnedAuthoritySet {
    if (!Array.isArray(entries)) throw new TypeError('PinnedAuthoritySet.of: "entries" must be an array');
    const seen = new Set<string>();
    const copies: PinnedAuthority[] = [];
    entries.forEach((e: unknown, i) => {
      const where = `entries[${i}]`;
      if (e === null || typeof e !== 'object') {
        throw new AuthorityError('INVALID_ENTRY', null, `${where} must be an object`);
      }
      const { keyId, publicKey, role, active } = e as Record<string, unknown>;
      if (!isAuthorityRole(role)) throw new AuthorityError('INVALID_ENTRY', null, `${where}.role is not an AuthorityRole`);
      if (typeof active !== 'boolean') throw new AuthorityError('INVALID_ENTRY', role, `${where}.active must be a boolean`);
      if (!isHex64(keyId)) throw new AuthorityError('INVALID_ENTRY', role, `${where}.keyId must be 64 lowercase hex`);
      if (!isValidEd25519PublicKey(publicKey)) {
        throw new AuthorityError('INVALID_ENTRY', role, `${where}.publicKey is not a valid Ed25519 public key`);
      }
      if (keyIdOf(publicKey) !== keyId) {
        throw new AuthorityError('INVALID_ENTRY', role, `${where}.keyId is not the key id of its public key`);
      }
      // One key, one role: the same key pinned twice (even for two roles) is refused.
      if (seen.has(keyId)) throw new AuthorityError('DUPLICATE_KEY', role, `${where}.keyId is pinned twice`);
      seen.add(keyId);
      copies.push(Object.freeze({ keyId, publicKey: Uint8Array.from(publicKey), role, active }));
    });
    return new PinnedAuthoritySet(copies);
  }

  /**
   * Throws unless `signature` is a valid Ed25519 signature of `message` by an active key pinned for `role`.
   * Order is fixed and fail-closed: algorithm (before any signature work), known key, active, role, signature.
   */
  verify(input: AuthorityVerifyInput): void {
    assertObject(input, 'verify: "input"');
    const { role, keyId, algorithm, message, signature } = input;
    if (!isAuthorityRole(role)) throw new TypeError('verify: "role" must be an AuthorityRole');
    if (algorithm !== ED25519_ALGORITHM) {
      throw new AuthorityError('UNSUPPORTED_ALGORITHM', role, 'only Ed25519 signatures are accepted');
    }
    const entry = typeof keyId === 'string' ? this.#byId.get(keyId) : undefined;
    if (entry === undefined) throw new AuthorityError('UNKNOWN_KEY', role, 'key id is not pinned');
    if (!entry.active) throw new AuthorityError('INACTIVE_KEY', role, 'pinned key is not active');
    if (entry.role !== role) throw new AuthorityError('WRONG_ROLE', role, 'pinned key belongs to another role');
    if (!ed25519Verify(entry.publicKey, message, signature)) {
      throw new AuthorityError('BAD_SIGNATURE', role, 'signature does not verify');
    }
  }

  /** A copy of the pinned entry (its public key bytes copied too, so callers cannot alter what is trusted). */
  get(keyId: string): PinnedAuthority | undefined {
    const e = this.#byId.get(keyId);
    return e === undefined ? undefined : copyOf(e);
  }

  /** Copies of all entries, in the order given to `of`. */
  entries(): readonly PinnedAuthority[] {
    return Object.freeze(this.#entries.map(copyOf));
  }
}
