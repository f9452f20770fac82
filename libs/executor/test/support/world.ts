// Shared test world: a loopback simulator with a fixed alias list, a real store in a temp dir, real HTTP
// transports (reads straight, writes through a FaultProxyTransport so sends are counted), and contracts
// prepared the way the coordinator will prepare them (fresh read → normalized intent → digests → create →
// PREPARED → confirmed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AliasDescriptionAdapter, normalizeAliasDescriptionIntent } from '@pfsense-mcp/adapters';
import type { AliasTarget } from '@pfsense-mcp/adapters';
import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type {
  AntiRollbackAnchor,
  AnchorRecord,
  ContractStoreOptions,
  NewContractInput,
  RecoveryContract,
} from '@pfsense-mcp/contract-store';
import { ExecutorContractStore } from '@pfsense-mcp/contract-store/executor';
import { generateMasterKey } from '@pfsense-mcp/crypto';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { privilegeFor, startSimulator } from '@pfsense-mcp/pfsense-sim';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { ALIAS_WRITE_POLICY } from '@pfsense-mcp/policy';
import type { MutationPolicy } from '@pfsense-mcp/policy';
import { LOOSE_RATE_LIMITS, simulatorTransport } from '@pfsense-mcp/test-support';
import { FaultProxyTransport } from '@pfsense-mcp/transports';
import type { HttpTransport, Transport } from '@pfsense-mcp/transports';
import { WriteApiClient } from '@pfsense-mcp/write-client';
import { MutationExecutor } from '../../src/index.js';

/** The real alias-description adapter: tests drive the executor with exactly what the product uses. */
export const ADAPTER: typeof AliasDescriptionAdapter = AliasDescriptionAdapter;

export const T0 = 1_800_000_000_000;
export const HOUR = 3_600_000;
export const ALIAS_PATH = '/api/v2/firewall/alias';
export const ALIASES_PATH = '/api/v2/firewall/aliases';

/** The simulator's alias list for every test (ids are positions). */
export const ALIASES = Object.freeze([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1', '10.0.0.2'], detail: ['nas', 'printer'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
  { name: 'Office_Nets', type: 'network', descr: '', address: ['10.1.0.0/24'], detail: ['LAN'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
]);

/** A key that may read aliases but not PATCH one: its PATCH gets pfrest's 403 envelope. */
export const READ_ONLY_KEY = 'read-only-key-for-executor-tests-0123456789';

/** The simulator; `extraAliases` are appended after ALIASES (so their ids do not move). */
export async function startTestSimulator(extraAliases: readonly (typeof ALIASES)[number][] = []): Promise<RunningSimulator> {
  return startSimulator({
    data: { [ALIASES_PATH]: [...ALIASES, ...extraAliases] },
    now: () => new Date(T0),
    credentials: [{ auth: 'key', secret: READ_ONLY_KEY, privileges: [privilegeFor(ALIASES_PATH, 'GET')] }],
  });
}

/** In-memory anchor whose witness can be moved ahead (a restored older database) to exercise the refusal. */
export class MemoryAnchor implements AntiRollbackAnchor {
  record: AnchorRecord | null = null;
  rolledBack = false;
  read(): AnchorRecord | null {
    if (this.rolledBack && this.record !== null) return { ...this.record, sequence: this.record.sequence + 1000 };
    return this.record;
  }
  write(record: AnchorRecord): void {
    this.record = { ...record };
  }
}

export interface World {
  readonly dir: string;
  readonly anchorFile: string;
  readonly masterKey: Uint8Array;
  readonly clock: { now: number };
  readonly store: SqliteRecoveryContractStore;
  readonly executorStore: ExecutorContractStore;
  readonly readClient: RestApiClient;
  /** The write path's fault proxy: sendCount counts calls forwarded to the wire. */
  readonly writeProxy: FaultProxyTransport;
  readonly executor: MutationExecutor;
  /** A new executor over the same store with another write transport (mock, refused port, other key). */
  executorWith(write: Transport, extra?: { policy?: MutationPolicy; read?: Transport }): MutationExecutor;
  options(extra?: Partial<ContractStoreOptions>): ContractStoreOptions;
  cleanup(): void;
}

const confirmationVerifier: ContractStoreOptions['confirmationVerifier'] = {
  verify(contract, evidence, nowMs) {
    const e = evidence as { accept?: boolean; expiresAt?: number } | null;
    if (e === null || typeof e !== 'object' || e.accept !== true) throw new Error('confirmation refused');
    return {
      confirmationId: `conf-${contract.contract_id}`,
      confirmationDigest: 'c'.repeat(64),
      authorityKeyId: 'a'.repeat(64),
      contractId: contract.contract_id,
      expiresAt: e.expiresAt ?? nowMs + HOUR / 2,
    };
  },
};

export async function makeWorld(
  sim: { url: string; apiKey: string },
  extra: { anchor?: AntiRollbackAnchor; writeTimeoutMs?: number; maxResponseBytes?: number } = {},
): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'executor-store-'));
  const anchorDir = mkdtempSync(join(tmpdir(), 'executor-anchor-'));
  const anchorFile = join(anchorDir, 'anchor.json');
  const masterKey = generateMasterKey();
  const clock = { now: T0 };
  const options = (more: Partial<ContractStoreOptions> = {}): ContractStoreOptions => ({
    directory: dir,
    masterKey,
    clock: () => clock.now,
    anchor: extra.anchor ?? { file: anchorFile },
    confirmationVerifier,
    rateLimits: LOOSE_RATE_LIMITS,
    ...more,
  });
  const store = await SqliteRecoveryContractStore.open(options());
  const executorStore = ExecutorContractStore.of(store);
  const transports: HttpTransport[] = [];
  const track = <T extends HttpTransport>(t: T): T => {
    transports.push(t);
    return t;
  };
  const readClient = new RestApiClient(track(simulatorTransport(sim)));
  const writeProxy = new FaultProxyTransport(
    track(
      simulatorTransport(sim, { responseTimeoutMs: extra.writeTimeoutMs ?? 5000, maxResponseBytes: extra.maxResponseBytes ?? 256 * 1024 }),
    ),
  );
  const executorWith = (write: Transport, more: { policy?: MutationPolicy; read?: Transport } = {}): MutationExecutor =>
    new MutationExecutor({
      store: executorStore,
      writeClient: new WriteApiClient(write),
      readClient: more.read === undefined ? readClient : new RestApiClient(more.read),
      policy: more.policy ?? ALIAS_WRITE_POLICY,
      clock: () => clock.now,
    });
  const executor = executorWith(writeProxy);
  return {
    dir,
    anchorFile,
    masterKey,
    clock,
    store,
    executorStore,
    readClient,
    writeProxy,
    executor,
    executorWith,
    options,
    cleanup() {
      store.close();
      for (const t of transports) t.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(anchorDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;

export interface Prepared {
  readonly contract: RecoveryContract;
  /** The normalized intent the caller holds. */
  readonly intent: ReturnType<typeof normalizeAliasDescriptionIntent>;
  readonly pre: AliasTarget;
  readonly input: NewContractInput;
}

/** Builds the contract input from a fresh authoritative read, as the coordinator does. */
export async function contractInputFor(
  readClient: RestApiClient,
  aliasName: string,
  description: string,
  overrides: Partial<NewContractInput> = {},
): Promise<Omit<Prepared, 'contract'>> {
  const a = ADAPTER;
  const pre = await a.readTarget(readClient, { alias_name: aliasName });
  const intent = normalizeAliasDescriptionIntent({ alias_name: aliasName, description }, pre);
  const identity = a.naturalIdentity(intent.raw_target_hint);
  const snapshot = a.snapshotOf(pre);
  counter += 1;
  const input: NewContractInput = {
    operation_id: `op-${process.pid}-${counter}`,
    capability: a.capability,
    endpoint_symbol: a.endpointSymbol,
    http_method: a.httpMethod as 'PATCH',
    target_identity_digest: a.identityDigest(identity),
    target_fingerprint: a.fingerprint(pre),
    intent_digest: a.intentDigest(intent),
    snapshot_digest: a.snapshotDigest(snapshot),
    rollback_plan_version: a.rollbackPlanVersion,
    lifecycle_locator: a.transportLocator(pre),
    provenance: {
      authorization_id: `auth-${process.pid}-${counter}`,
      plan_digest: '9'.repeat(64),
      step_id: 'step-1',
      execution_intent_digest: 'e'.repeat(64),
      authorization_expires_at: T0 + 2 * HOUR,
    },
    expires_at: T0 + HOUR,
    target_identity: identity as never,
    intent: intent as never,
    snapshot: snapshot as never,
    ...overrides,
  };
  return { intent, pre, input };
}

/** create → PREPARED → confirmed (unless `confirm: false`). */
export async function prepare(
  world: Pick<World, 'store' | 'readClient'>,
  aliasName: string,
  description: string,
  opts: { overrides?: Partial<NewContractInput>; confirm?: boolean } = {},
): Promise<Prepared> {
  const built = await contractInputFor(world.readClient, aliasName, description, opts.overrides);
  const created = world.store.create(built.input);
  let contract = world.store.markPrepared(created.contract_id, created.state_version);
  if (opts.confirm !== false) contract = world.store.confirm(contract.contract_id, { accept: true });
  return { ...built, contract };
}

/** The alias as the simulator serves it now (by name). */
export async function currentAlias(readClient: RestApiClient, name: string): Promise<Record<string, unknown> | undefined> {
  const items = (await readClient.readAllPages(ALIASES_PATH)) as Record<string, unknown>[];
  return items.find((i) => i.name === name);
}

export function patchCount(sim: RunningSimulator): number {
  return sim.control.count(ALIAS_PATH, 'PATCH');
}

/** Transitions of one contract from the audit log (kind, from, to, outcome class). */
export function auditTrail(store: SqliteRecoveryContractStore, contractId: string): readonly string[] {
  return store
    .listAuditEvents({ contractId, limit: 100 })
    .map((e) => `${e.kind}:${e.from_state ?? '-'}>${e.to_state}:${e.outcome_class ?? '-'}`);
}

/** Admin-side edits of the simulator (the "someone else changed the firewall" of the drift tests). */
export async function adminWrite(
  sim: { url: string; apiKey: string },
  method: 'PATCH' | 'POST' | 'DELETE',
  body: Record<string, unknown>,
): Promise<void> {
  const t = simulatorTransport(sim);
  try {
    const r = await t.request(method, ALIAS_PATH, { body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`admin ${method} failed: ${r.status}`);
  } finally {
    t.close();
  }
}
