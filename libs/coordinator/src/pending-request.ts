/**
 * The server-signed requests an operator signs (docs/DESIGN.md §6), by kind: the coordinator names the kind of
 * every pending request it returns, so no caller rebuilds it from a file name.
 */
export const PendingRequestKind = Object.freeze({
  AUTHORIZATION: 'authorization',
  CONFIRMATION: 'confirmation',
  RECONCILIATION: 'reconciliation',
  RELEASE: 'release',
  ROLLBACK: 'rollback',
} as const);
export type PendingRequestKind = (typeof PendingRequestKind)[keyof typeof PendingRequestKind];

/** A pending request in the outbox: its kind and its file name (a name only, never a path or content). */
export interface PendingRequest {
  readonly kind: PendingRequestKind;
  readonly file: string;
}

/** The frozen pending request of this kind and outbox file name. */
export function pendingRequest(kind: PendingRequestKind, file: string): PendingRequest {
  return Object.freeze({ kind, file });
}
