import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import {
  generateEd25519KeyPair,
  generateMasterKey,
  keyIdOf,
  writeEd25519PrivateKeyFile,
  writeMasterKeyFile,
  writeSecretFile,
} from '@pfsense-mcp/crypto';
import { savePinnedAuthorities } from '../runtime/write-directory/pinned-authorities-file.js';
import { WRITE_ANCHOR_DIR_VARIABLE, assertOwnerOnlyDirectory } from '../runtime/write-directory/write-directory-layout.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import { adminWriteSettings } from './admin-context.js';
import type { AdminContext } from './admin-context.js';
import type { WriteEnvironment } from '../runtime/config/write-environment.js';
import { inWriteSettingNames } from '../runtime/config/write-setting-names.js';
import { AdminError } from './admin-error.js';
import { adminResult, safeText } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { adminErrorOf, layoutOf } from './open-write-directory.js';
import { createExchangeFolder, EXCHANGE_OPTION, exchangeLayoutOf } from './init-exchange.js';
import type { ExchangeSetting } from './init-exchange.js';
import { WRITE_EXCHANGE_DIR_VARIABLE } from '../runtime/exchange/exchange-layout.js';
import type { ExchangeLayout } from '../runtime/exchange/exchange-layout.js';
import type { AdminArgs } from './parse-admin-args.js';

/** The entries of an existing directory of ours; null when absent; refused when it is anything else. */
function entriesOf(path: string): readonly string[] | null {
  let st;
  try {
    st = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AdminError('IO_ERROR', `${path}: cannot be inspected`);
  }
  if (st.isSymbolicLink()) throw new AdminError('WRITE_DIR_SYMLINK', `${path}: must not be a symbolic link`);
  if (!st.isDirectory()) throw new AdminError('WRITE_DIR_NOT_DIRECTORY', `${path}: exists and is not a directory`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new AdminError('WRITE_DIR_WRONG_OWNER', `${path}: must be owned by the current user`);
  }
  return readdirSync(path);
}

function safeEntries(path: string): readonly string[] {
  try {
    return lstatSync(path).isDirectory() ? readdirSync(path) : [];
  } catch {
    return [];
  }
}

/** mkdir 0700 (then chmod: umask cannot narrow or widen it), or adopt an existing empty directory. */
function makeOwnerOnlyDirectory(path: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AdminError('WRITE_DIR_NO_PARENT', `${path}: its parent directory does not exist`);
    if (code !== 'EEXIST') throw new AdminError('IO_ERROR', `${path}: cannot be created (${code ?? 'error'})`);
  }
  if (lstatSync(path).isSymbolicLink()) throw new AdminError('WRITE_DIR_SYMLINK', `${path}: must not be a symbolic link`);
  chmodSync(path, 0o700);
  try {
    assertOwnerOnlyDirectory(path);
  } catch (error) {
    throw adminErrorOf(error);
  }
}

/** Creates both databases through the store itself (schema, metadata, anchors), then closes them cleanly. */
async function createStores(layout: WriteDirectoryLayout, now: () => number): Promise<void> {
  const contracts = await SqliteRecoveryContractStore.open({
    directory: layout.storeDir,
    fileName: 'contracts.sqlite',
    masterKeyFile: layout.masterKeyFile,
    clock: now,
    anchor: { file: layout.contractsAnchorFile },
  });
  contracts.close();
  const consumption = await SqliteConsumptionStore.open({
    directory: layout.storeDir,
    fileName: 'consumption.sqlite',
    masterKeyFile: layout.masterKeyFile,
    clock: now,
    anchor: { file: layout.consumptionAnchorFile },
  });
  consumption.close();
}

/**
 * `admin init --dir DIR`: lays out a new write directory (docs/DESIGN.md §6). All or nothing: on any failure what
 * it created is removed again, so a second run starts from the same empty state.
 */
export async function initCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const layout = layoutOf(args, ctx);
  // With --appliance the entry's write_exchange_dir is made, as --exchange PATH is with --dir.
  const settings = adminWriteSettings(ctx);
  const exchangePath = args.values.get('--exchange') ?? settings?.exchangeDir ?? undefined;
  const appliance = settings?.appliance ?? null;
  const setting: ExchangeSetting =
    appliance === null || exchangePath === undefined
      ? EXCHANGE_OPTION
      : { name: inWriteSettingNames(WRITE_EXCHANGE_DIR_VARIABLE, settings), path: safeText(exchangePath) };
  const exchange = exchangePath === undefined ? null : exchangeLayoutOf(exchangePath, layout.dir, setting);
  const existing = entriesOf(layout.dir);
  if (existing !== null && existing.length > 0) {
    throw new AdminError('WRITE_DIR_NOT_EMPTY', `${layout.dir}: exists and is not empty (init never reuses a directory)`);
  }
  let anchorDirCreated = false;
  let undoExchange = (): void => undefined;
  if (layout.anchorDirIsExternal) {
    const anchors = entriesOf(layout.anchorDir);
    if (anchors !== null && (anchors.includes('contracts.anchor') || anchors.includes('consumption.anchor'))) {
      throw new AdminError(
        'ANCHOR_DIR_IN_USE',
        `${WRITE_ANCHOR_DIR_VARIABLE} ${layout.anchorDir}: already holds anchors of another write directory`,
      );
    }
    anchorDirCreated = anchors === null;
  }
  try {
    makeOwnerOnlyDirectory(layout.dir);
    for (const dir of [layout.storeDir, layout.keysDir, layout.localAnchorDir, layout.inboxDir, layout.outboxDir])
      makeOwnerOnlyDirectory(dir);
    if (layout.anchorDirIsExternal) makeOwnerOnlyDirectory(layout.anchorDir);
    const master = generateMasterKey();
    try {
      writeMasterKeyFile(layout.masterKeyFile, master);
    } finally {
      master.fill(0);
    }
    const { privateKey, publicKey } = generateEd25519KeyPair();
    try {
      writeEd25519PrivateKeyFile(layout.serverRequestKeyFile, privateKey, 'server-request');
    } finally {
      privateKey.fill(0);
    }
    const publicHex = bytesToHex(publicKey);
    writeSecretFile(layout.serverRequestPublicKeyFile, `${publicHex}\n`);
    savePinnedAuthorities(layout.authoritiesFile, []);
    await createStores(layout, ctx.now);
    if (exchange !== null) undoExchange = createExchangeFolder(exchange, setting);
    return report(layout, publicHex, keyIdOf(publicKey), exchange, settings);
  } catch (error) {
    undoExchange();
    // Undo only what this run created: a DIR or anchor directory that existed (empty) before stays, emptied again.
    if (existing === null) rmSync(layout.dir, { recursive: true, force: true });
    else for (const entry of safeEntries(layout.dir)) rmSync(join(layout.dir, entry), { recursive: true, force: true });
    if (layout.anchorDirIsExternal) {
      if (anchorDirCreated) rmSync(layout.anchorDir, { recursive: true, force: true });
      else for (const f of [layout.contractsAnchorFile, layout.consumptionAnchorFile]) rmSync(f, { force: true });
    }
    throw adminErrorOf(error);
  }
}

function report(
  layout: WriteDirectoryLayout,
  publicHex: string,
  keyId: string,
  exchange: ExchangeLayout | null,
  settings: WriteEnvironment | null,
): AdminResult {
  // With --appliance the inventory entry already names the directories: the commands name the appliance, the
  // settings are said as its fields (write-setting-names.ts), and the server's environment needs only the profile.
  const appliance = settings?.appliance ?? null;
  const named = (line: string): string => inWriteSettingNames(line, settings);
  const d = appliance === null ? safeText(layout.dir) : null;
  const target = d === null ? `--appliance ${appliance}` : `--dir ${d}`;
  const env: Record<string, string> = { PFSENSE_PROFILE: 'write_protected' };
  if (appliance === null) {
    env['PFSENSE_WRITE_DIR'] = layout.dir;
    if (layout.anchorDirIsExternal) env[WRITE_ANCHOR_DIR_VARIABLE] = layout.anchorDir;
    if (exchange !== null) env[WRITE_EXCHANGE_DIR_VARIABLE] = exchange.dir;
  }
  const text = [
    `created write directory ${safeText(layout.dir)}${appliance === null ? '' : ` of appliance ${appliance}`} (mode 0700, everything in it owner-only)`,
    `  store        ${safeText(layout.contractsDatabase)}`,
    `               ${safeText(layout.consumptionDatabase)}`,
    `  keys         ${safeText(layout.masterKeyFile)} (master key, 0600)`,
    `               ${safeText(layout.serverRequestKeyFile)} (server-request signing key, 0600)`,
    `  anchors      ${safeText(layout.anchorDir)}${layout.anchorDirIsExternal ? '' : named(`  (better on another medium: set ${WRITE_ANCHOR_DIR_VARIABLE} before init)`)}`,
    `  authorities  ${safeText(layout.authoritiesFile)} (no operator key pinned yet)`,
    `  inbox        ${safeText(layout.inboxDir)}`,
    `  outbox       ${safeText(layout.outboxDir)}`,
    ...(exchange === null
      ? []
      : [
          `  exchange     ${safeText(exchange.dir)} (${appliance === null ? '' : `${named(WRITE_EXCHANGE_DIR_VARIABLE)}; `}requests/ and answers/; share it with the signing machine by any means you trust)`,
        ]),
    '',
    `server request public key  ${publicHex}`,
    `  key id                   ${keyId}`,
    `  file                     ${safeText(layout.serverRequestPublicKeyFile)}`,
    '  copy that file to the operator machine; the signer takes it as --server-key',
    '',
    'next: on the signing machine, make the operator keys: pfsense-mcp-signer keygen --role operator --out KEYDIR',
    `  then pin all three here from the copied bundle: pfsense-mcp admin trust ${target} --bundle operator.pub`,
    '  or one key at a time (at least plan-authorization and confirmation):',
    `  pfsense-mcp admin trust ${target} --role plan-authorization --public-key plan-authorization-….pub`,
    `  pfsense-mcp admin trust ${target} --role confirmation --public-key confirmation-….pub`,
    `  pfsense-mcp admin trust ${target} --role reconciliation --public-key reconciliation-….pub`,
    '',
    appliance === null
      ? 'client configuration (add to the server environment beside PFSENSE_URL and PFSENSE_API_KEY_FILE):'
      : `client configuration (the inventory entry ${appliance} names the write directories; add to the server environment beside PFSENSE_INVENTORY_FILE):`,
    ...Object.entries(env).map(([k, v]) => `  ${k}=${safeText(v)}`),
  ];
  return adminResult(text, {
    dir: layout.dir,
    ...(appliance === null ? {} : { appliance }),
    server_public_key: publicHex,
    server_key_id: keyId,
    server_public_key_file: layout.serverRequestPublicKeyFile,
    anchor_dir: layout.anchorDir,
    paths: {
      contracts_database: layout.contractsDatabase,
      consumption_database: layout.consumptionDatabase,
      master_key: layout.masterKeyFile,
      server_request_key: layout.serverRequestKeyFile,
      authorities: layout.authoritiesFile,
      inbox: layout.inboxDir,
      outbox: layout.outboxDir,
      exchange: exchange?.dir ?? null,
    },
    environment: env,
  });
}
