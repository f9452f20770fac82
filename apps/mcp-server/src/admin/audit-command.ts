import { createHash } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { canonicalize } from '@pfsense-mcp/canonical';
import type { AuditEventView } from '@pfsense-mcp/contract-store';
import { writeCliAnswer } from '../runtime/startup/write-cli-output.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { openAdminConsumptionStore, openAdminContractStore } from './open-admin-stores.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';

export const AUDIT_EXPORT_FORMAT = 'pfsense-mcp/audit-export';
const GENESIS = '0'.repeat(64);

/** The keyless chain link: SHA-256 over the previous link and the canonical JSON of this line (without `chain`). */
function link(previous: string, line: Readonly<Record<string, unknown>>): string {
  return createHash('sha256')
    .update(previous, 'ascii')
    .update('\n')
    .update(canonicalize(line as never), 'utf8')
    .digest('hex');
}

function failureResult(table: string, row: string, kind: string, extra: Record<string, unknown>): AdminResult {
  const where = `table ${table}${row === '' ? '' : `, row ${row}`}, kind ${kind}`;
  return adminResult(
    [`audit verify: FAILED at ${where}`],
    { ...extra, error: { code: 'AUDIT_VERIFY_FAILED', message: `first failure: ${where}` }, failure: { table, row, kind } },
    1,
  );
}

/** `admin audit verify`: every row MAC, the chain and the anchor of both stores; exit 0 only when all hold. */
export async function auditVerifyCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const exportFile = args.values.get('--export');
  if (exportFile !== undefined) return verifyExport(exportFile);
  const layout = openWriteDirectory(args, ctx);
  let store;
  try {
    store = await openAdminContractStore(layout, ctx, { verifyOnOpen: false });
  } catch (error) {
    // The store refused to open at all: a rolled-back, diverged or unauthentic database.
    const code = error instanceof AdminError ? error.code.replace(/^STORE_/, '') : 'OPEN_FAILED';
    return failureResult(/ANCHOR|BEHIND|DIVERGED|STORE_MISMATCH|MISSING/.test(code) ? 'anchor' : 'store', '', code, {});
  }
  let report;
  try {
    report = store.integrityReport();
  } finally {
    store.close();
  }
  const summary = {
    contracts_checked: report.contracts,
    audit_rows_checked: report.auditRows,
    reservations_checked: report.reservations,
    head: report.head,
    anchor: report.anchor,
  };
  if (report.failure !== null) return failureResult(report.failure.table, report.failure.row, report.failure.kind, summary);
  try {
    (await openAdminConsumptionStore(layout, ctx)).close();
  } catch (error) {
    return failureResult('consumption', '', error instanceof AdminError ? error.code.replace(/^STORE_/, '') : 'OPEN_FAILED', summary);
  }
  return adminResult(
    [
      'audit verify: every check holds',
      `  contract rows checked   ${report.contracts}`,
      `  audit rows checked      ${report.auditRows} (HMAC chain intact)`,
      `  reservations checked    ${report.reservations}`,
      `  head                    sequence ${report.head.sequence}, MAC ${report.head.mac}`,
      `  anchor                  sequence ${report.anchor?.sequence ?? '-'}, MAC ${report.anchor?.headMac ?? '-'}${layout.anchorDirIsExternal ? '' : ' (same medium as the store)'}`,
      '  consumption store       chain and anchor hold',
    ],
    { ...summary, consumption: 'ok' },
  );
}

function parseSince(value: string | undefined): number {
  if (value === undefined) return 0;
  const ms = /^\d{1,16}$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isSafeInteger(ms) || ms < 0) throw AdminError.usage('--since: must be an ISO 8601 time or UTC milliseconds');
  return ms;
}

/**
 * `admin audit export [--since TIME] [--out FILE]`: the value-free audit rows as JSON lines with a keyless SHA-256
 * chain, so a SIEM can check order and completeness without the HMAC key. Only the store, with its key, proves
 * authenticity: anyone can compute a SHA-256 chain.
 */
export async function auditExportCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const since = parseSince(args.values.get('--since'));
  const out = args.values.get('--out');
  const layout = openWriteDirectory(args, ctx);
  const store = await openAdminContractStore(layout, ctx);
  const lines: string[] = [];
  let chain: string;
  let rows = 0;
  let first: number | null = null;
  let last: number | null = null;
  try {
    const header = { type: 'header', format: AUDIT_EXPORT_FORMAT, version: 1, store_id: store.storeId, since, exported_at: ctx.now() };
    chain = link(GENESIS, header);
    lines.push(JSON.stringify({ ...header, chain }));
    let after = 0;
    for (;;) {
      const page: readonly AuditEventView[] = store.listAuditEvents({ afterSequence: after, limit: 10_000 });
      for (const e of page) {
        after = e.sequence;
        if (e.at < since) continue;
        const line = { type: 'row', ...e };
        chain = link(chain, line);
        lines.push(JSON.stringify({ ...line, chain }));
        rows += 1;
        first ??= e.sequence;
        last = e.sequence;
      }
      if (page.length < 10_000) break;
    }
    const trailer = { type: 'end', rows, first_sequence: first, last_sequence: last };
    chain = link(chain, trailer);
    lines.push(JSON.stringify({ ...trailer, chain }));
  } finally {
    store.close();
  }
  const summary = { rows, first_sequence: first, last_sequence: last, chain };
  if (out === undefined) {
    // The export itself is the output; --json adds the summary as the last line.
    writeCliAnswer(lines.join('\n'));
    return adminResult([], summary);
  }
  let fd: number;
  try {
    fd = openSync(out, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch {
    throw new AdminError('OUT_EXISTS', '--out: must be a new file (never overwritten)');
  }
  try {
    const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return adminResult(
    [
      `exported ${rows} audit rows to ${out} (0600)`,
      `  chain ${chain}`,
      '  `admin audit verify --export FILE` checks order and completeness; only the store, with its key, proves authenticity',
    ],
    { ...summary, file: out },
  );
}

/** `admin audit verify --export FILE`: recomputes the keyless chain of an export; order and completeness, not authenticity. */
function verifyExport(file: string): AdminResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new AdminError('EXPORT_UNREADABLE', '--export: cannot be read');
  }
  const lines = text.split('\n').filter((l) => l.length > 0);
  let chain = GENESIS;
  let previousSequence: number | null = null;
  let rows = 0;
  for (let i = 0; i < lines.length; i += 1) {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(lines[i] ?? '') as Record<string, unknown>;
    } catch {
      return failureResult('export', String(i + 1), 'NOT_JSON', {});
    }
    const { chain: claimed, ...line } = parsed;
    const type = line['type'];
    if ((i === 0) !== (type === 'header') || (i === lines.length - 1) !== (type === 'end'))
      return failureResult('export', String(i + 1), 'BAD_STRUCTURE', {});
    if (type === 'header' && (line['format'] !== AUDIT_EXPORT_FORMAT || line['version'] !== 1))
      return failureResult('export', '1', 'UNKNOWN_FORMAT', {});
    chain = link(chain, line);
    if (claimed !== chain) return failureResult('export', String(i + 1), 'CHAIN_MISMATCH', {});
    if (type === 'row') {
      const seq = line['sequence'];
      if (typeof seq !== 'number' || (previousSequence !== null && seq !== previousSequence + 1))
        return failureResult('export', String(i + 1), 'SEQUENCE_GAP', {});
      previousSequence = seq;
      rows += 1;
    }
    if (type === 'end' && line['rows'] !== rows) return failureResult('export', String(i + 1), 'ROW_COUNT', {});
  }
  if (lines.length < 2) return failureResult('export', '', 'TRUNCATED', {});
  return adminResult(
    [
      `export chain holds: ${rows} rows in order, none missing, chain ${chain}`,
      'this proves order and completeness only; authenticity is proven by the store with its key (`admin audit verify`)',
    ],
    { rows, chain },
  );
}
