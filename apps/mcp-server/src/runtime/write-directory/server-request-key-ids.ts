import { readEd25519PrivateKeyFile } from '@pfsense-mcp/crypto';
import { loadRetiredServerKeys } from './retired-server-keys-file.js';
import type { WriteDirectoryLayout } from './write-directory-layout.js';

/**
 * The ids of every server-request key DIR has had: the current key and each one `admin rotate server-key` retired
 * (keys/server-request.retired.json). What an answer's request_key_id is checked against when it is installed
 * (`admin inbox add`, the exchange folder's pickup): a superset of the keys the server accepts at use, which keeps a
 * retired key only while a file it signed is still needed (load-server-request-authorities.ts) — so install never
 * refuses an answer that use would take, and refuses at once one that answers another write directory (another
 * appliance's). A caller that has the current key loaded (the write runtime at start) passes its id, so the key file
 * is not read a second time.
 */
export function serverRequestKeyIdsOf(layout: WriteDirectoryLayout, currentKeyId: string = currentKeyIdOf(layout)): readonly string[] {
  return Object.freeze([currentKeyId, ...loadRetiredServerKeys(layout.retiredServerKeysFile).map((k) => k.keyId)]);
}

/** The current key's id, read from its file (the key itself zeroed at once): for a caller that has not loaded it already. */
function currentKeyIdOf(layout: WriteDirectoryLayout): string {
  const current = readEd25519PrivateKeyFile(layout.serverRequestKeyFile);
  current.privateKey.fill(0);
  return current.keyId;
}
