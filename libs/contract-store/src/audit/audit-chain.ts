import { constantTimeEqual, hmacSha256 } from '@pfsense-mcp/crypto';
import { MacDomain, macMatches, rowMac } from '../integrity/row-mac.js';

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
function auditMacInputLength(prefix: Buffer, contractLength: number, bodyLength: number): number {
  return prefix.length + 8 + 4 + contractLength + 32 + bodyLength;
}

/**
 * Writes the framing of one row's MAC input into `out` up to its contract id: domain ‖ store id (the prefix
 * already in `out` unless `withPrefix`), sequence, contract id length. Returns the offset of the contract id;
 * the caller writes the id, then the previous MAC and the body after it.
 */
function writeAuditMacHeader(out: Buffer, prefix: Buffer, withPrefix: boolean, sequence: number, contractLength: number): number {
  let o = withPrefix ? prefix.copy(out, 0) : prefix.length;
  // u64 big-endian without a BigInt per row: a sequence is a safe integer (< 2^53).
  o = out.writeUInt32BE(Math.floor(sequence / 0x1_0000_0000), o);
  o = out.writeUInt32BE(sequence >>> 0, o);
  return out.writeUInt32BE(contractLength, o);
}

/** Writes the MAC input of one row into `out` (at least auditMacInputLength bytes). */
function writeAuditMacInput(
  out: Buffer,
  prefix: Buffer,
  withPrefix: boolean,
  sequence: number,
  contractId: string,
  contractLength: number,
  previousMac: Uint8Array,
  body: Uint8Array,
): void {
  const at = writeAuditMacHeader(out, prefix, withPrefix, sequence, contractLength);
  const o = at + out.write(contractId, at, 'utf8');
  out.set(previousMac, o);
  out.set(body, o + 32);
}

function auditMacInput(storeId: string, sequence: number, contractId: string, previousMac: Uint8Array, body: Uint8Array): Buffer {
  if (previousMac.length !== 32) throw new TypeError('auditRowMac: "previousMac" must be 32 bytes');
  const prefix = prefixOf(storeId);
  const contractLength = Buffer.byteLength(contractId, 'utf8');
  const out = Buffer.allocUnsafe(auditMacInputLength(prefix, contractLength, body.length));
  writeAuditMacInput(out, prefix, true, sequence, contractId, contractLength, previousMac, body);
  return out;
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

/**
 * Frames and MACs the rows of one store in one reused scratch buffer, the domain ‖ store id prefix written
 * once: a walk over a whole store (every open) then allocates per row only the MAC itself.
 */
export class AuditMacScratch {
  readonly #key: Uint8Array;
  readonly #prefix: Buffer;
  #buffer: Buffer;

  constructor(key: Uint8Array, storeId: string) {
    this.#key = key;
    this.#prefix = prefixOf(storeId);
    this.#buffer = this.#grown(4096);
  }

  #grown(length: number): Buffer {
    const buffer = Buffer.allocUnsafe(length);
    this.#prefix.copy(buffer, 0);
    return buffer;
  }

  #fit(length: number): Buffer {
    if (length > this.#buffer.length) this.#buffer = this.#grown(Math.max(length, this.#buffer.length * 2));
    return this.#buffer;
  }

  /** MAC of row `sequence` (contract id as a string). `previous` must be 32 bytes. */
  rowMac(sequence: number, contractId: string, previous: Uint8Array, body: Uint8Array): Uint8Array {
    const contractLength = Buffer.byteLength(contractId, 'utf8');
    const length = auditMacInputLength(this.#prefix, contractLength, body.length);
    const out = this.#fit(length);
    writeAuditMacInput(out, this.#prefix, false, sequence, contractId, contractLength, previous, body);
    return hmacSha256(this.#key, out.subarray(0, length));
  }

  /**
   * The same MAC over a contract id and a body held in `bytes` as its UTF-8 bytes [contractStart, bodyStart)
   * and the body [bodyStart, bodyEnd), framed exactly as `rowMac` frames them.
   */
  rangeMac(sequence: number, bytes: Buffer, contractStart: number, bodyStart: number, bodyEnd: number, previous: Uint8Array): Uint8Array {
    const contractLength = bodyStart - contractStart;
    const length = auditMacInputLength(this.#prefix, contractLength, bodyEnd - bodyStart);
    const out = this.#fit(length);
    const at = writeAuditMacHeader(out, this.#prefix, false, sequence, contractLength);
    const o = at + bytes.copy(out, at, contractStart, bodyStart);
    out.set(previous, o);
    bytes.copy(out, o + 32, bodyStart, bodyEnd);
    return hmacSha256(this.#key, out.subarray(0, length));
  }
}

/** Constant-time comparison of a 32-byte MAC with the 32 bytes of `bytes` at `offset`. */
export function macEqualsAt(mac: Uint8Array, bytes: Uint8Array, offset: number): boolean {
  return mac.length === 32 && offset >= 0 && offset + 32 <= bytes.length && constantTimeEqual(mac, bytes.subarray(offset, offset + 32));
}

export interface AuditRow {
  readonly sequence: number;
  readonly contract_id: string;
  readonly body: Uint8Array;
  readonly mac: Uint8Array;
}

export type AuditChainResult =
  | { readonly ok: true; readonly headSequence: number; readonly headMac: Uint8Array }
  | { readonly ok: false; readonly firstBrokenSequence: number };

/** Sees each row once it verified, before the next is read (a caller folds the rows in the same pass). */
export type OnAuditRowVerified = (sequence: number, contractId: string, body: Uint8Array) => void;

/**
 * Walks rows in sequence order from (startSequence, startMac): each row must be the next sequence and
 * carry the MAC recomputed from the previous one. The first gap, reordering or MAC mismatch is reported.
 */
export function verifyAuditRows(
  key: Uint8Array,
  storeId: string,
  rows: Iterable<AuditRow>,
  startSequence: number,
  startMac: Uint8Array,
  onVerified?: OnAuditRowVerified,
): AuditChainResult {
  if (startMac.length !== 32) throw new TypeError('verifyAuditRows: "startMac" must be 32 bytes');
  const scratch = new AuditMacScratch(key, storeId);
  let previous = startMac;
  let expected = startSequence + 1;
  for (const row of rows) {
    if (row.sequence !== expected) return { ok: false, firstBrokenSequence: expected };
    if (!(row.body instanceof Uint8Array) || !(row.mac instanceof Uint8Array) || typeof row.contract_id !== 'string') {
      return { ok: false, firstBrokenSequence: expected };
    }
    const mac = scratch.rowMac(row.sequence, row.contract_id, previous, row.body);
    if (!macMatches(mac, row.mac)) return { ok: false, firstBrokenSequence: expected };
    if (onVerified !== undefined) onVerified(row.sequence, row.contract_id, row.body);
    previous = mac;
    expected += 1;
  }
  return { ok: true, headSequence: expected - 1, headMac: previous };
}
