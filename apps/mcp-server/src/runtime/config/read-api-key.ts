import { readApiKeyFile } from '@pfsense-mcp/crypto';
import { ConfigError } from './config-error.js';
import { ownerOnlyFileRule } from './owner-only-file-rule.js';

const VARIABLE = 'PFSENSE_API_KEY_FILE';

/**
 * Reads the pfREST API key through crypto's key-file rules (regular file, no symlink, owned by us, mode 0600
 * or 0400). The key itself never appears in an error: only the rule that was broken, for `variable` (an inventory
 * entry's `api_key_file` is named by its appliance).
 */
export function readApiKey(path: string, variable: string = VARIABLE): string {
  try {
    return readApiKeyFile(path);
  } catch (error) {
    const { code, reason } = ownerOnlyFileRule(error);
    throw new ConfigError(
      `API_KEY_FILE_${code}`,
      variable,
      `${variable} ${code === 'TOO_LARGE' ? 'is too large to be an API key file' : reason}`,
    );
  }
}
