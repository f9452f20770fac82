import { assertObject } from '@pfsense-mcp/foundation';
/**
 * The outbox file name of a pending authorization request carries everything a scan needs to decide,
 * without opening the file, whether it can concern an operation and whether it still counts toward the
 * request limits: a key of the alias, the operation id, a prefix of the plan digest and the expiry.
 * `authorization-request.<alias16>.<operation id>.<plan16>.<expires_at>.json`. The name is the server's
 * own; a file that a name selects is read and verified in full before it is used or counted.
 */
export interface AuthorizationRequestName {
  /** 16 hex: the first 16 of the alias's identity digest (never the name itself). */
  readonly aliasKey: string;
  readonly operationId: string;
  /** 16 hex: the first 16 of the plan digest. */
  readonly planPrefix: string;
  /** UTC milliseconds. */
  readonly expiresAt: number;
}

const NAME = /^authorization-request\.([0-9a-f]{16})\.(op-[0-9a-f]{64})\.([0-9a-f]{16})\.([0-9]{1,16})\.json$/;
const HEX16 = /^[0-9a-f]{16}$/;

export function authorizationRequestName(parts: AuthorizationRequestName): string {
  assertObject(parts, 'authorizationRequestName: "parts"');
  const { aliasKey, operationId, planPrefix, expiresAt } = parts;
  if (typeof aliasKey !== 'string' || !HEX16.test(aliasKey))
    throw new TypeError('authorizationRequestName: "aliasKey" must be 16 lowercase hex');
  if (typeof operationId !== 'string' || !/^op-[0-9a-f]{64}$/.test(operationId))
    throw new TypeError('authorizationRequestName: "operationId" must be op- and 64 hex');
  if (typeof planPrefix !== 'string' || !HEX16.test(planPrefix))
    throw new TypeError('authorizationRequestName: "planPrefix" must be 16 lowercase hex');
  if (!Number.isSafeInteger(expiresAt) || expiresAt < 0)
    throw new TypeError('authorizationRequestName: "expiresAt" must be non-negative integer milliseconds');
  return `authorization-request.${aliasKey}.${operationId}.${planPrefix}.${expiresAt}.json`;
}

/** The parts of a name this server writes, or null for any other name (never opened by the scan). */
export function parseAuthorizationRequestName(fileName: string): AuthorizationRequestName | null {
  const m = NAME.exec(fileName);
  if (m === null) return null;
  const expiresAt = Number(m[4]);
  if (!Number.isSafeInteger(expiresAt)) return null;
  return Object.freeze({ aliasKey: m[1] as string, operationId: m[2] as string, planPrefix: m[3] as string, expiresAt });
}
