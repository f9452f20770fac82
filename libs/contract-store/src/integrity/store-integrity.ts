import { bytesToHex } from '@pfsense-mcp/canonical';
import type { AnchorRecord } from '../anchor/anti-rollback-anchor.js';
import { KeyEpochMismatchError } from '../store/contract-store-error.js';
import { checkAgainstAnchor } from '../anchor/store-anchor.js';
import { auditHead } from '../audit/store-audit-rows.js';
import { integrityFailureOf } from './store-integrity-report.js';
import type { StoreIntegrityFailure, StoreIntegrityReport } from './store-integrity-report.js';
import { assertOpen } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';
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
 * The one whole-store check, inside the caller's read transaction: the anchor compared read-only (behind,
 * diverged, missing, another store; a valid extension past it verified) — skipped only for a store with
 * neither history nor anchor —, then `verifyStoreContents` (the chain and every row against it, the check
 * open runs). Never writes. The first failure as a value-free description; any other error is thrown.
 */
function checkStore(
  s: StoreState,
): { readonly counts: { contracts: number; auditEvents: number } } | { readonly failure: StoreIntegrityFailure } {
  try {
    if (s.anchor.read() !== null || auditHead(s).sequence > 0) checkAgainstAnchor(s);
    return { counts: verifyStoreContents(s) };
  } catch (error) {
    const failure = integrityFailureOf(error);
    if (failure === null) throw error;
    return { failure };
  }
}

/**
 * A whole-store integrity check for operators and health views (`checkStore`): `{ ok: true, contracts,
 * auditEvents }` or the first failure `{ table, contractId, sequence, kind }`.
 */
export function verifyIntegrity(s: StoreState): StoreIntegrityReport {
  assertOpen(s);
  const r = s.db.transaction(() => checkStore(s))();
  return 'failure' in r
    ? Object.freeze({ ok: false as const, failure: r.failure })
    : Object.freeze({ ok: true as const, contracts: r.counts.contracts, auditEvents: r.counts.auditEvents });
}

/**
 * The operator's integrity view (`pfsense-mcp admin audit verify`): counts, the audit head and the anchor, and
 * the first failure of the same check as `verifyIntegrity` (the anchor, the audit chain, every contract,
 * reservation, artifact and rate row against it) — reported, not thrown, so a broken store can still be
 * described: the row is the contract id, else the audit sequence, and for the anchor the anchor's own sequence. Value-free.
 */
export function integrityReport(s: StoreState): IntegrityReport {
  assertOpen(s);
  return s.db.transaction((): IntegrityReport => {
    const head = auditHead(s);
    const count = (table: string) => (s.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    let anchor: AnchorRecord | null = null;
    try {
      anchor = s.anchor.read();
    } catch {
      // checkStore reads it again and reports why (an AnchorError is a verification result).
    }
    let failure: IntegrityFailure | null = null;
    try {
      const r = checkStore(s);
      if ('failure' in r) {
        const f = r.failure;
        const row =
          f.table === 'anchor'
            ? anchor === null
              ? ''
              : String(anchor.sequence)
            : (f.contractId ?? (f.sequence === null ? '' : String(f.sequence)));
        failure = { table: f.table, row, kind: f.kind };
      } else if (anchor === null) {
        // An empty store whose anchor is gone: nothing to compare, still not what open left.
        failure = { table: 'anchor', row: '', kind: 'ANCHOR_MISSING' };
      }
    } catch (error) {
      // Not a verification result of verifyIntegrity, but one to describe here: an anchor of another key epoch.
      if (!(error instanceof KeyEpochMismatchError)) throw error;
      failure = { table: 'anchor', row: anchor === null ? '' : String(anchor.sequence), kind: error.code };
    }
    return Object.freeze({
      contracts: count('contracts'),
      auditRows: count('audit_events'),
      reservations: count('target_reservations'),
      head: Object.freeze({ sequence: head.sequence, mac: bytesToHex(head.mac) }),
      anchor: anchor === null ? null : Object.freeze({ sequence: anchor.sequence, headMac: anchor.headMac }),
      failure: failure === null ? null : Object.freeze(failure),
    });
  })();
}
