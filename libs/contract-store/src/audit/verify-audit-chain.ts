import { assertOpen } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
import { walkAuditChain } from './walk-audit-chain.js';

/** Verification result of the audit chain: ok, or the first sequence whose row does not verify. */
export type AuditVerification = { readonly ok: true } | { readonly ok: false; readonly firstBrokenSequence: number };

/** The whole audit chain from genesis, in one read transaction. */
export function verifyAuditChain(s: StoreState): AuditVerification {
  assertOpen(s);
  const r = s.db.transaction(() => walkAuditChain(s, 0, s.genesisMac))();
  return r.ok ? Object.freeze({ ok: true as const }) : Object.freeze({ ok: false as const, firstBrokenSequence: r.firstBrokenSequence });
}
