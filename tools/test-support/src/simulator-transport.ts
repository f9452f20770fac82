// The loopback HTTP transport the suites use to reach their simulator: short connect timeout, no keep-alive
// (each test's calls stand alone), caps the tests can lower to provoke the transport's own refusals.
import { createHttpTransport } from '@pfsense-mcp/transports';
import type { HttpTransport } from '@pfsense-mcp/transports';

export interface SimulatorTransportOptions {
  /** Default 5000. */
  readonly responseTimeoutMs?: number;
  /** Default 1 MiB. */
  readonly maxResponseBytes?: number;
  /** Another key than the simulator's own (a read-only key, a wrong one). */
  readonly apiKey?: string;
  /** Another address than the simulator's (a refused port). */
  readonly baseUrl?: string;
}

export function simulatorTransport(
  sim: { readonly url: string; readonly apiKey: string },
  options: SimulatorTransportOptions = {},
): HttpTransport {
  if (sim === null || typeof sim !== 'object' || typeof sim.url !== 'string' || typeof sim.apiKey !== 'string') {
    throw new TypeError('sim must be { url, apiKey }');
  }
  return createHttpTransport({
    baseUrl: options.baseUrl ?? sim.url,
    allowHttpLoopback: true,
    authHeader: { name: 'X-API-Key', value: options.apiKey ?? sim.apiKey },
    connectTimeoutMs: 2000,
    responseTimeoutMs: options.responseTimeoutMs ?? 5000,
    maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
    keepAlive: false,
  });
}
