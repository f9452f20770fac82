import {
  AnchorError,
  AuditChainError,
  RecordIntegrityError,
  StoreConsistencyError,
  StoreRollbackError,
} from '../store/contract-store-error.js';
import type { StoreTable } from '../store/contract-store-error.js';

/**
 * The first thing that does not verify: where (a table, or `anchor` for the anti-rollback anchor), the
 * contract it concerns and the audit sequence when known, and the kind (the error's stable code, e.g.
 * ROW_MISSING, ROW_STALE, RECORD_MAC, AUDIT_CHAIN_BROKEN, BEHIND). Never a value.
 */
export interface StoreIntegrityFailure {
  readonly table: StoreTable | 'anchor';
  readonly contractId: string | null;
  readonly sequence: number | null;
  readonly kind: string;
}

/** The result of a whole-store integrity check. */
export type StoreIntegrityReport =
  | { readonly ok: true; readonly contracts: number; readonly auditEvents: number }
  | { readonly ok: false; readonly failure: StoreIntegrityFailure };

/** The failure an integrity error describes, or null for any other error (which the caller rethrows). */
export function integrityFailureOf(error: unknown): StoreIntegrityFailure | null {
  const f = (
    table: StoreIntegrityFailure['table'],
    contractId: string | null,
    sequence: number | null,
    kind: string,
  ): StoreIntegrityFailure => Object.freeze({ table, contractId, sequence, kind });
  if (error instanceof StoreConsistencyError) return f(error.table, error.contractId, null, error.kind);
  if (error instanceof RecordIntegrityError) return f(error.table, error.contractId, null, error.code);
  if (error instanceof AuditChainError) return f('audit_events', null, error.firstBrokenSequence, error.code);
  if (error instanceof StoreRollbackError) return f('anchor', null, error.storeSequence, error.code);
  if (error instanceof AnchorError) return f('anchor', null, null, error.code);
  return null;
}
