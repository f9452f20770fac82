import { assertBytes } from './assert-bytes.js';
import { hkdfSha256 } from './hkdf-sha256.js';

export const MASTER_KEY_BYTES = 32;

/** HKDF salt and per-purpose info labels. Fixed forever: changing one changes every derived key. */
export const STORE_KEY_SALT = 'pfsense-mcp/store-keys/v1';
export const STORE_KEY_LABELS = Object.freeze({
  recordMac: 'pfsense-mcp/v1/record-mac',
  auditChain: 'pfsense-mcp/v1/audit-chain',
  encryption: 'pfsense-mcp/v1/encryption',
  consumption: 'pfsense-mcp/v1/consumption',
} as const);

export interface StoreKeys {
  readonly recordMac: Uint8Array;
  readonly auditChain: Uint8Array;
  readonly encryption: Uint8Array;
  readonly consumption: Uint8Array;
}

/**
 * One master key file → four independent 32-byte keys by HKDF-SHA256 with distinct info labels, so the
 * record MAC, audit chain, artifact encryption and consumption store never share a key (key separation).
 */
export function deriveStoreKeys(masterKey: Uint8Array): Readonly<StoreKeys> {
  assertBytes('deriveStoreKeys', 'masterKey', masterKey, MASTER_KEY_BYTES);
  const salt = new Uint8Array(Buffer.from(STORE_KEY_SALT, 'utf8'));
  return Object.freeze({
    recordMac: hkdfSha256(masterKey, salt, STORE_KEY_LABELS.recordMac, 32),
    auditChain: hkdfSha256(masterKey, salt, STORE_KEY_LABELS.auditChain, 32),
    encryption: hkdfSha256(masterKey, salt, STORE_KEY_LABELS.encryption, 32),
    consumption: hkdfSha256(masterKey, salt, STORE_KEY_LABELS.consumption, 32),
  });
}
