import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { createHttpTransport, TransportConfigError } from '@pfsense-mcp/transports';
import { ConfigError } from '../config/config-error.js';
import type { ServerConfig } from '../config/load-config.js';

export interface ReadClientHandle {
  readonly client: RestApiClient;
  close(): void;
}

/** Transport limits a caller may tighten (tests, bench); the defaults are the transport's. */
export interface TransportLimits {
  readonly connectTimeoutMs?: number;
  readonly responseTimeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly maxInFlight?: number;
}

/**
 * The one place the API key meets the network stack: an HTTP transport (TLS verified, no redirects, no retries,
 * bounded in flight) carrying `X-API-Key`, under the GET-only client. Constructing it sends nothing.
 */
export function buildReadClient(config: ServerConfig, apiKey: string, limits: TransportLimits = {}): ReadClientHandle {
  let transport: ReturnType<typeof createHttpTransport>;
  try {
    transport = createHttpTransport({
      baseUrl: config.url,
      authHeader: { name: 'X-API-Key', value: apiKey },
      ...(config.caFile === null ? {} : { caFile: config.caFile }),
      allowHttpLoopback: config.allowHttpLoopback,
      ...limits,
    });
  } catch (error) {
    if (error instanceof TransportConfigError) {
      const variable = error.code.startsWith('CA_FILE')
        ? 'PFSENSE_CA_FILE'
        : error.code === 'INSECURE_URL'
          ? 'PFSENSE_URL'
          : 'PFSENSE_API_KEY_FILE';
      // TransportConfigError messages are fixed texts naming the option, never its value.
      throw new ConfigError(`TRANSPORT_${error.code}`, variable, `${variable}: ${error.message.replace(/^createHttpTransport: /, '')}`);
    }
    throw error;
  }
  return Object.freeze({ client: new RestApiClient(transport), close: () => transport.close() });
}
