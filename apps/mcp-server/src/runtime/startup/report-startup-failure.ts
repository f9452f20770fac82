import { ConfigError } from '../config/config-error.js';
import { createLogger } from './create-logger.js';
import { writeCliOutput } from './write-cli-output.js';

/**
 * Fails closed: one human line and one JSON log line on stderr, both built from the ConfigError's fixed
 * message and code. Any other error shows only its class-level code — never its message.
 */
export function reportStartupFailure(error: unknown): number {
  const code = error instanceof ConfigError ? error.code : 'STARTUP_FAILED';
  const text = error instanceof ConfigError ? error.message : 'the server could not start (internal error)';
  writeCliOutput(`pfsense-mcp: configuration error: ${text}`);
  createLogger('error').log('error', 'startup_failed', { code });
  return 1;
}
