// Public API of transports: the Transport port, the HTTP transport (node:http / node:https), the
// fault proxy, and the typed errors that say whether a request was written.
export type { HttpMethod } from '@pfsense-mcp/foundation';
export { HTTP_METHODS, isHttpMethod } from '@pfsense-mcp/foundation';
export type { Transport, TransportRequestOptions, TransportResponse } from './transport.js';
export {
  InvalidRequestError,
  ResponseTooLargeError,
  TransportConfigError,
  TransportConnectionError,
  TransportError,
  TransportTimeoutError,
} from './transport-error.js';
export type { TransportConnectionCode, TransportTimeoutCode } from './transport-error.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_FREE_SOCKET_TIMEOUT_MS,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_QUEUED,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_QUEUE_TIMEOUT_MS,
  DEFAULT_RESPONSE_TIMEOUT_MS,
} from './transport-defaults.js';
export { createHttpTransport, isLoopbackHost } from './create-http-transport.js';
export type { HttpTransport, HttpTransportOptions } from './create-http-transport.js';
export { validateRequest } from './validate-request.js';
export type { ValidatedRequest } from './validate-request.js';
export { InFlightLimiter } from './in-flight-limiter.js';
export type { InFlightLimiterOptions } from './in-flight-limiter.js';
export { FAULT_DELIVERY, FaultKind, FaultProxyTransport } from './fault-proxy-transport.js';
export type { FaultDelivery, FaultRule } from './fault-proxy-transport.js';
