import { createHash } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, writeSync } from 'node:fs';
import { RegularFileError, readRegularFileChunks } from '@pfsense-mcp/foundation';
import { canonicalize } from '@pfsense-mcp/canonical';
import type { AuditEventView } from '@pfsense-mcp/contract-store';
import { writeCliAnswer } from '../runtime/startup/write-cli-output.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { openAdminConsumptionStore, openAdminContractStore } from './open-admin-stores.js';
import { openWriteDirectory } from './open-write-directory.js';
import { outputPathOutsideWriteDirectory } from './output-path.js';
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
  const layout = openWriteDirectory(args, ctx);
  const outValue = args.values.get('--out');
  const out = outValue === undefined ? undefined : outputPathOutsideWriteDirectory(layout, outValue, '--out');
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

/** An export is read as a regular file of at most this many bytes, one line of at most MAX_EXPORT_LINE_BYTES at a time. */
export const MAX_EXPORT_BYTES = 4 * 1024 * 1024 * 1024;
export const MAX_EXPORT_LINE_BYTES = 1024 * 1024;

/** A failure found while reading: ends the read at once (thrown out of the chunk callback). */
class ExportFailure {
  readonly result: AdminResult;
  constructor(result: AdminResult) {
    this.result = result;
  }
}

/**
 * The non-empty lines of an export, each handed over with whether it is the last (one line of lookahead), read as a
 * bounded regular file: never more than one chunk and one line in memory, and a line over the bound is a failure
 * at that line, found before the rest of it is read.
 */
function forEachExportLine(file: string, onLine: (text: string, index: number, last: boolean) => void): number {
  let held: string | null = null;
  let count = 0;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  const push = (bytes: Buffer) => {
    if (bytes.length === 0) return;
    if (held !== null) onLine(held, count - 1, false);
    held = bytes.toString('utf8');
    count += 1;
  };
  const tooLong = () => new ExportFailure(failureResult('export', String(count + 1), 'LINE_TOO_LONG', {}));
  try {
    readRegularFileChunks(file, MAX_EXPORT_BYTES, (chunk) => {
      let from = 0;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, from)) {
        if (partialBytes + at - from > MAX_EXPORT_LINE_BYTES) throw tooLong();
        push(Buffer.concat([...partial, chunk.subarray(from, at)]));
        partial = [];
        partialBytes = 0;
        from = at + 1;
      }
      partialBytes += chunk.length - from;
      if (partialBytes > MAX_EXPORT_LINE_BYTES) throw tooLong();
      partial.push(Buffer.from(chunk.subarray(from)));
    });
  } catch (error) {
    if (error instanceof ExportFailure) throw error;
    if (error instanceof RegularFileError && error.problem === 'TOO_LARGE') {
      throw new AdminError('EXPORT_TOO_LARGE', `--export: must be at most ${MAX_EXPORT_BYTES} bytes`);
    }
    throw new AdminError('EXPORT_UNREADABLE', '--export: cannot be read (it must be a regular file)');
  }
  push(Buffer.concat(partial));
  if (held !== null) onLine(held, count - 1, true);
  return count;
}

/** `admin audit verify --export FILE`: recomputes the keyless chain of an export; order and completeness, not authenticity. */
function verifyExport(file: string): AdminResult {
  let chain = GENESIS;
  let previousSequence: number | null = null;
  let rows = 0;
  const fail = (line: number | string, kind: string): never => {
    throw new ExportFailure(failureResult('export', String(line), kind, {}));
  };
  let count: number;
  try {
    count = forEachExportLine(file, (text, i, last) => {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return fail(i + 1, 'NOT_JSON');
      }
      const { chain: claimed, ...line } = parsed;
      const type = line['type'];
      if ((i === 0) !== (type === 'header') || last !== (type === 'end')) fail(i + 1, 'BAD_STRUCTURE');
      if (type === 'header' && (line['format'] !== AUDIT_EXPORT_FORMAT || line['version'] !== 1)) fail(1, 'UNKNOWN_FORMAT');
      chain = link(chain, line);
      if (claimed !== chain) fail(i + 1, 'CHAIN_MISMATCH');
      if (type === 'row') {
        const seq = line['sequence'];
        if (typeof seq !== 'number' || (previousSequence !== null && seq !== previousSequence + 1)) fail(i + 1, 'SEQUENCE_GAP');
        previousSequence = seq as number;
        rows += 1;
      }
      if (type === 'end' && line['rows'] !== rows) fail(i + 1, 'ROW_COUNT');
    });
  } catch (error) {
    if (error instanceof ExportFailure) return error.result;
    throw error;
  }
  if (count < 2) return failureResult('export', '', 'TRUNCATED', {});
  return adminResult(
    [
      `export chain holds: ${rows} rows in order, none missing, chain ${chain}`,
      'this proves order and completeness only; authenticity is proven by the store with its key (`admin audit verify`)',
    ],
    { rows, chain },
  );
}
