/**
 * The built server's environment against a simulator on loopback — what every bench module that connects an MCP
 * client to the server starts with — plus the module's own variables (`extra`, applied last).
 */
export function simulatorServerEnv(
  simulatorUrl: string,
  apiKeyFile: string,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    PFSENSE_URL: simulatorUrl,
    PFSENSE_API_KEY_FILE: apiKeyFile,
    PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
    PFSENSE_LOG_LEVEL: 'warn',
    ...extra,
  };
}
