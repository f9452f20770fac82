import { AuditMacScratch, macEqualsAt, verifyAuditRows } from './audit-chain.js';
import type { AuditChainResult, OnAuditRowVerified } from './audit-chain.js';
import { auditRowsAfter } from './store-audit-rows.js';
import type { StoreState } from '../store/store-state.js';

/** Rows per page: a few hundred KiB of audit bytes per SQLite value. */
export const AUDIT_PAGE_ROWS = 512;

type AuditPage = [rows: number, odd: number | null, layout: string | null, bytes: Buffer | null];

/**
 * Verifies the stored chain after `afterSequence` (whose MAC is `startMac`), inside the caller's
 * transaction, with exactly the result of `verifyAuditRows` over every row in order. The rows are read a
 * page of sequences at a time as one value (store-statements.ts `auditPage`): reading four values per row
 * cost more than the row's HMAC. Each row of a page is still checked on its own — next sequence, MAC
 * recomputed from the previous row's, compared in constant time. Anything unusual in a page (a row of
 * the wrong type, a gap, an unexpected order, a MAC that does not match, a page too large for one value)
 * is not judged here: the walk goes on row by row from the last row it verified (`verifyAuditRows` over
 * the statement's rows), which decides. After the last page it looks for rows beyond it the same way
 * (normally it finds none).
 */
export function walkAuditChain(
  s: StoreState,
  afterSequence: number,
  startMac: Uint8Array,
  onVerified?: OnAuditRowVerified,
  pageRows: number = AUDIT_PAGE_ROWS,
): AuditChainResult {
  if (startMac.length !== 32) throw new TypeError('walkAuditChain: "startMac" must be 32 bytes');
  const scratch = new AuditMacScratch(s.keys.auditChain, s.storeId);
  const at = { sequence: afterSequence, mac: startMac };
  for (;;) {
    const page = readPage(s, at.sequence, pageRows);
    if (page === null) break;
    const [rows, odd, layout, bytes] = page;
    if (rows === 0 || odd !== 0 || layout === null || bytes === null) break;
    if (!verifyPage(scratch, layout, bytes, rows, at, onVerified) || rows < pageRows) break;
  }
  return verifyAuditRows(s.keys.auditChain, s.storeId, auditRowsAfter(s, at.sequence), at.sequence, at.mac, onVerified);
}

/** The page of sequences (after, after + rows], or null when SQLite cannot make it one value (SQLITE_TOOBIG). */
function readPage(s: StoreState, after: number, rows: number): AuditPage | null {
  try {
    return s.stmt.auditPage.get(after, after + rows) as AuditPage;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_TOOBIG') return null;
    throw error;
  }
}

/**
 * Verifies the rows of one page in order, advancing `at` past each row that verified; false at the first
 * row that does not (or a layout that does not describe `bytes` exactly), where the row walk takes over.
 */
function verifyPage(
  scratch: AuditMacScratch,
  layout: string,
  bytes: Buffer,
  rows: number,
  at: { sequence: number; mac: Uint8Array },
  onVerified: OnAuditRowVerified | undefined,
): boolean {
  let cursor = 0;
  // "sequence,contract bytes,body bytes,..." — decimal, non-negative; -1 for anything else.
  const next = (): number => {
    const start = cursor;
    let value = 0;
    for (; cursor < layout.length; cursor += 1) {
      const digit = layout.charCodeAt(cursor) - 0x30;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    const delimited = cursor === layout.length || layout.charCodeAt(cursor) === 0x2c;
    const digits = cursor - start;
    cursor += 1;
    return digits > 0 && delimited && Number.isSafeInteger(value) ? value : -1;
  };
  let offset = 0;
  for (let i = 0; i < rows; i += 1) {
    const sequence = next();
    const contractLength = next();
    const bodyLength = next();
    if (sequence !== at.sequence + 1 || contractLength < 0 || bodyLength < 0) return false;
    const contractStart = offset + 32;
    const bodyStart = contractStart + contractLength;
    const bodyEnd = bodyStart + bodyLength;
    if (bodyEnd > bytes.length) return false;
    const mac = scratch.rangeMac(sequence, bytes, contractStart, bodyStart, bodyEnd, at.mac);
    if (!macEqualsAt(mac, bytes, offset)) return false;
    if (onVerified !== undefined)
      onVerified(sequence, bytes.toString('utf8', contractStart, bodyStart), bytes.subarray(bodyStart, bodyEnd));
    at.sequence = sequence;
    at.mac = mac;
    offset = bodyEnd;
  }
  return offset === bytes.length && cursor >= layout.length;
}
