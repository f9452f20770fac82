import { bytesToHex } from '@pfsense-mcp/canonical';
import type { AnchorRecord } from './anti-rollback-anchor.js';
import { appendAudit } from '../audit/append-audit.js';
import { verifyAuditRows } from '../audit/audit-chain.js';
import { AuditChainError, KeyEpochMismatchError, StoreRollbackError } from '../store/contract-store-error.js';
import { inTransaction } from '../store/in-transaction.js';
import { FIRST_KEY_EPOCH } from '../store/key-epoch.js';
import { restoreAcceptedAuditBody } from '../audit/restore-accepted-audit.js';
import { auditHead, auditMacAt, auditRowsAfter } from '../audit/store-audit-rows.js';
import type { AuditHead } from '../audit/store-audit-rows.js';
import { assertOpen, nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';

/**
 * Compares the database with the anchor: behind or diverging → StoreRollbackError; ahead → the
 * rows after the anchor must validly extend its MAC (else AuditChainError). Returns the head and
 * whether the anchor needs advancing. Runs inside a transaction so the view is consistent.
 */
export function checkAgainstAnchor(s: StoreState): { head: AuditHead; advance: boolean; acceptedRestoreAt: number | null } {
  const head = auditHead(s);
  const mark = s.anchor.read();
  if (mark === null) throw new StoreRollbackError('ANCHOR_MISSING', null, head.sequence);
  if ((mark.keyEpoch ?? FIRST_KEY_EPOCH) !== s.keyEpoch)
    throw new KeyEpochMismatchError('the anchor', s.keyEpoch, mark.keyEpoch ?? FIRST_KEY_EPOCH);
  const acceptedRestoreAt = mark.acceptedRestoreAt ?? null;
  if (mark.storeId !== s.storeId) throw new StoreRollbackError('STORE_MISMATCH', mark.sequence, head.sequence);
  if (head.sequence < mark.sequence) throw new StoreRollbackError('BEHIND', mark.sequence, head.sequence);
  const at = auditMacAt(s, mark.sequence);
  if (at === null || bytesToHex(at) !== mark.headMac) throw new StoreRollbackError('DIVERGED', mark.sequence, head.sequence);
  if (head.sequence === mark.sequence) return { head, advance: false, acceptedRestoreAt };
  // The few rows written since the mark (normally the one this write appended): the row walk, not a page read.
  const result = verifyAuditRows(s.keys.auditChain, s.storeId, auditRowsAfter(s, mark.sequence), mark.sequence, at);
  if (!result.ok) throw new AuditChainError(result.firstBrokenSequence);
  return { head, advance: true, acceptedRestoreAt };
}

/** `acceptedRestoreAt` is carried forward from the mark (it only ever moves forward; see AnchorRecord). */
function writeAnchor(s: StoreState, head: AuditHead, acceptedRestoreAt: number | null): void {
  const record: AnchorRecord = {
    storeId: s.storeId,
    sequence: head.sequence,
    headMac: bytesToHex(head.mac),
    acceptedRestoreAt,
    keyEpoch: s.keyEpoch,
  };
  s.anchor.write(record);
}

/** After a commit: advance the anchor to the head, holding the write lock so the mark only moves forward. */
export function syncAnchor(s: StoreState): void {
  inTransaction(s.db, 'immediate', () => {
    const { head, advance, acceptedRestoreAt } = checkAgainstAnchor(s);
    if (advance) writeAnchor(s, head, acceptedRestoreAt);
  });
}

/** At open: a new anchor only for a store with no history (or a re-anchored restore), else the normal check. */
export function openAnchorCheck(s: StoreState, reanchor: boolean): void {
  s.db
    .transaction(() => {
      const mark = s.anchor.read();
      if (mark === null) {
        const head = auditHead(s);
        // Only a store with no history may start a new anchor (first open, or a crash right after it),
        // unless the operator explicitly re-anchors a restored backup (see README).
        if (head.sequence !== 0 && !reanchor) throw new StoreRollbackError('ANCHOR_MISSING', null, head.sequence);
        // An accepted restore records when it was accepted (docs/DESIGN.md §3).
        writeAnchor(s, head, reanchor ? nowOf(s) : null);
        return;
      }
      if (reanchor) throw new StoreRollbackError('ANCHOR_PRESENT', mark.sequence, auditHead(s).sequence);
      const { head, advance, acceptedRestoreAt } = checkAgainstAnchor(s);
      if (advance) writeAnchor(s, head, acceptedRestoreAt);
    })
    .immediate();
}

/** Re-points the anchor at the verified head, whatever it said, with a new acceptance time (never earlier). */
export function acceptAnchor(s: StoreState): void {
  s.db
    .transaction(() => {
      const prior = s.anchor.read();
      const now = nowOf(s);
      const previous = prior?.acceptedRestoreAt ?? null;
      const acceptedAt = previous === null ? now : Math.max(now, previous);
      // The acceptance is in the chain itself, and the anchor points past it.
      appendAudit(s, restoreAcceptedAuditBody(acceptedAt));
      // The rate row follows the audit head in the same transaction (as in every write).
      s.rate.flush(auditHead(s).sequence);
      writeAnchor(s, auditHead(s), acceptedAt);
    })
    .immediate();
}

/** Compares the database with the anti-rollback anchor now (and advances it over a valid extension). Executor: before EXECUTING / ROLLING_BACK. */
export function checkAnchor(s: StoreState): void {
  assertOpen(s);
  syncAnchor(s);
}
