import { deriveStoreKeys, hkdfSha256, readMasterKeyFile } from '@pfsense-mcp/crypto';

/** The separately derived keys of one store (docs/DESIGN.md §3: HMAC and encryption keys derived apart). */
export interface StoreKeys {
  readonly recordMac: Uint8Array;
  readonly auditChain: Uint8Array;
  readonly encryption: Uint8Array;
  readonly consumption: Uint8Array;
  /** MAC key of the file anchor: its own HKDF label, so an anchor MAC can never pass as a row MAC. */
  readonly anchor: Uint8Array;
}

export interface MasterKeySource {
  /** Path of the master key file (read through crypto.readMasterKeyFile: owner, mode, no symlink). */
  readonly masterKeyFile?: string;
  /** The master key itself (tests, or a composition root that already loaded it). */
  readonly masterKey?: Uint8Array;
}

export function loadStoreKeys(source: MasterKeySource, fn: string): StoreKeys {
  const hasFile = typeof source.masterKeyFile === 'string';
  const hasKey = source.masterKey instanceof Uint8Array;
  if (hasFile === hasKey) throw new TypeError(`${fn}: exactly one of "masterKeyFile" or "masterKey" must be given`);
  const master = hasKey ? new Uint8Array(source.masterKey as Uint8Array) : readMasterKeyFile(source.masterKeyFile as string);
  try {
    const derived = deriveStoreKeys(master);
    const anchor = hkdfSha256(master, new Uint8Array(0), 'pfsense-mcp/contract-store/anchor-file/v1', 32);
    return Object.freeze({
      recordMac: derived.recordMac,
      auditChain: derived.auditChain,
      encryption: derived.encryption,
      consumption: derived.consumption,
      anchor,
    });
  } finally {
    // Best effort: the master key is not kept once the purpose keys exist.
    master.fill(0);
  }
}
