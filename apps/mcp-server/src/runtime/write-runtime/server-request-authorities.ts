// Which server-request keys verify the server's own outbox files (docs/DESIGN.md §6): the current key, and each key
// retired by `admin rotate server-key` for as long as a file it signed — recorded at the rotation — is still needed.
import { createHash } from 'node:crypto';
import { ArtifactKind, PENDING_REQUEST_KINDS, parseArtifact, verifyArtifactSignature } from '@pfsense-mcp/authorization';
import type { SignedArtifact } from '@pfsense-mcp/authorization';
import { hexToBytes } from '@pfsense-mcp/canonical';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { RecoveryState, isTerminal } from '@pfsense-mcp/state-machine';
import type { RetiredServerKey } from '../write-directory/retired-server-keys-file.js';

/** What the check reads: the outbox (by name, bytes or null when absent/unsafe), contracts by id, and the time. */
export interface RequestFileFacts {
  readonly readOutbox: (file: string) => Uint8Array | null;
  readonly contractOf: (contractId: string) => RecoveryContract | undefined;
  readonly now: number;
}

export interface RetiredKeyNeed {
  readonly key: RetiredServerKey;
  /** The recorded files that still need this key (present, unchanged, signed by it, and still needed). */
  readonly neededBy: readonly string[];
}

const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function singleKeySet(keyId: string, publicKey: string): PinnedAuthoritySet {
  return PinnedAuthoritySet.of([{ keyId, publicKey: hexToBytes(publicKey), role: 'server-request', active: true }]);
}

/**
 * A request file still needed: unexpired (the operator may still sign it, the server re-reads it), or the
 * confirmation request of a contract that is not terminal or is ROLLBACK_FAILED with its reservation held (the
 * server reads its review and appliance binding for rollback, reconciliation and release).
 */
export function isRequestStillNeeded(a: SignedArtifact, facts: Pick<RequestFileFacts, 'contractOf' | 'now'>): boolean {
  if (!PENDING_REQUEST_KINDS.has(a.kind)) return false;
  if (a.payload.expires_at > facts.now) return true;
  if (a.kind !== ArtifactKind.CONFIRMATION_REQUEST) return false;
  const c = facts.contractOf(a.payload.contract_id);
  if (c === undefined) return false;
  return !isTerminal(c.state) || (c.state === RecoveryState.ROLLBACK_FAILED && c.reservation_release === null);
}

/** The signed request in `bytes` when `keys` verifies it, else null. */
export function signedRequestOf(bytes: Uint8Array, keys: PinnedAuthoritySet): SignedArtifact | null {
  try {
    const a = parseArtifact(bytes);
    if (!('proof' in a) || !PENDING_REQUEST_KINDS.has(a.kind)) return null;
    verifyArtifactSignature(a as SignedArtifact, keys);
    return a as SignedArtifact;
  } catch {
    return null;
  }
}

/** For each retired key, which of its recorded files still need it. A retired key equal to `currentKeyId` is skipped. */
export function retiredKeyNeeds(
  retired: readonly RetiredServerKey[],
  currentKeyId: string,
  facts: RequestFileFacts,
): readonly RetiredKeyNeed[] {
  return Object.freeze(
    retired
      .filter((k) => k.keyId !== currentKeyId)
      .map((key) => {
        const keys = singleKeySet(key.keyId, key.publicKey);
        const neededBy = key.files
          .filter((f) => {
            const bytes = facts.readOutbox(f.file);
            if (bytes === null || sha256Hex(bytes) !== f.sha256) return false;
            const a = signedRequestOf(bytes, keys);
            return a !== null && isRequestStillNeeded(a, facts);
          })
          .map((f) => f.file);
        return Object.freeze({ key, neededBy: Object.freeze(neededBy) });
      }),
  );
}

/** The set the server verifies its outbox with: the current key and every retired key still needed. */
export function serverRequestAuthorities(
  current: { readonly keyId: string; readonly publicKey: Uint8Array },
  needs: readonly RetiredKeyNeed[],
): PinnedAuthoritySet {
  return PinnedAuthoritySet.of([
    { keyId: current.keyId, publicKey: current.publicKey, role: 'server-request', active: true },
    ...needs
      .filter((n) => n.neededBy.length > 0)
      .map((n) => ({ keyId: n.key.keyId, publicKey: hexToBytes(n.key.publicKey), role: 'server-request' as const, active: true })),
  ]);
}

/** The files of the outbox a key signed that are still needed now (what a rotation records). */
export function filesNeedingKey(
  names: readonly string[],
  keyId: string,
  publicKey: Uint8Array,
  facts: RequestFileFacts,
): readonly { file: string; sha256: string }[] {
  const keys = PinnedAuthoritySet.of([{ keyId, publicKey, role: 'server-request', active: true }]);
  const out: { file: string; sha256: string }[] = [];
  for (const file of names) {
    const bytes = facts.readOutbox(file);
    if (bytes === null) continue;
    const a = signedRequestOf(bytes, keys);
    if (a !== null && isRequestStillNeeded(a, facts)) out.push(Object.freeze({ file, sha256: sha256Hex(bytes) }));
  }
  return Object.freeze(out);
}
