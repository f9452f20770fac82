import { hmacSha256 } from '@pfsense-mcp/crypto';
import { MacDomain, rowMac } from './row-mac.js';

/**
 * The value-free content of one audit row (ids, digests, states, timings, outcome classes only).
 * A `refusal` row (recordRefusal) concerns no transition: `contract_id` is the contract it names or '',
 * `event` is the refusing gate, `outcome_class` the refusal class (STALE / ANOMALY), `evidence_digest`
 * the refused artifact's digest, and the contract-only fields are null.
 */
export interface AuditEventBody {
  readonly at: number;
  readonly kind: 'create' | 'transition' | 'confirmation' | 'reservation-release' | 'artifact-purge' | 'refusal' | 'restore-accepted';
  readonly contract_id: string;
  readonly operation_id: string | null;
  readonly event: string | null;
  readonly from_state: string | null;
  readonly to_state: string | null;
  readonly state_version: number | null;
  readonly capability: string | null;
  readonly endpoint_symbol: string | null;
  readonly http_method: string | null;
  readonly target_identity_digest: string | null;
  readonly intent_digest: string | null;
  readonly outcome_class: string | null;
  readonly evidence_digest: string | null;
  readonly authority_key_id: string | null;
}

export function auditGenesisMac(key: Uint8Array, storeId: string): Uint8Array {
  return rowMac(key, MacDomain.AUDIT_GENESIS, [storeId]);
}

// Fixed framing, written by hand so verification hashes exactly the stored bytes without re-encoding:
// u32 len(domain) ‖ domain ‖ u32 len(store_id) ‖ store_id ‖ u64 sequence ‖ u32 len(contract_id) ‖
// contract_id ‖ previous MAC (32 bytes) ‖ body (canonical JSON bytes, rest of the input).
const DOMAIN_BYTES = Buffer.from(MacDomain.AUDIT, 'utf8');

const prefixCache = new Map<string, Buffer>();

/** domain ‖ store id framing, computed once per store id (verification hashes many rows of one store). */
function prefixOf(storeId: string): Buffer {
  let prefix = prefixCache.get(storeId);
  if (prefix === undefined) {
    const store = Buffer.from(storeId, 'utf8');
    prefix = Buffer.allocUnsafe(4 + DOMAIN_BYTES.length + 4 + store.length);
    let o = prefix.writeUInt32BE(DOMAIN_BYTES.length, 0);
    o += DOMAIN_BYTES.copy(prefix, o);
    o = prefix.writeUInt32BE(store.length, o);
    store.copy(prefix, o);
    if (prefixCache.size > 16) prefixCache.clear();
    prefixCache.set(storeId, prefix);
  }
  return prefix;
}

/** Bytes of the MAC input of one row (the framing above). */
function auditMacInputLength(prefix: Buffer, contractLength: number, body: Uint8Array): number {
  return prefix.length + 8 + 4 + contractLength + 32 + body.length;
}

/** Writes the MAC input of one row into `out` (at least auditMacInputLength bytes); returns its length. */
function writeAuditMacInput(out: Buffer, prefix: Buffer, sequence: number, contractId: string, contractLength: number, previousMac: Uint8Array, body: Uint8Array): number {
  let o = prefix.copy(out, 0);
  // u64 big-endian without a BigInt per row: a sequence is a safe integer (< 2^53).
  o = out.writeUInt32BE(Math.floor(sequence / 0x1_0000_0000), o);
  o = out.writeUInt32BE(sequence >>> 0, o);
  o = out.writeUInt32BE(contractLength, o);
  o += out.write(contractId, o, 'utf8');
  out.set(previousMac, o);
  o += 32;
  out.set(body, o);
  return o + body.length;
}

function auditMacInput(storeId: string, sequence: number, contractId: string, previousMac: Uint8Array, body: Uint8Array): Buffer {
  if (previousMac.length !== 32) throw new TypeError('auditRowMac: "previousMac" must be 32 bytes');
  const prefix = prefixOf(storeId);
  const contractLength = Buffer.byteLength(contractId, 'utf8');
  const out = Buffer.allocUnsafe(auditMacInputLength(prefix, contractLength, body));
  writeAuditMacInput(out, prefix, sequence, contractId, contractLength, previousMac, body);
  return out;
}

function sameMac(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** MAC of audit row `sequence`: covers the previous row's MAC, the sequence, the contract id and the body. */
export function auditRowMac(
  key: Uint8Array,
  storeId: string,
  sequence: number,
  contractId: string,
  previousMac: Uint8Array,
  body: Uint8Array,
): Uint8Array {
  return hmacSha256(key, auditMacInput(storeId, sequence, contractId, previousMac, body));
}

/** Exposed for the benchmark: the exact bytes the chain MAC covers for one row. */
export const auditMacInputForBenchmark = auditMacInput;

export interface AuditRow {
  readonly sequence: number;
  readonly contract_id: string;
  readonly body: Uint8Array;
  readonly mac: Uint8Array;
}

export type AuditChainResult =
  | { readonly ok: true; readonly headSequence: number; readonly headMac: Uint8Array }
  | { readonly ok: false; readonly firstBrokenSequence: number };

/**
 * Walks rows in sequence order from (startSequence, startMac): each row must be the next sequence and
 * carry the MAC recomputed from the previous one. The first gap, reordering or MAC mismatch is reported.
 * `onVerified` (optional) sees each row once it verified, before the next is read — a caller folds the
 * rows in the same pass. The MAC inputs are framed in one reused scratch buffer: the walk over a whole
 * store (every open) then allocates per row only what SQLite hands over.
 */
export function verifyAuditRows(
  key: Uint8Array,
  storeId: string,
  rows: Iterable<AuditRow>,
  startSequence: number,
  startMac: Uint8Array,
  onVerified?: (row: AuditRow) => void,
): AuditChainResult {
  if (startMac.length !== 32) throw new TypeError('verifyAuditRows: "startMac" must be 32 bytes');
  const prefix = prefixOf(storeId);
  let scratch = Buffer.allocUnsafe(4096);
  let previous = startMac;
  let expected = startSequence + 1;
  for (const row of rows) {
    if (row.sequence !== expected) return { ok: false, firstBrokenSequence: expected };
    if (!(row.body instanceof Uint8Array) || !(row.mac instanceof Uint8Array) || typeof row.contract_id !== 'string') {
      return { ok: false, firstBrokenSequence: expected };
    }
    const contractLength = Buffer.byteLength(row.contract_id, 'utf8');
    const length = auditMacInputLength(prefix, contractLength, row.body);
    if (length > scratch.length) scratch = Buffer.allocUnsafe(Math.max(length, scratch.length * 2));
    writeAuditMacInput(scratch, prefix, row.sequence, row.contract_id, contractLength, previous, row.body);
    const mac = hmacSha256(key, scratch.subarray(0, length));
    if (!sameMac(mac, row.mac)) return { ok: false, firstBrokenSequence: expected };
    if (onVerified !== undefined) onVerified(row);
    previous = mac;
    expected += 1;
  }
  return { ok: true, headSequence: expected - 1, headMac: previous };
}
