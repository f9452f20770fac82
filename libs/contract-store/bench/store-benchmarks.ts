// Contract-store benchmarks (not a test): `runStoreBenchmarks({ dir, n })` returns result rows in the
// shape of tools/bench's BenchResult; the bench harness wires it into `npm run bench`.
import { closeSync, constants, fsyncSync, mkdtempSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateMasterKey, hmacSha256 } from '@pfsense-mcp/crypto';
import { auditMacInputForBenchmark } from '../src/audit/audit-chain.js';
import { ExecutorContractStore } from '../src/executor-entry.js';
import { SqliteRecoveryContractStore } from '../src/index.js';
import type { AnchorRecord, AntiRollbackAnchor, ContractStoreOptions, NewContractInput } from '../src/index.js';
import { fsyncDirectory } from '@pfsense-mcp/foundation';
import { loadStoreKeys } from '../src/store/store-keys.js';
import { inOneTransaction } from './in-one-transaction.js';

export interface StoreBenchRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly floor: number | null;
  readonly ratio: number | null;
  /** Goal: a bound on `ratio` when there is a floor, else on `value`; null = reported only. */
  readonly target: number | null;
}

export interface StoreBenchOptions {
  /** Existing directory for scratch stores (each run makes 0700 subdirectories in it). */
  readonly dir: string;
  /** Contracts in the large store for bytes/contract, open and verify times (docs/DESIGN.md §8: 100,000). */
  readonly n: number;
  /** Full durable lifecycles to time against the durable floor (default 60). */
  readonly lifecycles?: number;
  readonly note?: (text: string) => void;
}

function row(name: string, value: number, unit: string, floor: number | null = null, target: number | null = null): StoreBenchRow {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return Object.freeze({
    name,
    value: r(value),
    unit,
    floor: floor === null ? null : r(floor),
    ratio: floor === null || floor === 0 ? null : r(value / floor),
    target,
  });
}

const hex = (i: number) => i.toString(16).padStart(64, '0');

function input(i: number, now: number): NewContractInput {
  return {
    operation_id: `op-${i}`,
    capability: 'ALIAS_WRITE',
    endpoint_symbol: 'FIREWALL_ALIAS_PATCH',
    http_method: 'PATCH',
    target_identity_digest: hex(i + 1),
    target_fingerprint: hex(0xf1),
    intent_digest: hex(0x1d),
    snapshot_digest: hex(0x5a),
    rollback_plan_version: 'alias-descr-v1',
    lifecycle_locator: i % 1000,
    provenance: {
      authorization_id: `auth-${i}`,
      plan_digest: hex(0x91),
      step_id: 'step-1',
      execution_intent_digest: hex(0xe1),
      authorization_expires_at: now + 3_600_000,
    },
    expires_at: now + 3_600_000,
    target_identity: { alias_name: `alias_${i}` },
    intent: { alias_name: `alias_${i}`, description: `benchmark description ${i}` },
    snapshot: { name: `alias_${i}`, type: 'host', descr: 'previous description', address: ['10.0.0.1', '10.0.0.2'], detail: ['a', 'b'] },
  };
}

const BENCH_LIMITS = {
  maxGlobalInFlight: 10_000,
  maxInFlightPerCapability: 10_000,
  maxOutstandingPreparedPerTarget: 10_000,
  targetCooldownMs: 0,
  reconciliationLockoutThreshold: 10_000,
  windowMs: 1,
  maxPreparesPerTargetPerWindow: 10_000,
  maxPreparesPerCapabilityPerWindow: 10_000,
};

function lifecycle(store: SqliteRecoveryContractStore, ex: ExecutorContractStore, i: number, now: number): void {
  const c = store.create(input(i, now));
  const p = store.markPrepared(c.contract_id, c.state_version);
  const k = store.confirm(p.contract_id, {});
  const e = ex.beginExecution(k.contract_id, k.state_version);
  const v = ex.markExecutionVerified(e.contract_id, e.state_version, {
    verifiedTargetFingerprint: hex(0xf2),
    verifiedLifecycleLocator: e.lifecycle_locator,
  });
  const r = ex.beginRollback(v.contract_id, v.state_version);
  ex.markRollbackVerified(r.contract_id, r.state_version, {
    verifiedTargetFingerprint: hex(0xf1),
    verifiedLifecycleLocator: r.lifecycle_locator,
  });
}

const COMMITS_PER_LIFECYCLE = 7;

/** Lifecycles (and the floor's commits for as many) run before timing starts. */
const WARM_UP_LIFECYCLES = 20;

function scratch(base: string, prefix: string): string {
  return mkdtempSync(join(base, prefix));
}

function baseOptions(
  directory: string,
  masterKey: Uint8Array,
  clock: () => number,
  anchor: ContractStoreOptions['anchor'],
): ContractStoreOptions {
  return {
    directory,
    masterKey,
    clock,
    anchor,
    rateLimits: BENCH_LIMITS,
    confirmationVerifier: {
      verify: (c, _e, nowMs) => ({
        confirmationId: `conf-${c.contract_id}`,
        confirmationDigest: hex(0xc0),
        authorityKeyId: hex(0xa1),
        contractId: c.contract_id,
        expiresAt: nowMs + 3_600_000,
      }),
    },
  };
}

/**
 * The durable floor: raw WAL + synchronous=FULL commits of one 1 KiB row, each followed by an fsynced
 * temp-file rename and a directory fsync — per commit the same fsyncs and rename as one store write (its
 * commit, then the anchor's temp file, rename and directory). `run(commits)` returns the seconds taken.
 */
function openDurableFloor(dir: string): { run(commits: number): number; close(): void } {
  const db = new Database(join(dir, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const body = Buffer.alloc(1024, 1);
  const target = join(dir, 'floor-anchor.json');
  let sequence = 0;
  return {
    run(commits: number): number {
      const start = process.hrtime.bigint();
      for (let i = 0; i < commits; i += 1) {
        begin.run();
        insert.run(body);
        commit.run();
        const temp = `${target}.tmp`;
        const fd = openSync(temp, constants.O_CREAT | constants.O_TRUNC | constants.O_WRONLY, 0o600);
        writeSync(fd, `{"sequence":${(sequence += 1)}}`);
        fsyncSync(fd);
        closeSync(fd);
        renameSync(temp, target);
        fsyncDirectory(dir);
      }
      return Number(process.hrtime.bigint() - start) / 1e9;
    },
    close() {
      db.close();
    },
  };
}

/** Rounds the lifecycles and the floor alternate in, so both see the same disk and machine load. */
const ROUNDS = 12;

/** Rounds of audit verification and raw HMAC, alternating, each reported as its median. */
const VERIFY_ROUNDS = 5;

/**
 * Runs one round of an interleaved comparison, the order alternating by round, so load from elsewhere and
 * warm-up fall on both sides alike.
 */
function inAlternatingOrder(round: number, a: () => void, b: () => void): void {
  if (round % 2 === 0) {
    a();
    b();
  } else {
    b();
    a();
  }
}

interface TimeSplit {
  readonly userMs: number[];
  readonly systemMs: number[];
  readonly waitMs: number[];
}

function timeSplit(): TimeSplit {
  return { userMs: [], systemMs: [], waitMs: [] };
}

/** One round's time per lifecycle, split into the process's user CPU, its system CPU and the rest (waiting, mostly on fsync). */
function splitPerLifecycle(into: TimeSplit, seconds: number, cpu: NodeJS.CpuUsage, count: number): void {
  const userMs = cpu.user / 1000 / count;
  const systemMs = cpu.system / 1000 / count;
  into.userMs.push(userMs);
  into.systemMs.push(systemMs);
  into.waitMs.push(Math.max(0, (seconds * 1000) / count - userMs - systemMs));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function memoryAnchor(): AntiRollbackAnchor & { value: AnchorRecord | null } {
  return {
    value: null,
    read() {
      return this.value;
    },
    write(record) {
      this.value = record;
    },
  };
}

export async function runStoreBenchmarks(options: StoreBenchOptions): Promise<readonly StoreBenchRow[]> {
  const { dir, n } = options;
  const lifecycles = options.lifecycles ?? 60;
  const note = options.note ?? (() => undefined);
  if (!Number.isSafeInteger(n) || n < 1) throw new TypeError('runStoreBenchmarks: "n" must be a positive integer');
  const masterKey = generateMasterKey();
  let now = 1_800_000_000_000;
  const clock = () => (now += 1);
  const rows: StoreBenchRow[] = [];

  // 1. Full lifecycles against the durable floor, same disk, same run: interleaved in rounds (the order
  // alternating), so a burst of load from elsewhere on a shared machine falls on both alike.
  note(`contract-store: ${lifecycles} durable lifecycles against the floor, in ${ROUNDS} interleaved rounds`);
  const lifeDir = scratch(dir, 'life-');
  const anchorDir = scratch(dir, 'anchor-');
  const store = await SqliteRecoveryContractStore.open(baseOptions(lifeDir, masterKey, clock, { file: join(anchorDir, 'anchor.json') }));
  const ex = ExecutorContractStore.of(store);
  const floor = openDurableFloor(scratch(dir, 'floor-'));
  // Warm-up, untimed: the store's write path runs its first lifecycles before the JIT has compiled it (the
  // first ten took half as long again as the next), the floor's loop is trivially warm — steady state
  // against steady state.
  let next = 0;
  for (; next < WARM_UP_LIFECYCLES; next += 1) lifecycle(store, ex, next, now);
  floor.run(WARM_UP_LIFECYCLES * COMMITS_PER_LIFECYCLE);
  const lifeRates: number[] = [];
  const floorRates: number[] = [];
  const life = timeSplit();
  const floorSplit = timeSplit();
  for (let round = 0; round < ROUNDS; round += 1) {
    const count = Math.floor(lifecycles / ROUNDS) + (round < lifecycles % ROUNDS ? 1 : 0);
    const runLifecycles = () => {
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < count; k += 1) lifecycle(store, ex, next++, now);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      lifeRates.push(count / seconds);
      splitPerLifecycle(life, seconds, process.cpuUsage(cpu0), count);
    };
    const runFloor = () => {
      const cpu0 = process.cpuUsage();
      const seconds = floor.run(count * COMMITS_PER_LIFECYCLE);
      floorRates.push(count / seconds);
      splitPerLifecycle(floorSplit, seconds, process.cpuUsage(cpu0), count);
    };
    inAlternatingOrder(round, runLifecycles, runFloor);
  }
  store.close();
  floor.close();
  // The median round of each: a burst of I/O from elsewhere that lands on one side of one round is dropped
  // instead of being summed into the total.
  rows.push(row('contract-store: full lifecycles/s vs durable floor', median(lifeRates), 'lifecycles/s', median(floorRates), 0.5));
  // Where a lifecycle's time goes, beside the floor's for its 7 commits (diagnostic rows, no target): the process's
  // user CPU (JavaScript and SQLite), its system CPU (the kernel: syscalls, page-cache writes, fsync's own work), both
  // from node:process cpuUsage over all threads, and the rest of the wall time, waiting on the disk. The ratio above
  // is the floor's sum over the store's: a disk that syncs faster shrinks both waits, so the same CPU weighs more.
  rows.push(
    row('contract-store: user CPU ms per lifecycle vs the floor (diagnostic)', median(life.userMs), 'ms', median(floorSplit.userMs)),
  );
  rows.push(
    row('contract-store: system CPU ms per lifecycle vs the floor (diagnostic)', median(life.systemMs), 'ms', median(floorSplit.systemMs)),
  );
  rows.push(
    row('contract-store: disk-wait ms per lifecycle vs the floor (diagnostic)', median(life.waitMs), 'ms', median(floorSplit.waitMs)),
  );

  // 2. A large store (n contracts through the real operations, batched into few commits, in-memory anchor).
  note(`contract-store: building a store of ${n} contracts`);
  const bigDir = scratch(dir, 'big-');
  const anchor = memoryAnchor();
  const big = await SqliteRecoveryContractStore.open(baseOptions(bigDir, masterKey, clock, anchor));
  const bigEx = ExecutorContractStore.of(big);
  const BATCH = 500;
  for (let i = 0; i < n; i += BATCH) {
    inOneTransaction(big, () => {
      for (let j = i; j < Math.min(n, i + BATCH); j += 1) lifecycle(big, bigEx, lifecycles + 1 + j, now);
    });
  }
  big.compact();
  big.close();
  const bytes = statSync(join(bigDir, 'contracts.sqlite')).size;
  rows.push(row('contract-store: bytes per contract (full lifecycle, 7 audit rows)', bytes / n, 'bytes'));

  const o0 = process.hrtime.bigint();
  const reopened = await SqliteRecoveryContractStore.open(baseOptions(bigDir, masterKey, clock, anchor));
  rows.push(row(`contract-store: open with full verification at ${n} contracts`, Number(process.hrtime.bigint() - o0) / 1e6, 'ms'));

  // 3. Audit-chain verification vs raw HMAC-SHA256 (the same node:crypto HMAC the store uses, via @pfsense-mcp/crypto) over the same bytes.
  const keys = loadStoreKeys({ masterKey }, 'bench');
  const db = new Database(join(bigDir, 'contracts.sqlite'), { readonly: true });
  const storeId = (db.prepare('SELECT store_id FROM store_meta').get() as { store_id: string }).store_id;
  const inputs: Buffer[] = [];
  for (const r of db.prepare('SELECT sequence, contract_id, body, mac FROM audit_events ORDER BY sequence').iterate() as Iterable<{
    sequence: number;
    contract_id: string;
    body: Buffer;
    mac: Buffer;
  }>) {
    inputs.push(auditMacInputForBenchmark(storeId, r.sequence, r.contract_id, new Uint8Array(32), r.body));
  }
  db.close();
  const verifySeconds: number[] = [];
  const rawSeconds: number[] = [];
  const timeVerify = () => {
    const v0 = process.hrtime.bigint();
    const verdict = reopened.verifyAuditChain();
    verifySeconds.push(Number(process.hrtime.bigint() - v0) / 1e9);
    if (!verdict.ok) throw new Error('benchmark store failed verification');
  };
  const timeRaw = () => {
    const h0 = process.hrtime.bigint();
    for (const bytesIn of inputs) hmacSha256(keys.auditChain, bytesIn);
    rawSeconds.push(Number(process.hrtime.bigint() - h0) / 1e9);
  };
  // Interleaved rounds, the order alternating, and the median of each: one sample of either is at the
  // mercy of whatever else the machine runs at that moment.
  for (let round = 0; round < VERIFY_ROUNDS; round += 1) {
    inAlternatingOrder(round, timeVerify, timeRaw);
  }
  reopened.close();
  rows.push(row(`contract-store: verifyAuditChain at ${n} contracts`, median(verifySeconds) * 1000, 'ms'));
  rows.push(
    row(
      'contract-store: audit verification rows/s vs raw HMAC',
      inputs.length / median(verifySeconds),
      'rows/s',
      inputs.length / median(rawSeconds),
      0.5,
    ),
  );
  return Object.freeze(rows);
}

export interface FillClosedContractsOptions {
  /** The store directory of a write directory (`pfsense-mcp admin init`: DIR/store). */
  readonly directory: string;
  readonly masterKey: Uint8Array;
  /** That store's anti-rollback anchor file (DIR/anchors/contracts.anchor). */
  readonly anchorFile: string;
  /** Closed contracts to add (each a full lifecycle ending ROLLED_BACK, 7 audited writes). */
  readonly n: number;
}

/**
 * Fills an initialized write directory's contract store with `n` closed contracts, for a server start-up
 * benchmark over a store with history (tools/bench `cold-start`, write_protected). Opens and closes the store.
 */
export async function fillClosedContracts(options: FillClosedContractsOptions): Promise<{ readonly openMs: number }> {
  if (!Number.isSafeInteger(options.n) || options.n < 1) throw new TypeError('fillClosedContracts: "n" must be a positive integer');
  const now = Date.now();
  const store = await SqliteRecoveryContractStore.open(
    baseOptions(options.directory, options.masterKey, () => now, { file: options.anchorFile }),
  );
  try {
    const ex = ExecutorContractStore.of(store);
    const BATCH = 500;
    for (let i = 0; i < options.n; i += BATCH) {
      inOneTransaction(store, () => {
        for (let j = i; j < Math.min(options.n, i + BATCH); j += 1) lifecycle(store, ex, j, now);
      });
    }
  } finally {
    store.close();
  }
  // What a server start pays for this store: open with full verification (MACs, audit chain, anchor).
  const t0 = process.hrtime.bigint();
  const reopened = await SqliteRecoveryContractStore.open(
    baseOptions(options.directory, options.masterKey, () => now, { file: options.anchorFile }),
  );
  const openMs = Number(process.hrtime.bigint() - t0) / 1e6;
  reopened.close();
  return Object.freeze({ openMs });
}
