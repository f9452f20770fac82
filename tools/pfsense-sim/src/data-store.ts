// The simulator's data: one payload per pfrest path (an array for plural endpoints, an object for singular
// ones), plus the pending-subsystem set behind GET /api/v2/firewall/apply. Seeded payloads keep their
// secret fields in storage and lose them on the way out; --data payloads are served verbatim.
import { appendRevision, REVISIONS_PATH, revisionFor, type RevisionAuthor } from './config-history.js';
import { hideSecrets, type JsonObject } from './model-shaper.js';
import { READ_PATHS } from './model-catalog.js';
import { RULES_PATH, TABLES_PATH, deriveTables } from './pf-tables.js';
import { readStateFile, writeStateFile } from './state-file.js';

export const ALIASES_PATH = '/api/v2/firewall/aliases';

export interface PathData {
  /** true for --data payloads: served exactly as loaded (after filters/pagination), hidden fields included */
  readonly verbatim: boolean;
  readonly value: unknown;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ids of plural data are array indices; string ids (interfaces) and child-model ids are stored, not computed. */
function keepsStoredId(path: string, record: JsonObject): boolean {
  return typeof record.id === 'string' || (READ_PATHS[path]?.parent !== null && READ_PATHS[path]?.parent !== undefined);
}

/** Strips integer ids from loaded plural records: they are recomputed from the array index when served. */
export function normaliseLoaded(path: string, value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((r: unknown) => {
    if (!isObject(r) || keepsStoredId(path, r) || !('id' in r)) return r;
    const { id: _id, ...rest } = r;
    return rest;
  });
}

/**
 * How a filter reload behaves: `sync` (pending cleared and pf tables rebuilt, after `delayMs` when set — pfrest
 * applies through an asynchronous dispatcher), `lost` (nothing happens: the change stays pending) or
 * `stale-table` (pending cleared, the tables not rebuilt: config right, pf not).
 */
export interface ApplyMode {
  readonly mode: 'sync' | 'lost' | 'stale-table';
  readonly delayMs?: number;
}

export class DataStore {
  readonly #initial: ReadonlyMap<string, PathData>;
  #data = new Map<string, PathData>();
  #pending = new Set<string>();
  #applyMode: ApplyMode = { mode: 'sync' };
  readonly #stateFile: string | undefined;

  constructor(initial: ReadonlyMap<string, PathData>, stateFile?: string) {
    this.#initial = initial;
    this.#stateFile = stateFile;
    this.#data = new Map(initial);
    if (stateFile !== undefined) {
      const saved = readStateFile(stateFile);
      if (saved) {
        for (const [path, pd] of Object.entries(saved.paths)) this.#data.set(path, { verbatim: pd.verbatim, value: pd.value });
        this.#pending = new Set(saved.pending);
      }
    }
  }

  has(path: string): boolean {
    return this.#data.has(path);
  }

  /** The payload as pfrest would serve it: ids in place, hidden fields removed unless verbatim. */
  served(path: string): unknown {
    const pd = this.#data.get(path);
    if (!pd) return undefined;
    const model = READ_PATHS[path]?.model ?? (path === '/api/v2/firewall/alias' ? 'FirewallAlias' : undefined);
    const project = (r: JsonObject): JsonObject => (pd.verbatim || !model ? structuredClone(r) : hideSecrets(model, r));
    if (Array.isArray(pd.value)) {
      return pd.value.map((r: unknown, i) => {
        if (!isObject(r)) return structuredClone(r);
        if (keepsStoredId(path, r) || 'id' in r) return project(r);
        return project({ id: i, ...r });
      });
    }
    return isObject(pd.value) ? project(pd.value) : structuredClone(pd.value);
  }

  /** A copy of the stored records of a plural path (secrets included, no ids). */
  records(path: string): JsonObject[] {
    const pd = this.#data.get(path);
    return Array.isArray(pd?.value) ? structuredClone(pd.value as JsonObject[]) : [];
  }

  isVerbatim(path: string): boolean {
    return this.#data.get(path)?.verbatim ?? false;
  }

  /** Commits new records for a plural path and persists them before returning. */
  commit(path: string, records: readonly JsonObject[], pendingSubsystem?: string): void {
    this.#data.set(path, { verbatim: this.isVerbatim(path), value: structuredClone(records) });
    if (pendingSubsystem !== undefined) this.#pending.add(pendingSubsystem);
    this.#persist([path]);
  }

  /**
   * Records one config write in the configuration history (newest first, rotated at pfSense's default
   * count) and persists it. `filesize` stands in for config.xml's size: a base plus the alias table's bytes.
   */
  recordConfigWrite(author: RevisionAuthor, changeNote: string, now: Date): void {
    const filesize = 48_000 + Buffer.byteLength(JSON.stringify(this.records(ALIASES_PATH)));
    const next = appendRevision(this.records(REVISIONS_PATH), revisionFor(author, changeNote, now, filesize));
    this.#data.set(REVISIONS_PATH, { verbatim: this.isVerbatim(REVISIONS_PATH), value: next });
    this.#persist([REVISIONS_PATH]);
  }

  pendingSubsystems(): readonly string[] {
    return [...this.#pending].sort();
  }

  markPending(subsystem: string): void {
    this.#pending.add(subsystem);
    this.#persist([]);
  }

  setApplyMode(mode: ApplyMode): void {
    this.#applyMode = Object.freeze({ ...mode });
  }

  /**
   * Applies the firewall subsystems (pfrest's filter reload clears aliases, natconf, filter, shaper —
   * Models/FirewallApply.inc) and rebuilds pf's tables from the aliases enabled rules use, as the apply mode says.
   */
  applyFirewall(): void {
    const { mode, delayMs } = this.#applyMode;
    if (mode === 'lost') return;
    const reload = (): void => {
      for (const s of ['aliases', 'natconf', 'filter', 'shaper']) this.#pending.delete(s);
      if (mode === 'sync') {
        const tables = deriveTables(this.records(ALIASES_PATH), this.records(RULES_PATH), this.records(TABLES_PATH));
        this.#data.set(TABLES_PATH, { verbatim: this.isVerbatim(TABLES_PATH), value: tables });
      }
      this.#persist([TABLES_PATH]);
    };
    if (delayMs !== undefined && delayMs > 0) setTimeout(reload, delayMs).unref();
    else reload();
  }

  /** Changes fields of one stored record behind the API's back (a rule or entry edited by someone else). */
  editRecord(path: string, index: number, fields: JsonObject): void {
    const records = this.records(path);
    if (!Number.isSafeInteger(index) || index < 0 || index >= records.length) throw new RangeError('editRecord: no such record');
    records[index] = { ...records[index], ...structuredClone(fields) };
    this.#data.set(path, { verbatim: this.isVerbatim(path), value: records });
    this.#persist([path]);
  }

  /** Back to the data the simulator started with (seed and --data), dropping mutations. */
  reset(): void {
    this.#data = new Map(this.#initial);
    this.#pending.clear();
    this.#applyMode = { mode: 'sync' };
    this.#persist([...this.#initial.keys()].filter((p) => p === ALIASES_PATH || p === REVISIONS_PATH));
  }

  #persist(paths: readonly string[]): void {
    if (this.#stateFile === undefined) return;
    const keep = new Set([ALIASES_PATH, REVISIONS_PATH, ...paths]);
    const out: Record<string, { verbatim: boolean; value: unknown }> = {};
    for (const p of keep) {
      const pd = this.#data.get(p);
      if (pd) out[p] = { verbatim: pd.verbatim, value: pd.value };
    }
    writeStateFile(this.#stateFile, { version: 1, paths: out, pending: [...this.#pending] });
  }
}
