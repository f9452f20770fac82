import type { AuditEventBody } from './audit-chain.js';
import { stateFreeAuditBody } from './state-free-audit-body.js';

/**
 * The value-free audit row of an accepted restore (docs/DESIGN.md §3): `admin reanchor --accept-restore` re-pointed
 * the anchor at a restored database. It concerns no contract (contract_id ''), changes no state, and is the chain's
 * own record that the history before it was accepted from a backup at `at`.
 */
export const RESTORE_ACCEPTED_KIND = 'restore-accepted';

export function restoreAcceptedAuditBody(at: number): AuditEventBody {
  return Object.freeze(
    stateFreeAuditBody({
      at,
      kind: RESTORE_ACCEPTED_KIND,
      contract_id: '',
      operation_id: null,
      event: 'ACCEPT_RESTORE',
      outcome_class: 'RESTORE_ACCEPTED',
      evidence_digest: null,
    }),
  );
}
