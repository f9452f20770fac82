import { ArtifactDirectory } from '@pfsense-mcp/coordinator';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { loadRetiredServerKeys } from '../write-directory/retired-server-keys-file.js';
import { retiredKeyNeeds, serverRequestAuthorities } from './server-request-authorities.js';
import type { RequestFileFacts, RetiredKeyNeed } from './server-request-authorities.js';
import type { WriteDirectoryLayout } from '../write-directory/write-directory-layout.js';

/** The outbox of DIR as the needs check reads it: a file's bytes, or null when it is absent or unsafe. */
export function outboxReader(layout: WriteDirectoryLayout): (file: string) => Uint8Array | null {
  const outbox = ArtifactDirectory.open(layout.outboxDir);
  return (file) => {
    try {
      return outbox.read(file);
    } catch {
      return null;
    }
  };
}

/**
 * The server-request keys the server verifies its outbox with (docs/DESIGN.md §6), from DIR: the current key and
 * the retired keys still needed by a file they signed (keys/server-request.retired.json). Decided at open: a
 * retired key that stops being needed while the server runs is dropped at its next start.
 */
export function loadServerRequestAuthorities(
  layout: WriteDirectoryLayout,
  current: { readonly keyId: string; readonly publicKey: Uint8Array },
  contractOf: (contractId: string) => RecoveryContract | undefined,
  now: number,
): { readonly authorities: PinnedAuthoritySet; readonly needs: readonly RetiredKeyNeed[] } {
  const facts: RequestFileFacts = { readOutbox: outboxReader(layout), contractOf, now };
  const needs = retiredKeyNeeds(loadRetiredServerKeys(layout.retiredServerKeysFile), current.keyId, facts);
  return Object.freeze({ authorities: serverRequestAuthorities(current, needs), needs });
}

/** A contract by id from a store, or undefined when it has none (or cannot give it: then no file is needed for it). */
export function contractLookup(store: {
  load(contractId: string): RecoveryContract;
}): (contractId: string) => RecoveryContract | undefined {
  return (contractId) => {
    try {
      return store.load(contractId);
    } catch {
      return undefined;
    }
  };
}
