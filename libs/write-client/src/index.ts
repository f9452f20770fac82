// Public API of write-client: the closed write endpoint table and WriteApiClient, the product's only non-GET
// path, plus the transport error types the executor needs to classify a send (so it never imports transports).
export { WriteEndpoints, isWriteEndpointSymbol } from './write-endpoints.js';
export type { WriteEndpoint, WriteEndpointSymbol, WriteEndpointTable } from './write-endpoints.js';
export { WriteApiClient, MAX_WRITE_BODY_BYTES } from './write-api-client.js';
export { MAX_WRITE_LIST_LENGTH, appliesFilter, isWriteRequestFor, maxBodyBytesFor } from './is-write-request-for.js';
export type { WriteApiClientOptions } from './write-api-client.js';
export { WriteRefusalError } from './write-refusal-error.js';
export type { WriteRefusalCode } from './write-refusal-error.js';
export {
  InvalidRequestError,
  ResponseTooLargeError,
  TransportConnectionError,
  TransportError,
  TransportTimeoutError,
} from '@pfsense-mcp/transports';
export type { HttpMethod, TransportResponse } from '@pfsense-mcp/transports';
