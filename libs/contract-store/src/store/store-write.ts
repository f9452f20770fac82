import { inTransaction } from './in-transaction.js';
import { syncAnchor } from '../anchor/store-anchor.js';
import { auditHead } from '../audit/store-audit-rows.js';
import { assertOpen, crashAt } from './store-state.js';
import type { StoreState } from './store-state.js';

/**
 * Every write: one BEGIN IMMEDIATE transaction (the body and its audit rows), then the anchor is
 * advanced to the new head under the write lock (so concurrent writers cannot move it backwards).
 */
export function storeWrite<T>(s: StoreState, operation: string, body: () => T): T {
  assertOpen(s);
  crashAt(s, 'before-begin', operation);
  s.life.auditWritten = false;
  const result = inTransaction(s.db, 'immediate', () => {
    try {
      const r = body();
      // The rate row follows the audit head in the same transaction (RateGate: bound to the head).
      if (s.life.auditWritten) s.rate.flush(auditHead(s).sequence);
      crashAt(s, 'after-write-before-commit', operation);
      return r;
    } finally {
      s.rate.discardPending();
    }
  });
  if (s.life.auditWritten) {
    crashAt(s, 'after-commit-before-anchor', operation);
    syncAnchor(s);
    crashAt(s, 'after-anchor', operation);
  }
  return result;
}
