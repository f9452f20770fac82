import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex, hexToBytes } from '@pfsense-mcp/canonical';
import {
  KeyFileError,
  PinnedAuthoritySet,
  generateEd25519KeyPair,
  isValidEd25519PublicKey,
  keyIdOf,
  readEd25519PrivateKeyFile,
  readSecretFile,
  writeEd25519PrivateKeyFile,
  writeSecretFile,
} from '@pfsense-mcp/crypto';
import type { AuthorityRole, PinnedAuthority } from '@pfsense-mcp/crypto';
import { LabConfigError } from './lab-config.js';
import type { LabConfig } from './lab-config.js';

/** The runner's own request key, kept with the lab config: it signs the pending gate requests. */
export interface RunnerRequestKey {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
  readonly publicHex: string;
}

export const REQUEST_KEY_FILE = 'lab-request.key';
export const REQUEST_PUB_FILE = 'lab-request.pub';
/** The owner's lab-gate public key (copied from the signer's keygen): the only key a gate receipt may be signed by. */
export const GATE_PUB_FILE = 'lab-gate.pub';
/** Optional: the owner's reconciliation public key, pinned so a receipt signed by it is WRONG_ROLE, not unknown. */
export const RECONCILIATION_PUB_FILE = 'reconciliation.pub';

function fileError(name: string, e: unknown): never {
  if (e instanceof KeyFileError)
    throw new LabConfigError('LAB_DIRECTORY', `${name} next to the lab config: ${e.code} (owner-only regular file, mode 0600 or 0400)`);
  throw e;
}

/** Loads the runner's request key from the lab directory, creating it (0600, exclusive) on first use. */
export function loadOrCreateRequestKey(config: LabConfig): RunnerRequestKey {
  const keyFile = join(config.labDir, REQUEST_KEY_FILE);
  if (!existsSync(keyFile)) {
    const k = generateEd25519KeyPair();
    try {
      writeEd25519PrivateKeyFile(keyFile, k.privateKey, 'server-request');
      writeSecretFile(join(config.labDir, REQUEST_PUB_FILE), `${bytesToHex(k.publicKey)}\n`);
    } catch (e) {
      fileError(REQUEST_KEY_FILE, e);
    } finally {
      k.privateKey.fill(0);
    }
  }
  let key;
  try {
    key = readEd25519PrivateKeyFile(keyFile);
  } catch (e) {
    fileError(REQUEST_KEY_FILE, e);
  }
  return Object.freeze({ ...key, publicHex: bytesToHex(key.publicKey) });
}

function readPublicKey(name: string, path: string): Uint8Array {
  let text: string;
  try {
    text = readSecretFile(path, { maxBytes: 256 }).toString('latin1');
  } catch (e) {
    fileError(name, e);
  }
  const m = /^([0-9a-f]{64})\n?$/.exec(text);
  const key = m?.[1] === undefined ? null : hexToBytes(m[1]);
  if (key === null || !isValidEd25519PublicKey(key))
    throw new LabConfigError('LAB_DIRECTORY', `${name} must hold one Ed25519 public key (64 hex)`);
  return key;
}

/**
 * The pinned keys a gate receipt is verified against: the owner's lab-gate key (required), and, so that a
 * key of another role is refused as WRONG_ROLE, the runner's own request key and the owner's reconciliation
 * key when present.
 */
export function gateAuthorities(config: LabConfig, runner: RunnerRequestKey): PinnedAuthoritySet {
  const gatePath = join(config.labDir, GATE_PUB_FILE);
  if (!existsSync(gatePath))
    throw new LabConfigError('LAB_DIRECTORY', `${GATE_PUB_FILE} is missing next to the lab config (the owner's lab-gate public key)`);
  const pins: PinnedAuthority[] = [];
  const pin = (publicKey: Uint8Array, role: AuthorityRole) => {
    const keyId = keyIdOf(publicKey);
    if (!pins.some((p) => p.keyId === keyId)) pins.push({ keyId, publicKey, role, active: true });
  };
  pin(readPublicKey(GATE_PUB_FILE, gatePath), 'lab-gate');
  pin(runner.publicKey, 'server-request');
  const owner = ownerReconciliationKey(config);
  if (owner !== null) pin(owner, 'reconciliation');
  const reconPath = join(config.labDir, RECONCILIATION_PUB_FILE);
  if (existsSync(reconPath)) pin(readPublicKey(RECONCILIATION_PUB_FILE, reconPath), 'reconciliation');
  return PinnedAuthoritySet.of(pins);
}

/**
 * The owner's reconciliation public key named by the lab config's `reconciliation_public_key_file`, or null
 * when the field is absent. Against an appliance it is the only reconciliation authority of a run.
 */
export function ownerReconciliationKey(config: LabConfig): Uint8Array | null {
  if (config.reconciliationPublicKeyFile === null) return null;
  return readPublicKey('reconciliation_public_key_file', config.reconciliationPublicKeyFile);
}

/**
 * What the owner's answer to a paused run is verified against: the owner's reconciliation key, and every other
 * key the run knows in its own role (the lab-gate key, the runner's request key, the run keys' public halves),
 * so that an answer signed by one of them is refused as WRONG_ROLE rather than as an unknown key.
 */
export function evidencePins(
  config: LabConfig,
  ownerReconciliation: Uint8Array,
  earlier: readonly { role: AuthorityRole; publicKey: Uint8Array }[],
): PinnedAuthoritySet {
  const pins: PinnedAuthority[] = [];
  const pin = (publicKey: Uint8Array, role: AuthorityRole) => {
    const keyId = keyIdOf(publicKey);
    if (!pins.some((p) => p.keyId === keyId)) pins.push({ keyId, publicKey, role, active: true });
  };
  pin(ownerReconciliation, 'reconciliation');
  const gatePath = join(config.labDir, GATE_PUB_FILE);
  if (existsSync(gatePath)) pin(readPublicKey(GATE_PUB_FILE, gatePath), 'lab-gate');
  const requestPub = join(config.labDir, REQUEST_PUB_FILE);
  if (existsSync(requestPub)) pin(readPublicKey(REQUEST_PUB_FILE, requestPub), 'server-request');
  for (const e of earlier) pin(e.publicKey, e.role);
  return PinnedAuthoritySet.of(pins);
}
