import { buildReadClient } from './build-read-client.js';
import { classifyToolError } from './classify-tool-error.js';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { readApiKey } from './read-api-key.js';
import { knownToolNames, selectTools } from './select-tools.js';
import { writeCliAnswer } from './write-cli-output.js';

/** The one GET --check-config makes: the pfREST package version (small, no secret, any read privilege set). */
export const CHECK_PATH = '/api/v2/system/restapi/version';

/**
 * --check-config: validates the configuration, reads the key file, makes exactly one GET and prints a short
 * report on stdout. Exit 0 when everything holds, 1 otherwise. Never prints the key or a response body.
 */
export async function runCheckConfig(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const lines: string[] = ['pfsense-mcp --check-config'];
  const done = (code: number) => {
    writeCliAnswer(lines.join('\n'));
    return code;
  };
  let handle: ReturnType<typeof buildReadClient>;
  try {
    const config = loadConfig(env, knownToolNames());
    const selection = selectTools(config.profile, config.allowedTools);
    lines.push(`  configuration   ok`);
    lines.push(`  appliance       ${config.url}`);
    lines.push(`  profile         ${config.profile} (${selection.names.size} tools would be registered)`);
    const apiKey = readApiKey(config.apiKeyFile);
    lines.push(`  api key file    ok (owner-only)`);
    handle = buildReadClient(config, apiKey);
  } catch (error) {
    lines.push(`  configuration   FAILED: ${error instanceof ConfigError ? error.message : 'internal error'}`);
    return done(1);
  }
  try {
    await handle.client.read(CHECK_PATH);
    lines.push(`  reachability    ok (GET ${CHECK_PATH})`);
    return done(0);
  } catch (error) {
    const safe = classifyToolError(error);
    const status = safe.httpStatus === null ? '' : `, HTTP ${safe.httpStatus}`;
    lines.push(`  reachability    FAILED (GET ${CHECK_PATH}): ${safe.code}${status} — ${safe.message}`);
    return done(1);
  } finally {
    handle.close();
  }
}
