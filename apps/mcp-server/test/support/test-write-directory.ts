// A write directory laid out like `pfsense-mcp admin init` makes it (through the one layout module), made in the
// test process with the libraries: operator keys generated here (signed with the authorization library), both
// stores created with their anchors, and helpers that advance a store as a refused or consumed call would.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { generateEd25519KeyPair, generateMasterKey, keyIdOf, writeEd25519PrivateKeyFile, writeMasterKeyFile } from '@pfsense-mcp/crypto';
import { savePinnedAuthorities, writeDirectoryLayout, type OperatorRole, type WriteDirectoryLayout } from '../../src/index.js';

export interface OperatorKey {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
}

function operatorKey(): OperatorKey {
  const k = generateEd25519KeyPair();
  return Object.freeze({ privateKey: k.privateKey, publicKey: k.publicKey, keyId: keyIdOf(k.publicKey) });
}

export interface TestWriteDirectory {
  readonly root: string;
  readonly layout: WriteDirectoryLayout;
  readonly server: OperatorKey;
  readonly operator: Readonly<Record<OperatorRole, OperatorKey>>;
  /** The store's master key (tests advance or tamper with the stores directly). */
  readonly masterKey: Uint8Array;
  /** Replaces authorities.json with the given roles' keys. */
  pin(roles: readonly OperatorRole[]): void;
  cleanup(): void;
}

/**
 * A write directory as `pfsense-mcp admin init` lays it out (paths from the one layout module): 0700 dirs,
 * 0600 keys, both stores created with their anchors, operator keys pinned for `pinned` roles.
 */
export async function initTestWriteDirectory(
  options: { pinned?: readonly OperatorRole[]; externalAnchors?: boolean } = {},
): Promise<TestWriteDirectory> {
  const root = mkdtempSync(join(tmpdir(), 'mcp-write-'));
  chmodSync(root, 0o700);
  const anchorDir = options.externalAnchors === true ? join(root, 'other-medium') : null;
  const layout = writeDirectoryLayout(join(root, 'dir'), anchorDir);
  for (const d of [
    layout.dir,
    layout.storeDir,
    layout.keysDir,
    layout.localAnchorDir,
    layout.inboxDir,
    layout.outboxDir,
    layout.anchorDir,
  ]) {
    mkdirSync(d, { recursive: true, mode: 0o700 });
    chmodSync(d, 0o700);
  }
  const masterKey = generateMasterKey();
  writeMasterKeyFile(layout.masterKeyFile, new Uint8Array(masterKey));
  const server = operatorKey();
  writeEd25519PrivateKeyFile(layout.serverRequestKeyFile, server.privateKey, 'server-request');
  writeFileSync(layout.serverRequestPublicKeyFile, `${bytesToHex(server.publicKey)}\n`, { mode: 0o600, flag: 'wx' });
  const store = await SqliteRecoveryContractStore.open({
    directory: layout.storeDir,
    masterKey,
    clock: Date.now,
    anchor: { file: layout.contractsAnchorFile },
  });
  store.close();
  const consumption = await SqliteConsumptionStore.open({
    directory: layout.storeDir,
    masterKey,
    clock: Date.now,
    anchor: { file: layout.consumptionAnchorFile },
  });
  consumption.close();
  const operator = Object.freeze({ 'plan-authorization': operatorKey(), confirmation: operatorKey(), reconciliation: operatorKey() });
  const pin = (roles: readonly OperatorRole[]) =>
    savePinnedAuthorities(
      layout.authoritiesFile,
      roles.map((role) => ({ role, keyId: operator[role].keyId, publicKey: bytesToHex(operator[role].publicKey) })),
    );
  pin(options.pinned ?? ['plan-authorization', 'confirmation', 'reconciliation']);
  return Object.freeze({ root, layout, server, operator, masterKey, pin, cleanup: () => rmSync(root, { recursive: true, force: true }) });
}

/** A private dir with an owner-only key file holding `apiKey`. */
export function keyFile(dir: string, name: string, apiKey: string): string {
  const path = join(dir, name);
  writeFileSync(path, `${apiKey}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/** Appends one refusal row to the contract store's chain (its anchor advances), as any refused call would. */
export async function advanceContractStore(w: TestWriteDirectory): Promise<void> {
  const store = await SqliteRecoveryContractStore.open({
    directory: w.layout.storeDir,
    masterKey: w.masterKey,
    clock: Date.now,
    anchor: { file: w.layout.contractsAnchorFile },
  });
  store.recordRefusal({ gate: 'SIGNATURE', refusalClass: 'ANOMALY' });
  store.close();
}

/** Consumes one authorization id in the consumption store (its anchor advances). */
export async function advanceConsumptionStore(w: TestWriteDirectory): Promise<void> {
  const consumption = await SqliteConsumptionStore.open({
    directory: w.layout.storeDir,
    masterKey: w.masterKey,
    clock: Date.now,
    anchor: { file: w.layout.consumptionAnchorFile },
  });
  consumption.tryConsume(`auth-${Date.now()}`);
  consumption.close();
}
