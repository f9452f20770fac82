export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
/** The response-size cap (docs/DESIGN.md §10: default 8 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Requests in flight to the appliance (docs/DESIGN.md §10: default 4, queued beyond). */
export const DEFAULT_MAX_IN_FLIGHT = 4;
/** Calls waiting for an in-flight slot at once; one more is refused at once with `BUSY`. */
export const DEFAULT_MAX_QUEUED = 64;
/**
 * Longest wait for an in-flight slot. Shorter than the response timeout, so a few hung calls make the
 * others fail fast with `QUEUE_TIMEOUT` (the appliance is slow) instead of stalling each one for as long.
 */
export const DEFAULT_QUEUE_TIMEOUT_MS = 10_000;
/**
 * How long an idle pooled connection is kept. Below common server keep-alive timeouts (Node's 5 s,
 * nginx's 75 s; a shorter `Keep-Alive: timeout=N` hint from the server wins, less 1 s), so a request
 * is not sent on a connection the server is about to drop.
 */
export const DEFAULT_FREE_SOCKET_TIMEOUT_MS = 4_000;
