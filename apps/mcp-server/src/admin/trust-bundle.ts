// `admin trust --dir DIR --bundle FILE` (docs/DESIGN.md §10): the operator.pub bundle of `pfsense-mcp-signer keygen
// --role operator` pins the three operator keys in one command. Every rule of a single `--public-key` holds for
// each key, and the bundle itself must come from elsewhere (no private key beside it, not inside the write
// directory) — the key-beside-pub rule.
import { hexToBytes } from '@pfsense-mcp/canonical';
import { MAX_OPERATOR_BUNDLE_BYTES, isValidEd25519PublicKey, keyIdOf, parseOperatorKeyBundle } from '@pfsense-mcp/crypto';
import { loadPinnedAuthorities, savePinnedAuthorities } from '../runtime/write-directory/pinned-authorities-file.js';
import type { PinnedOperatorKey } from '../runtime/write-directory/pinned-authorities-file.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import { AdminError } from './admin-error.js';
import { assertPublicKeyFromElsewhere } from './public-key-placement.js';
import { readPublicFileText } from './read-public-key-argument.js';

/**
 * Pins the bundle's three keys (all or none): a key already pinned in its own role is kept as it is, one pinned
 * in another role or equal to a server-request key (`isServerKey`) refuses the whole bundle. Returns the pinned list.
 */
export function pinBundle(
  layout: WriteDirectoryLayout,
  file: string,
  isServerKey: (publicKeyHex: string) => boolean,
): readonly PinnedOperatorKey[] {
  const entries = parseOperatorKeyBundle(readPublicFileText(file, '--bundle', MAX_OPERATOR_BUNDLE_BYTES));
  if (entries === null) {
    throw new AdminError(
      'BAD_BUNDLE',
      '--bundle: not an operator.pub bundle (pfsense-mcp-signer keygen --role operator writes one: a header, then the three roles and keys)',
    );
  }
  assertPublicKeyFromElsewhere(file, layout, '--bundle');
  const pinned = loadPinnedAuthorities(layout.authoritiesFile);
  const added: PinnedOperatorKey[] = [];
  for (const e of entries) {
    const bytes = hexToBytes(e.publicKey);
    if (!isValidEd25519PublicKey(bytes))
      throw new AdminError('BAD_PUBLIC_KEY', `--bundle: the ${e.role} key is not a valid Ed25519 public key`);
    if (isServerKey(e.publicKey)) {
      throw new AdminError('SERVER_REQUEST_KEY', `--bundle: the ${e.role} key is the server's own server-request key`);
    }
    const keyId = keyIdOf(bytes);
    const same = [...pinned, ...added].find((p) => p.keyId === keyId);
    if (same !== undefined && same.role !== e.role) {
      throw new AdminError('KEY_IN_OTHER_ROLE', `--bundle: the ${e.role} key is already pinned in another role (one key, one role)`);
    }
    if (same === undefined) added.push({ role: e.role, keyId, publicKey: e.publicKey });
  }
  const all = [...pinned, ...added];
  if (added.length > 0) savePinnedAuthorities(layout.authoritiesFile, all);
  return all;
}
