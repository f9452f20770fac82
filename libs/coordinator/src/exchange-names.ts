// Which exchange-folder name (libs/authorization exchange-file-names.ts) a pending request of the outbox gets, and
// which inbox name answers it (docs/DESIGN.md §6): derived here, beside the outbox and inbox names they come from.
import { createHash } from 'node:crypto';
import { exchangeRequestFileName } from '@pfsense-mcp/authorization';
import { parseAuthorizationRequestName } from './authorization-request-name.js';
import { PendingRequestKind } from './pending-request.js';
import type { PendingRequest } from './pending-request.js';

const PREFIX: Readonly<Partial<Record<PendingRequestKind, 'auth' | 'conf' | 'roll'>>> = Object.freeze({
  [PendingRequestKind.AUTHORIZATION]: 'auth',
  [PendingRequestKind.CONFIRMATION]: 'conf',
  [PendingRequestKind.ROLLBACK]: 'roll',
});

const CONFIRMATION_OUTBOX = /^confirmation-request\.([a-z0-9][a-z0-9_-]{0,127})\.json$/;
const ROLLBACK_OUTBOX = /^rollback-request\.([a-z0-9][a-z0-9_-]{0,127})\.v([0-9]{1,15})\.json$/;

/**
 * The exchange name of a pending request an operator answers with `approve` (authorization, confirmation and
 * rollback: reconciliation and release keep `sign` with its explicit outcome), or null for any other kind. Stable:
 * the same outbox file always has the same exchange name, so a second call never writes a second copy.
 */
export function exchangeRequestName(pending: PendingRequest): string | null {
  const prefix = PREFIX[pending.kind];
  if (prefix === undefined) return null;
  return exchangeRequestFileName(prefix, createHash('sha256').update(pending.file, 'utf8').digest('hex').slice(0, 8));
}

/**
 * The canonical inbox name (inbox-artifact-name.ts) of the answer a pending authorization, confirmation or
 * rollback request waits for, or null for any other request: what a call that waits looks for.
 */
export function awaitedInboxName(pending: PendingRequest): string | null {
  if (pending.kind === PendingRequestKind.AUTHORIZATION) {
    const parts = parseAuthorizationRequestName(pending.file);
    return parts === null ? null : `plan-authorization.${parts.planPrefix}.json`;
  }
  if (pending.kind === PendingRequestKind.CONFIRMATION) {
    const m = CONFIRMATION_OUTBOX.exec(pending.file);
    return m === null ? null : `confirmation.${m[1] as string}.json`;
  }
  if (pending.kind === PendingRequestKind.ROLLBACK) {
    const m = ROLLBACK_OUTBOX.exec(pending.file);
    return m === null ? null : `rollback-authorization.${m[1] as string}.${m[2] as string}.json`;
  }
  return null;
}

/**
 * The exchange name of an outbox file that is a request `approve` answers and that may still be answered now:
 * an authorization request unexpired by name, a confirmation or a rollback request; null for any other file (never opened).
 */
export function exchangeNameOfOutboxFile(file: string, now: number): string | null {
  const auth = parseAuthorizationRequestName(file);
  if (auth !== null) return auth.expiresAt > now ? exchangeRequestName({ kind: PendingRequestKind.AUTHORIZATION, file }) : null;
  if (ROLLBACK_OUTBOX.test(file)) return exchangeRequestName({ kind: PendingRequestKind.ROLLBACK, file });
  return CONFIRMATION_OUTBOX.test(file) ? exchangeRequestName({ kind: PendingRequestKind.CONFIRMATION, file }) : null;
}
