import { frame } from '@pfsense-mcp/canonical';
import { constantTimeEqual, hmacSha256 } from '@pfsense-mcp/crypto';

/**
 * Domain-separated MAC of a row: HMAC(key, frame([domain, ...parts])). Each row kind has its own domain
 * string and every MAC binds the store id, so no MAC can be moved between kinds, rows or stores.
 */
export function rowMac(key: Uint8Array, domain: string, parts: readonly (string | Uint8Array)[]): Uint8Array {
  return hmacSha256(key, frame([domain, ...parts]));
}

export function macMatches(expected: Uint8Array, actual: unknown): boolean {
  return actual instanceof Uint8Array && actual.length === expected.length && constantTimeEqual(expected, actual);
}

export const MacDomain = Object.freeze({
  META: 'pfsense-mcp/contract-store/meta/v1',
  CONTRACT: 'pfsense-mcp/contract-store/contract/v1',
  RESERVATION: 'pfsense-mcp/contract-store/reservation/v1',
  // v2: the row also binds the audit head sequence it was written at (a written-back older row is stale).
  RATE_WINDOW: 'pfsense-mcp/contract-store/rate-window/v2',
  // v1: only to authenticate the rate row of a store at schema version 1 before `migrate` rebinds it.
  RATE_WINDOW_V1: 'pfsense-mcp/contract-store/rate-window/v1',
  AUDIT: 'pfsense-mcp/contract-store/audit/v1',
  AUDIT_GENESIS: 'pfsense-mcp/contract-store/audit-genesis/v1',
  ANCHOR: 'pfsense-mcp/contract-store/anchor/v1',
  // v2: the mark also binds the accepted-restore time (a lowered or removed acceptance fails the MAC).
  ANCHOR_V2: 'pfsense-mcp/contract-store/anchor/v2',
  // v3: the mark also binds the master-key epoch it was written under (from epoch 2 on).
  ANCHOR_V3: 'pfsense-mcp/contract-store/anchor/v3',
  CONSUMPTION_META: 'pfsense-mcp/consumption-store/meta/v1',
  CONSUMPTION_ROW: 'pfsense-mcp/consumption-store/chained-row/v1',
  CONSUMPTION_GENESIS: 'pfsense-mcp/consumption-store/genesis/v1',
} as const);
