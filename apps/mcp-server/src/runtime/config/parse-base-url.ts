import { isIPv4 } from 'node:net';
import { ConfigError } from './config-error.js';

/**
 * The same rule as transports' isLoopbackHost (localhost, [::1], 127.0.0.0/8), so a URL this accepts is never one
 * the transport then refuses, nor the reverse; test/config.test.ts compares the two on every case. It is a copy,
 * not an import, on purpose: importing @pfsense-mcp/transports here would evaluate the HTTP stack before the `initialize`
 * reply (the bundle defers it until after), costing cold start.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  return isIPv4(host) && host.startsWith('127.');
}

/** How the rules name the setting being checked and the two settings a fix points at. */
export interface BaseUrlNames {
  /** The setting holding the URL, as messages name it (`PFSENSE_URL`, `appliance 2 (fw-b): url`). */
  readonly variable: string;
  /** Where the key goes instead of the URL's credentials (`PFSENSE_API_KEY_FILE`, `api_key_file`). */
  readonly keySetting: string;
  /** What allows plain http to loopback (`PFSENSE_ALLOW_HTTP_LOOPBACK=true`, `"allow_http_loopback": true`). */
  readonly loopbackSetting: string;
}

/**
 * The appliance origin, normalized (URL.origin: scheme and host lower-cased, a default port dropped). https always;
 * plain http only to a loopback host when allowed. A ConfigError names the setting and the rule, never the value.
 */
export function parseBaseUrl(raw: string, allowHttpLoopback: boolean, names: BaseUrlNames): string {
  const { variable } = names;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('INVALID_URL', variable, `${variable} is not a URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError('URL_CREDENTIALS', variable, `${variable} must not contain credentials; use ${names.keySetting}`);
  }
  if (url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError('URL_NOT_ORIGIN', variable, `${variable} must be the appliance origin only (scheme, host, optional port)`);
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHostname(url.hostname)) {
      throw new ConfigError('HTTP_NOT_LOOPBACK', variable, `${variable} must use https (plain http is allowed only to a loopback address)`);
    }
    if (!allowHttpLoopback) {
      throw new ConfigError(
        'HTTP_NOT_ALLOWED',
        variable,
        `${variable} uses plain http; set ${names.loopbackSetting} to allow it for a loopback address`,
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new ConfigError('URL_SCHEME', variable, `${variable} must use https`);
  }
  return url.origin;
}
