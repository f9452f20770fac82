import { readEd25519PrivateKeyFile, readSecretFile } from '@pfsense-mcp/crypto';
import { outboxReader } from '../runtime/write-runtime/load-server-request-authorities.js';
import { loadRetiredServerKeys } from '../runtime/write-directory/retired-server-keys-file.js';
import { retiredKeyNeeds } from '../runtime/write-runtime/server-request-authorities.js';
import { allContracts } from './admin-facts.js';
import { withContractStore } from './open-admin-stores.js';
import { OPERATOR_ROLES, loadPinnedAuthorities, savePinnedAuthorities } from '../runtime/write-directory/pinned-authorities-file.js';
import type { OperatorRole, PinnedOperatorKey } from '../runtime/write-directory/pinned-authorities-file.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';
import { assertPublicKeyFromElsewhere } from './public-key-placement.js';
import { pinBundle } from './trust-bundle.js';
import { isPublicKeyHex, readPublicKeyArgument } from './read-public-key-argument.js';

const KEY_ID = /^[0-9a-f]{64}$/;

function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** The server's own request public key (hex), read from the file init wrote. */
function serverPublicKey(layout: WriteDirectoryLayout): string {
  return readSecretFile(layout.serverRequestPublicKeyFile, { maxBytes: 256 }).toString('latin1').trim();
}

function listing(entries: readonly PinnedOperatorKey[], server: ServerRequestKeys): AdminResult {
  const text = [
    ...(entries.length === 0
      ? ['no operator key pinned (pfsense-mcp admin trust --dir DIR --role ROLE --public-key KEY)']
      : ['role                 key id', ...entries.map((e) => `${e.role.padEnd(20)} ${e.keyId}`)]),
    '',
    "server-request keys (the server's own; never pinned in an operator role)",
    `  current              ${server.currentKeyId}`,
    ...server.retired.map(
      (r) =>
        `  retired              ${r.keyId}  since ${new Date(r.retiredAt).toISOString()}  ${r.neededBy > 0 ? `still needed by ${r.neededBy} file(s)` : 'no longer needed'}`,
    ),
  ];
  return adminResult(text, {
    authorities: entries.map((e) => ({ role: e.role, key_id: e.keyId })),
    server_request_keys: [
      { key_id: server.currentKeyId, state: 'current', retired_at: null, needed_by_files: null },
      ...server.retired.map((r) => ({
        key_id: r.keyId,
        state: 'retired',
        retired_at: r.retiredAt,
        needed_by_files: r.neededBy,
        still_needed: r.neededBy > 0,
      })),
    ],
  });
}

interface ServerRequestKeys {
  readonly currentKeyId: string;
  readonly retired: readonly { readonly keyId: string; readonly retiredAt: number; readonly neededBy: number }[];
}

/** The current server-request key and each retired one with how many recorded files still need it (now). */
async function serverRequestKeys(layout: WriteDirectoryLayout, ctx: AdminContext): Promise<ServerRequestKeys> {
  const current = readEd25519PrivateKeyFile(layout.serverRequestKeyFile);
  current.privateKey.fill(0);
  const retired = loadRetiredServerKeys(layout.retiredServerKeysFile);
  if (retired.length === 0) return { currentKeyId: current.keyId, retired: [] };
  const needs = await withContractStore(layout, ctx, (store) => {
    const contracts = new Map(allContracts(store).map((c) => [c.contract_id, c]));
    return retiredKeyNeeds(retired, current.keyId, {
      readOutbox: outboxReader(layout),
      contractOf: (id) => contracts.get(id),
      now: ctx.now(),
    });
  });
  return {
    currentKeyId: current.keyId,
    retired: needs.map((n) => ({ keyId: n.key.keyId, retiredAt: n.key.retiredAt, neededBy: n.neededBy.length })),
  };
}

/** `admin trust --dir DIR --role ROLE --public-key KEY` pins one operator key; `--list` shows them. */
export async function trustCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const role = args.values.get('--role');
  const key = args.values.get('--public-key');
  const bundle = args.values.get('--bundle');
  if (bundle !== undefined) {
    if (role !== undefined || key !== undefined || args.flags.has('--list'))
      throw AdminError.usage('--bundle: takes no --role, --public-key or --list (it pins the three roles it names)');
    const layout = openWriteDirectory(args, ctx);
    const server = serverPublicKey(layout);
    const retired = loadRetiredServerKeys(layout.retiredServerKeysFile);
    const entries = pinBundle(layout, bundle, (hex) => hex === server || retired.some((r) => r.publicKey === hex));
    const list = listing(entries, await serverRequestKeys(layout, ctx));
    return adminResult([`pinned the operator keys of ${bundle}`, `  in ${layout.authoritiesFile}`, ...list.text], list.json);
  }
  if (args.flags.has('--list')) {
    if (role !== undefined || key !== undefined) throw AdminError.usage('--list: takes no --role or --public-key');
    const layout = openWriteDirectory(args, ctx);
    return listing(loadPinnedAuthorities(layout.authoritiesFile), await serverRequestKeys(layout, ctx));
  }
  if (role === undefined) throw AdminError.usage(`--role: required (${OPERATOR_ROLES.join(' | ')})`);
  if (role === 'server-request') {
    throw new AdminError('SERVER_REQUEST_ROLE', "--role: server-request is the server's own key (made by init) and is never pinned");
  }
  if (!isOperatorRole(role)) throw AdminError.usage(`--role: must be ${OPERATOR_ROLES.join(', ')}`);
  if (key === undefined) throw AdminError.usage("--public-key: required (64 hex or the signer's .pub file)");
  const layout = openWriteDirectory(args, ctx);
  const pinned = readPublicKeyArgument(key, '--public-key');
  const retired = loadRetiredServerKeys(layout.retiredServerKeysFile);
  if (pinned.publicKey === serverPublicKey(layout) || retired.some((r) => r.publicKey === pinned.publicKey)) {
    throw new AdminError(
      'SERVER_REQUEST_KEY',
      "--public-key: is the server's own server-request key; a server-request key is refused in every operator role",
    );
  }
  if (!isPublicKeyHex(key)) assertPublicKeyFromElsewhere(key, layout, '--public-key');
  const entries = loadPinnedAuthorities(layout.authoritiesFile);
  const same = entries.find((e) => e.keyId === pinned.keyId);
  if (same !== undefined) {
    throw same.role === role
      ? new AdminError('DUPLICATE_KEY', `--public-key: already pinned for ${role}`)
      : new AdminError('KEY_IN_OTHER_ROLE', '--public-key: already pinned in another role (one key, one role)');
  }
  savePinnedAuthorities(layout.authoritiesFile, [...entries, { role, keyId: pinned.keyId, publicKey: pinned.publicKey }]);
  return adminResult([`pinned ${role} key ${pinned.keyId}`, `  in ${layout.authoritiesFile}`], { role, key_id: pinned.keyId });
}

/** `admin untrust --dir DIR --key-id ID` removes one pinned key. */
export function untrustCommand(args: AdminArgs, ctx: AdminContext): AdminResult {
  const keyId = args.values.get('--key-id');
  if (keyId === undefined) throw AdminError.usage('--key-id: required (64 hex, as `admin trust --list` shows)');
  if (!KEY_ID.test(keyId)) throw AdminError.usage('--key-id: must be 64 lowercase hex');
  const layout = openWriteDirectory(args, ctx);
  const entries = loadPinnedAuthorities(layout.authoritiesFile);
  const gone = entries.find((e) => e.keyId === keyId);
  if (gone === undefined) throw new AdminError('NOT_PINNED', '--key-id: no pinned key has this id');
  savePinnedAuthorities(
    layout.authoritiesFile,
    entries.filter((e) => e.keyId !== keyId),
  );
  return adminResult([`removed ${gone.role} key ${keyId}`], { role: gone.role, key_id: keyId });
}
