import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { fsyncDirectory } from '@pfsense-mcp/foundation';
import { ArtifactDirectory } from '@pfsense-mcp/coordinator';
import {
  generateEd25519KeyPair,
  keyIdOf,
  readEd25519PrivateKeyFile,
  readSecretFile,
  writeEd25519PrivateKeyFile,
  writeSecretFile,
} from '@pfsense-mcp/crypto';
import { outboxReader } from '../runtime/write-runtime/load-server-request-authorities.js';
import { loadRetiredServerKeys, saveRetiredServerKeys } from '../runtime/write-directory/retired-server-keys-file.js';
import { filesNeedingKey } from '../runtime/write-runtime/server-request-authorities.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import type { AdminContext } from './admin-context.js';
import { adminResult, safeText } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { allContracts } from './admin-facts.js';
import { withHeldWriteDirectory } from './hold-write-directory.js';
import { withContractStore } from './open-admin-stores.js';
import type { AdminArgs } from './parse-admin-args.js';

/** The public key hex in a left-over temporary .pub, or null. */
function pendingPublicKey(path: string): string | null {
  try {
    return readSecretFile(path, { maxBytes: 256 }).toString('latin1').trim();
  } catch {
    return null;
  }
}

/** The public file kept for a retired key (what the operator's signer needs for a request signed before the rotation). */
export function retiredPublicKeyFile(layout: WriteDirectoryLayout, keyId: string): string {
  return join(layout.keysDir, `server-request-${keyId.slice(0, 16)}.retired.pub`);
}

/**
 * `admin rotate server-key --dir DIR` (docs/DESIGN.md §6): a new server-request signing key. The old key is retired:
 * recorded in keys/server-request.retired.json with the outbox files it signed that are still needed (an unexpired
 * request, the confirmation request of a contract that is not terminal or holds its reservation), and the server
 * keeps it for verification only — never to sign — while one of those files is still needed. Refused while a server
 * holds DIR. Order: the new key and its .pub are created exclusively under temporary names, the retired list is
 * written, the key is renamed into place (the commit point), then the .pub. A crash before the key's rename leaves the
 * old key current (the next run starts afresh); one after it leaves the new key current with its .pub still under
 * the temporary name, and the next run only finishes that rename.
 */
export async function rotateServerKeyCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  return withHeldWriteDirectory(args, ctx, 'rotate server-key', async (layout, hold) => {
    const now = ctx.now();
    const current = readEd25519PrivateKeyFile(layout.serverRequestKeyFile);
    current.privateKey.fill(0);
    const recorded = await withContractStore(layout, ctx, (store) => {
      const contracts = new Map(allContracts(store).map((c) => [c.contract_id, c]));
      const readOutbox = outboxReader(layout);
      const names = ArtifactDirectory.open(layout.outboxDir).list();
      return filesNeedingKey(names, current.keyId, current.publicKey, { readOutbox, contractOf: (id) => contracts.get(id), now });
    });

    const keyTemp = `${layout.serverRequestKeyFile}.new`;
    const pubTemp = `${layout.serverRequestPublicKeyFile}.new`;
    const currentHex = bytesToHex(current.publicKey);
    if (pendingPublicKey(pubTemp) === currentHex) {
      // A rotation that crashed after its commit point: only the .pub's rename is missing.
      renameSync(pubTemp, layout.serverRequestPublicKeyFile);
      fsyncDirectory(layout.keysDir);
      return adminResult(
        [
          ...hold.notes,
          `finished an interrupted rotation: ${safeText(layout.serverRequestPublicKeyFile)} now holds the current key ${current.keyId}`,
          '  run `admin rotate server-key` again only if you want yet another key',
        ],
        {
          server_key_id: current.keyId,
          server_public_key: currentHex,
          server_public_key_file: layout.serverRequestPublicKeyFile,
          finished_interrupted_rotation: true,
        },
      );
    }
    // Leftovers of a rotation that crashed before its renames (the hold makes this run the only one).
    rmSync(keyTemp, { force: true });
    rmSync(pubTemp, { force: true });
    const { privateKey, publicKey } = generateEd25519KeyPair();
    try {
      writeEd25519PrivateKeyFile(keyTemp, privateKey, 'server-request');
    } finally {
      privateKey.fill(0);
    }
    const publicHex = bytesToHex(publicKey);
    const keyId = keyIdOf(publicKey);
    writeSecretFile(pubTemp, `${publicHex}\n`);

    const oldPublicHex = currentHex;
    const retiredPub = retiredPublicKeyFile(layout, current.keyId);
    try {
      writeSecretFile(retiredPub, `${oldPublicHex}\n`);
    } catch {
      // Already kept by an earlier, interrupted run.
    }
    const retired = loadRetiredServerKeys(layout.retiredServerKeysFile).filter((k) => k.keyId !== current.keyId && k.keyId !== keyId);
    saveRetiredServerKeys(layout.retiredServerKeysFile, [
      ...retired,
      { keyId: current.keyId, publicKey: oldPublicHex, retiredAt: now, files: recorded },
    ]);
    renameSync(keyTemp, layout.serverRequestKeyFile);
    renameSync(pubTemp, layout.serverRequestPublicKeyFile);
    fsyncDirectory(layout.keysDir);

    const needed = recorded.length;
    return adminResult(
      [
        ...hold.notes,
        `new server request public key  ${publicHex}`,
        `  key id                       ${keyId}`,
        `  file                         ${safeText(layout.serverRequestPublicKeyFile)}`,
        '  copy that file to the operator machine: the signer takes it as --server-key for every request from now on',
        `retired key ${current.keyId}: ${needed === 0 ? 'no longer needed (no file it signed is still needed); not accepted any more' : `still needed by ${needed} file(s); kept for verification only, never to sign`}`,
        `  its public key (for requests signed before now): ${safeText(retiredPub)}`,
        '  `admin trust --list` shows the retired keys and whether they are still needed; restart the server to use the new key',
      ],
      {
        server_public_key: publicHex,
        server_key_id: keyId,
        server_public_key_file: layout.serverRequestPublicKeyFile,
        retired: { key_id: current.keyId, public_key_file: retiredPub, needed_by_files: needed, files: recorded.map((f) => f.file) },
      },
    );
  });
}
