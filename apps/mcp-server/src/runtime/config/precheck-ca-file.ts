import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ConfigError } from './config-error.js';

const VARIABLE = 'PFSENSE_CA_FILE';
const MAX_CA_BYTES = 1024 * 1024;

/**
 * Checks before serving that PFSENSE_CA_FILE (or an inventory entry's ca_file, named by `variable`) is a readable regular PEM file, so a wrong path fails startup
 * instead of the first tool call. (The transport reads and uses the file itself.)
 */
export function precheckCaFile(path: string, variable: string = VARIABLE): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw new ConfigError('CA_FILE_UNREADABLE', variable, `${variable} cannot be read`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_CA_BYTES)
      throw new ConfigError('CA_FILE_UNREADABLE', variable, `${variable} must be a regular file of at most 1 MiB`);
    const buffer = Buffer.alloc(stat.size);
    readSync(fd, buffer, 0, stat.size, 0);
    if (!buffer.toString('latin1').includes('-----BEGIN CERTIFICATE-----')) {
      throw new ConfigError('CA_FILE_INVALID', variable, `${variable} holds no PEM certificate`);
    }
  } finally {
    closeSync(fd);
  }
}
