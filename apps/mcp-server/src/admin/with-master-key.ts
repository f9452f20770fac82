import { readMasterKeyFile } from '@pfsense-mcp/crypto';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';

/** Runs `f` with DIR's master key (`purge`, `reanchor`: the stores opened with the key itself), zeroed after, whatever happens. */
export async function withMasterKey<T>(layout: WriteDirectoryLayout, f: (masterKey: Uint8Array) => T | Promise<T>): Promise<T> {
  const masterKey = readMasterKeyFile(layout.masterKeyFile);
  try {
    return await f(masterKey);
  } finally {
    masterKey.fill(0);
  }
}
