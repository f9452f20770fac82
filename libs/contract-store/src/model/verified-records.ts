import { macMatches } from '../integrity/row-mac.js';
import type { ContractRow } from '../store/store-statements.js';
import { recoveryContractSchema } from './recovery-contract.js';
import type { RecoveryContract } from './recovery-contract.js';

/** Contracts whose stored bytes are kept (the ones a write path works on: a few at a time). */
const MAX_ENTRIES = 256;

interface Entry {
  /** The record's bytes exactly as stored, and the MAC this process computed over them. */
  readonly bytes: Buffer;
  readonly mac: Uint8Array;
  /** The deep-frozen record those bytes encode; it passed recoveryContractSchema. */
  readonly record: RecoveryContract;
}

const SHAPE = recoveryContractSchema.shape as Readonly<Record<string, { safeParse(value: unknown): { success: boolean } }>>;

/**
 * `record` passes recoveryContractSchema, given that `previous` did: a strict object of independent fields (no
 * object-level refinement), so it does when it has no key the schema lacks, keeps every key `previous` had, and
 * each field that is not the very value `previous` held (frozen, so unchanged) passes that field's own schema.
 * A transition changes a handful of fields; the rest were validated with `previous`.
 */
function passesGiven(previous: RecoveryContract, record: RecoveryContract): boolean {
  const before = previous as unknown as Record<string, unknown>;
  const after = record as unknown as Record<string, unknown>;
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) return false;
  for (const key of Object.keys(after)) {
    const field = Object.hasOwn(SHAPE, key) ? SHAPE[key] : undefined;
    if (field === undefined) return false;
    if (after[key] !== before[key] && !field.safeParse(after[key]).success) return false;
  }
  return true;
}

/**
 * What this process knows of the contract rows it wrote or authenticated (docs/DESIGN.md §8): per contract id the
 * exact bytes and MAC of its row and the frozen record they encode, once that record passed the schema. A later
 * read whose row holds exactly those bytes and that MAC is that record — the MAC a verification would compute
 * is the one held, the parse would give the same record — so the write path does not authenticate, parse,
 * validate and freeze again what it validated itself a moment ago. Anything else (other bytes, another MAC, a
 * record never validated) takes the full verification. Never a validation a record has not had: a record enters
 * only after the schema passed on it, whole (a load, `create`'s self-check) or field by field over a record that
 * did (`writeContract`). Per open store; a rolled-back write leaves bytes no row holds, which never match.
 */
export class VerifiedRecords {
  readonly #byId = new Map<string, Entry>();
  readonly #validated = new WeakSet<RecoveryContract>();

  /** Notes that `record` (deep-frozen) passed recoveryContractSchema whole. */
  validated(record: RecoveryContract): void {
    if (Object.isFrozen(record)) this.#validated.add(record);
  }

  /**
   * After `record` was stored as `bytes` with `mac`, replacing `previous` (null on insert): keeps it when it is
   * known to pass the schema (noted whole, or `previous` was and the changed fields pass), else forgets the id.
   */
  wrote(record: RecoveryContract, previous: RecoveryContract | null, bytes: Buffer, mac: Uint8Array): void {
    const valid =
      Object.isFrozen(record) &&
      (this.#validated.has(record) || (previous !== null && this.#validated.has(previous) && passesGiven(previous, record)));
    if (!valid) {
      this.#byId.delete(record.contract_id);
      return;
    }
    this.#validated.add(record);
    this.#keep(record.contract_id, { bytes, mac, record });
  }

  /** After a row was authenticated and its record parsed and validated whole (verifyRow). */
  authenticated(row: ContractRow, record: RecoveryContract): void {
    this.#validated.add(record);
    this.#keep(row.contract_id, { bytes: row.record, mac: row.mac, record });
  }

  /** The record a row holds when its bytes and MAC are exactly what this process knows for its id, else undefined. */
  recall(row: ContractRow): RecoveryContract | undefined {
    const entry = this.#byId.get(row.contract_id);
    if (entry === undefined || !Buffer.isBuffer(row.record) || !entry.bytes.equals(row.record) || !macMatches(entry.mac, row.mac))
      return undefined;
    return entry.record;
  }

  #keep(contractId: string, entry: Entry): void {
    // Re-inserted last, so the map drops the contract touched longest ago first.
    this.#byId.delete(contractId);
    this.#byId.set(contractId, entry);
    if (this.#byId.size > MAX_ENTRIES) this.#byId.delete(this.#byId.keys().next().value as string);
  }
}
