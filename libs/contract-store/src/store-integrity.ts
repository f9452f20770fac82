import { bytesToHex } from '@pfsense-mcp/canonical';
import type { AnchorRecord } from './anti-rollback-anchor.js';
import { verifyAuditRows } from './audit-chain.js';
import { verifyRow } from './contract-rows.js';
import { FIRST_KEY_EPOCH } from './key-epoch.js';
import { checkAgainstAnchor } from './store-anchor.js';
import { auditHead, auditMacAt, auditRowsAfter } from './store-audit-rows.js';
import { integrityFailureOf } from './store-integrity-report.js';
import type { StoreIntegrityReport } from './store-integrity-report.js';
import type { ContractRow, ReservationRow } from './store-statements.js';
import { assertOpen } from './store-state.js';
import type { StoreState } from './store-state.js';
import { verifyReservationRow } from './target-reservations.js';
import { verifyStoreContents } from './verify-store-contents.js';

/** The first failed check of `integrityReport()`: which table, which row (contract id or sequence), which kind. */
export interface IntegrityFailure {
  readonly table: string;
  readonly row: string;
  readonly kind: string;
}

export interface IntegrityReport {
  readonly contracts: number;
  readonly auditRows: number;
  readonly reservations: number;
  readonly head: { readonly sequence: number; readonly mac: string };
  readonly anchor: { readonly sequence: number; readonly headMac: string } | null;
  readonly failure: IntegrityFailure | null;
}

/**
 * A whole-store integrity check for operators and health views: the anchor compared read-only (behind,
 * diverged, missing), then `verifyStoreContents`. Never writes. The first failure comes back as a value-free
 * report (table, contract id, sequence, kind); any other error is thrown.
 */
export function verifyIntegrity(s: StoreState): StoreIntegrityReport {
  assertOpen(s);
  try {
    return s.db.transaction((): StoreIntegrityReport => {
      if (s.anchor.read() !== null || auditHead(s).sequence > 0) checkAgainstAnchor(s);
      const counts = verifyStoreContents(s);
      return Object.freeze({ ok: true as const, contracts: counts.contracts, auditEvents: counts.auditEvents });
    })();
  } catch (error) {
    const failure = integrityFailureOf(error);
    if (failure === null) throw error;
    return Object.freeze({ ok: false as const, failure });
  }
}

/**
 * The operator's integrity view (`pfsense-mcp admin audit verify`): counts, the audit head and the anchor, and
 * the first failure of the checks open runs (audit chain, every contract row, every reservation, the rate
 * windows, the anchor) — reported, not thrown, so a broken store can still be described. Value-free.
 */
export function integrityReport(s: StoreState): IntegrityReport {
  assertOpen(s);
  return s.db.transaction((): IntegrityReport => {
    const head = auditHead(s);
    let failure: IntegrityFailure | null = null;
    const fail = (table: string, row: string, error: unknown): void => {
      if (failure !== null) return;
      const code = (error as { code?: unknown } | null)?.code;
      failure = Object.freeze({ table, row, kind: typeof code === 'string' ? code : 'ERROR' });
    };
    const auditRows = (s.db.prepare('SELECT count(*) AS n FROM audit_events').get() as { n: number }).n;
    const chain = verifyAuditRows(s.keys.auditChain, s.storeId, auditRowsAfter(s, 0), 0, s.genesisMac);
    if (!chain.ok) fail('audit_events', String(chain.firstBrokenSequence), { code: 'AUDIT_CHAIN_BROKEN' });
    let contracts = 0;
    for (const row of s.stmt.allContracts.iterate() as Iterable<ContractRow>) {
      contracts += 1;
      try {
        verifyRow(s, row);
      } catch (error) {
        fail('contracts', row.contract_id, error);
      }
    }
    let reservations = 0;
    for (const row of s.stmt.allReservations.iterate() as Iterable<ReservationRow>) {
      reservations += 1;
      try {
        verifyReservationRow(s, row);
      } catch (error) {
        fail('target_reservations', row.contract_id, error);
      }
    }
    try {
      s.rate.verifyAll(head.sequence, 'validated');
    } catch (error) {
      fail('rate_windows', '', error);
    }
    if (failure === null) {
      // Every row authentic on its own: now the rows against the audit chain, the check open runs, so a row
      // deleted or written back while the store was closed is reported here too (table and contract id).
      try {
        verifyStoreContents(s);
      } catch (error) {
        const f = integrityFailureOf(error);
        if (f === null) throw error;
        fail(f.table, f.contractId ?? (f.sequence === null ? '' : String(f.sequence)), { code: f.kind });
      }
    }
    let anchor: AnchorRecord | null = null;
    try {
      anchor = s.anchor.read();
      if (anchor === null) fail('anchor', '', { code: 'ANCHOR_MISSING' });
      else if (anchor.storeId !== s.storeId) fail('anchor', String(anchor.sequence), { code: 'STORE_MISMATCH' });
      else if ((anchor.keyEpoch ?? FIRST_KEY_EPOCH) !== s.keyEpoch) fail('anchor', String(anchor.sequence), { code: 'KEY_EPOCH_MISMATCH' });
      else if (head.sequence < anchor.sequence) fail('anchor', String(anchor.sequence), { code: 'BEHIND' });
      else {
        const at = auditMacAt(s, anchor.sequence);
        if (at === null || bytesToHex(at) !== anchor.headMac) fail('anchor', String(anchor.sequence), { code: 'DIVERGED' });
      }
    } catch (error) {
      fail('anchor', '', error);
    }
    return Object.freeze({
      contracts,
      auditRows,
      reservations,
      head: Object.freeze({ sequence: head.sequence, mac: bytesToHex(head.mac) }),
      anchor: anchor === null ? null : Object.freeze({ sequence: anchor.sequence, headMac: anchor.headMac }),
      failure,
    });
  })();
}
