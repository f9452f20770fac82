// The lab's composition root (docs/DESIGN.md §2, §7): the ONE lab-runner file that may
// import write-client or transports (lint: tools/layers/layers.mjs LAB_RUNTIME_FACTORY). It builds, from
// fixed configuration and the scenario's exact registry entry only: the read client, the store (reopened
// from the scenario's private directory), the subject executor over the scenario-selected fault proxy,
// a separate orchestration executor over a clean proxy, and an operation driver for each (the app's public API:
// its gatekeeper is its own).
import { join } from 'node:path';
import {
  AliasDescriptionAdapter,
  FIREWALL_RULES_PATH,
  DEFAULT_MAX_PREFIX_V4,
  DEFAULT_MAX_PREFIX_V6,
  createAliasEntriesAdapter,
} from '@pfsense-mcp/adapters';
import type { AliasEntriesTarget, AliasTarget } from '@pfsense-mcp/adapters';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { CapabilityRegistry, OperationDriver, createStoreEvidenceVerifiers, readApplianceBinding } from '@pfsense-mcp/coordinator';
import { MAX_ALIAS_MEMBERS } from '@pfsense-mcp/authorization';
import type { ApplianceBinding } from '@pfsense-mcp/authorization';
import { readApiKeyFile, readMasterKeyFile } from '@pfsense-mcp/crypto';
import { CONFIG_HISTORY_REVISIONS_PATH, MutationExecutor } from '@pfsense-mcp/executor';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { ALIAS_ENTRIES_WRITE_POLICY_ENTRY, ALIAS_WRITE_POLICY_ENTRY, MutationPolicy, Profile } from '@pfsense-mcp/policy';
import { FAULT_DELIVERY, FaultProxyTransport, createHttpTransport } from '@pfsense-mcp/transports';
import type { HttpTransport, Transport, TransportRequestOptions, TransportResponse } from '@pfsense-mcp/transports';
import { WriteApiClient, WriteEndpoints } from '@pfsense-mcp/write-client';
import { z } from 'zod';
import { LabError } from './lab-error.js';
import { ALIASES_PATH, APPLY_PATH, LAB_RATE_LIMITS, LAB_TLS_MODE, RESTAPI_VERSION_PATH, TABLES_PATH } from './lab-fixture.js';
import { operatorAuthorities, serverAuthorities } from './lab-keys.js';
import type { LabKeys, LabPins } from './lab-keys.js';
import { SCENARIOS } from './scenario-registry.js';
import type { ScenarioDefinition } from './scenario-definition.js';

/** Fixed configuration of one scenario's runtime (never command-line data). */
export interface LabFixedConfig {
  /**
   * The scenario's simulator child (loopback URL and its 0600 API key file), or the disposable appliance of
   * a lab config (its URL, API key file, CA file and TLS mode; `simulated: false` — no simulator counters).
   */
  readonly simulator: LabTarget;
  /** The scenario's private 0700 directory (store, master key, inboxes/outboxes). */
  readonly scenarioDir: string;
  readonly keys: LabKeys;
  /** Public keys pinned besides `keys` (a resumed run's earlier keys; the owner's reconciliation key). */
  readonly pins?: LabPins;
}

/** Where the runner connects: a simulator child, or the appliance a lab config names. */
export interface LabTarget {
  readonly url: string;
  readonly apiKeyFile: string;
  readonly caFile?: string | null;
  readonly tlsMode?: 'http-loopback' | 'https-system-ca' | 'https-ca-file';
  /** False for an appliance of a lab config: no /__sim/ control endpoint there. Default true. */
  readonly simulated?: boolean;
}

/** Where a scenario's durable files live (fixed layout inside its private directory). */
export function scenarioPaths(scenarioDir: string) {
  return Object.freeze({
    storeDir: join(scenarioDir, 'store'),
    masterKeyFile: join(scenarioDir, 'store', 'master.key'),
    anchorFile: join(scenarioDir, 'anchor.json'),
    subjectInbox: join(scenarioDir, 'subject', 'inbox'),
    subjectOutbox: join(scenarioDir, 'subject', 'outbox'),
    orchestrationInbox: join(scenarioDir, 'orchestration', 'inbox'),
    orchestrationOutbox: join(scenarioDir, 'orchestration', 'outbox'),
  });
}

export interface LabSide {
  readonly driver: OperationDriver;
  readonly inbox: string;
  readonly outbox: string;
}

export interface LabRuntime {
  readonly scenario: ScenarioDefinition;
  readonly store: SqliteRecoveryContractStore;
  /** The subject: the scenario's contract, executed over the scenario-selected fault proxy. */
  readonly subject: LabSide;
  /** Orchestration: its own executor and operation driver over a clean proxy (sends counted apart). */
  readonly orchestration: LabSide;
  /** Contract ids the subject executor's construction moved to RECONCILIATION (restart reconciliation). */
  readonly reconciledAtStart: readonly string[];
  /** Sends forwarded by the subject proxy / calls it received / sends of the orchestration proxy. */
  subjectSends(): number;
  subjectCalls(): number;
  orchestrationSends(): number;
  /** GET requests made by the shared read client. */
  reads(): number;
  /** Installs the registry's subject fault for this phase, if the scenario has one there (one hit). */
  armSubjectFault(phase: 'forward' | 'rollback'): void;
  /** Called whenever the subject proxy receives a call (before it decides to forward or hold). */
  onSubjectCall(listener: () => void): void;
  /** Every alias as the appliance returns it (one authoritative GET sequence). */
  readAliases(): Promise<readonly unknown[]>;
  /** One alias read through the alias adapter with the shared read client (exact name; the adapter's errors). */
  readAlias(aliasName: string): Promise<AliasTarget>;
  /** The appliance binding read fresh with the shared read client (ApplianceIdentityError). */
  readApplianceBinding(): Promise<ApplianceBinding>;
  /** pfSense's config-history revisions as pfrest serves them (one GET with the read client). */
  readConfigHistory(): Promise<unknown>;
  /** The simulator's own per-route request counters (the appliance side of every count). */
  applianceCounters(): Promise<Readonly<Record<string, number>>>;
  /** One alias read through the entries adapter (its lists and the rules that use it), for the entries scenarios. */
  readEntries(aliasName: string): Promise<AliasEntriesTarget>;
  /** The entries of pf's table named `name` as pfrest lists them (null: no such table). */
  readTable(name: string): Promise<readonly string[] | null>;
  /** What is pending on the appliance (GET /api/v2/firewall/apply: its pending subsystems). */
  readPending(): Promise<readonly string[]>;
  /**
   * POST /api/v2/firewall/apply: applies what the lab itself left pending (entries-foreign-pending's description
   * changes, which pfrest stages without applying). Never a subject or orchestration send; not an alias write.
   */
  applyPending(): Promise<void>;
  /**
   * `stale-table`: the simulator's reloads clear the pending change but leave pf's tables; against an appliance the
   * read client's table reads replay the tables as read now (StaleTablesTransport). `sync`: as before.
   */
  setApplyMode(mode: 'sync' | 'stale-table'): Promise<void>;
  close(): void;
}

/** Counts GETs of the read client. */
class CountingTransport implements Transport {
  count = 0;
  constructor(private readonly inner: Transport) {}
  request(method: Parameters<Transport['request']>[0], path: string, options?: TransportRequestOptions): Promise<TransportResponse> {
    this.count += 1;
    return this.inner.request(method, path, options);
  }
}

/**
 * entries-table-stale against an appliance, which cannot be told to skip a reload: while stale, every GET of pf's
 * tables through the read client answers the tables as read when it turned stale — to the executor and the owner a
 * table the reload did not update, as the simulator's `stale-table` apply mode makes it. Off, reads pass again.
 */
class StaleTablesTransport implements Transport {
  #frozen: TransportResponse | null = null;
  constructor(private readonly inner: Transport) {}
  async freeze(): Promise<void> {
    this.#frozen = await this.inner.request('GET', TABLES_PATH);
  }
  thaw(): void {
    this.#frozen = null;
  }
  request(method: Parameters<Transport['request']>[0], path: string, options?: TransportRequestOptions): Promise<TransportResponse> {
    if (this.#frozen !== null && method === 'GET' && path === TABLES_PATH) return Promise.resolve(this.#frozen);
    return this.inner.request(method, path, options);
  }
}

/** Tells a listener that the subject proxy got a call (the G scenarios kill the process while it is held). */
class ObservedTransport implements Transport {
  readonly listeners: (() => void)[] = [];
  constructor(private readonly inner: Transport) {}
  request(method: Parameters<Transport['request']>[0], path: string, options?: TransportRequestOptions): Promise<TransportResponse> {
    for (const l of this.listeners) l();
    return this.inner.request(method, path, options);
  }
}

const HOLD_MS = 600_000;
// Both alias writes are one route and method (PATCH /api/v2/firewall/alias): a fault there hits either capability.
const PATCH = WriteEndpoints.FIREWALL_ALIAS_PATCH;
const ALIAS_POLICY = MutationPolicy.of([ALIAS_WRITE_POLICY_ENTRY, ALIAS_ENTRIES_WRITE_POLICY_ENTRY]);
/**
 * The entries adapter with the product's broadest bounds and no protected network: the lab blocks documentation
 * addresses (RFC 5737) in its own candidate alias. One frozen instance for every scenario.
 */
const ENTRIES_ADAPTER = createAliasEntriesAdapter({
  maxPrefixV4: DEFAULT_MAX_PREFIX_V4,
  maxPrefixV6: DEFAULT_MAX_PREFIX_V6,
  protectedNetworks: [],
  maxMembers: MAX_ALIAS_MEMBERS,
});
const SIMULATOR_FILTER_DELAYS_MS = Object.freeze([0, 250, 500, 1000]);
const CAPABILITIES = CapabilityRegistry.of([AliasDescriptionAdapter, ENTRIES_ADAPTER]);
const tablesSchema = z.array(z.object({ name: z.string(), entries: z.union([z.array(z.string()), z.string()]) }).loose());
const pendingSchema = z.object({ pending_subsystems: z.array(z.string()).nullable().optional() }).loose();

/**
 * The declared upstream delivery of the scenario's fault must be what the proxy's own FAULT_DELIVERY says
 * for that kind — checked before anything runs; timing never decides.
 */
export function checkFaultDelivery(scenario: ScenarioDefinition): void {
  const f = scenario.fault;
  if (f.kind === 'proxy-fault') {
    if (FAULT_DELIVERY[f.proxyKind].reachesUpstream !== (f.upstreamDelivery === 'reached')) {
      throw new LabError('FAULT_DELIVERY_MISMATCH', `scenario ${scenario.id}: declared upstream delivery disagrees with the fault proxy`);
    }
  } else if (f.kind === 'sigkill' && f.holdKind !== null) {
    const d = FAULT_DELIVERY[f.holdKind];
    // A held send is never forwarded before the process dies: the hold kind must be one that does not reach upstream.
    if (d.reachesUpstream || f.upstreamDelivery !== 'not-reached') {
      throw new LabError('FAULT_DELIVERY_MISMATCH', `scenario ${scenario.id}: the hold must not reach the appliance`);
    }
  }
}

function targetTransport(target: LabTarget, apiKey: string): HttpTransport {
  const tlsMode = target.tlsMode ?? LAB_TLS_MODE;
  return createHttpTransport({
    baseUrl: target.url,
    // Plain http only for the loopback TLS mode (a simulator on 127.0.0.1; the transport refuses any other host).
    allowHttpLoopback: tlsMode === LAB_TLS_MODE,
    ...(target.caFile ? { caFile: target.caFile } : {}),
    authHeader: { name: 'X-API-Key', value: apiKey },
    // The product's defaults: a slow answer on a loaded machine must not turn into a lost response (an
    // AMBIGUOUS send); the only held request is the proxy's, on purpose.
    connectTimeoutMs: 10_000,
    responseTimeoutMs: 30_000,
    maxResponseBytes: 4 * 1024 * 1024,
    keepAlive: false,
  });
}

const countersSchema = z.object({ counters: z.record(z.string(), z.number().int().nonnegative()) });

/**
 * Builds a scenario's runtime. `scenario` must be the exact registry object (identity-checked). Opening the
 * store authenticates it; constructing the subject executor reconciles what an earlier, dead process left
 * EXECUTING or ROLLING_BACK (that is the restart of the G scenarios).
 */
export async function buildLabRuntime(scenario: ScenarioDefinition, fixed: LabFixedConfig): Promise<LabRuntime> {
  if (!SCENARIOS.includes(scenario)) throw new TypeError('buildLabRuntime: "scenario" must be an entry of SCENARIOS');
  checkFaultDelivery(scenario);
  const paths = scenarioPaths(fixed.scenarioDir);
  const apiKey = readApiKeyFile(fixed.simulator.apiKeyFile);
  const masterKey = readMasterKeyFile(paths.masterKeyFile);
  const clock = (): number => Date.now();
  const authorities = operatorAuthorities(fixed.keys, fixed.pins);
  const transports: HttpTransport[] = [];
  const open = (): HttpTransport => {
    const t = targetTransport(fixed.simulator, apiKey);
    transports.push(t);
    return t;
  };
  const store = await SqliteRecoveryContractStore.open({
    directory: paths.storeDir,
    masterKey,
    clock,
    anchor: { file: paths.anchorFile },
    rateLimits: LAB_RATE_LIMITS,
    ...createStoreEvidenceVerifiers({ authorities }),
  });
  let consumption: SqliteConsumptionStore | undefined;
  try {
    consumption = await SqliteConsumptionStore.open({ directory: paths.storeDir, masterKey, clock });
    const tables = new StaleTablesTransport(open());
    const reads = new CountingTransport(tables);
    const readClient = new RestApiClient(reads);
    const subjectProxy = new FaultProxyTransport(open());
    const observed = new ObservedTransport(subjectProxy);
    const orchestrationProxy = new FaultProxyTransport(open());
    const control = open();
    masterKey.fill(0);

    const appliance = Object.freeze({ baseUrl: fixed.simulator.url, tlsMode: fixed.simulator.tlsMode ?? LAB_TLS_MODE });
    const side = (executor: MutationExecutor, inbox: string, outbox: string): LabSide => {
      const driver = new OperationDriver({
        capabilities: CAPABILITIES,
        store,
        consumption: consumption as SqliteConsumptionStore,
        executor,
        readClient,
        policy: ALIAS_POLICY,
        profile: Profile.WRITE_PROTECTED,
        authorities,
        appliance,
        inboxDirectory: inbox,
        outboxDirectory: outbox,
        serverKey: { privateKey: fixed.keys.server.privateKey },
        serverAuthorities: serverAuthorities(fixed.keys, fixed.pins),
        clock,
      });
      return Object.freeze({ driver, inbox, outbox });
    };
    // The simulator reloads synchronously: its pf table is right at the first look or never (entries-table-stale),
    // so a short bound there; an appliance gets the product's own (its apply timing is what the report records).
    const filterDelays = fixed.simulator.simulated === false ? {} : { filterVerificationDelaysMs: SIMULATOR_FILTER_DELAYS_MS };
    const subjectExecutor = new MutationExecutor({
      store,
      writeClient: new WriteApiClient(observed),
      readClient,
      policy: ALIAS_POLICY,
      clock,
      ...filterDelays,
    });
    const orchestrationExecutor = new MutationExecutor({
      store,
      writeClient: new WriteApiClient(orchestrationProxy),
      readClient,
      policy: ALIAS_POLICY,
      clock,
      ...filterDelays,
    });
    const reconciled = [...subjectExecutor.reconciledAtStart, ...orchestrationExecutor.reconciledAtStart].map((r) => r.contract_id);
    const f = scenario.fault;
    const faultPhase =
      f.kind === 'proxy-fault'
        ? f.phase
        : f.kind === 'sigkill' && f.holdKind !== null
          ? f.phase === 'forward-send'
            ? 'forward'
            : 'rollback'
          : null;
    let closed = false;
    const held = consumption;
    return Object.freeze({
      scenario,
      store,
      subject: side(subjectExecutor, paths.subjectInbox, paths.subjectOutbox),
      orchestration: side(orchestrationExecutor, paths.orchestrationInbox, paths.orchestrationOutbox),
      reconciledAtStart: Object.freeze(reconciled),
      subjectSends: () => subjectProxy.sendCount,
      subjectCalls: () => subjectProxy.callCount,
      orchestrationSends: () => orchestrationProxy.sendCount,
      reads: () => reads.count,
      armSubjectFault(phase: 'forward' | 'rollback') {
        if (faultPhase !== phase) return;
        if (f.kind === 'proxy-fault') subjectProxy.setFault({ method: PATCH.method, path: PATCH.path, kind: f.proxyKind, times: 1 });
        else if (f.kind === 'sigkill' && f.holdKind !== null)
          subjectProxy.setFault({ method: PATCH.method, path: PATCH.path, kind: f.holdKind, ms: HOLD_MS, times: 1 });
      },
      onSubjectCall(listener: () => void) {
        observed.listeners.push(listener);
      },
      readAliases: () => readClient.readAllPages(ALIASES_PATH),
      readAlias: (aliasName: string) => AliasDescriptionAdapter.readTarget(readClient, { alias_name: aliasName }),
      readApplianceBinding: () => readApplianceBinding(readClient, appliance),
      readConfigHistory: async () => (await readClient.read(CONFIG_HISTORY_REVISIONS_PATH)).data,
      readEntries: (aliasName: string) => ENTRIES_ADAPTER.readTarget(readClient, { alias_name: aliasName }),
      async readTable(name: string) {
        const tables = tablesSchema.parse((await readClient.read(TABLES_PATH)).data);
        const found = tables.find((t) => t.name === name);
        if (found === undefined) return null;
        return Object.freeze(typeof found.entries === 'string' ? found.entries.split(/\s+/).filter((e) => e !== '') : [...found.entries]);
      },
      readPending: async () => Object.freeze([...(pendingSchema.parse((await readClient.read(APPLY_PATH)).data).pending_subsystems ?? [])]),
      async applyPending() {
        const r = await control.request('POST', APPLY_PATH, { body: '{}' });
        if (r.status !== 200) throw new LabError('APPLY_FAILED', `the apply answered ${r.status}`);
      },
      async setApplyMode(mode: 'sync' | 'stale-table') {
        if (fixed.simulator.simulated === false) {
          if (mode === 'stale-table') await tables.freeze();
          else tables.thaw();
          return;
        }
        const r = await control.request('POST', '/__sim/apply-mode', { body: JSON.stringify({ mode }) });
        if (r.status !== 200) throw new LabError('SIMULATOR_APPLY_MODE', `the simulator's apply mode answered ${r.status}`);
      },
      async applianceCounters() {
        if (fixed.simulator.simulated === false) throw new LabError('NO_COUNTERS', 'an appliance has no simulator counters');
        const r = await control.request('GET', '/__sim/counters');
        if (r.status !== 200) throw new LabError('SIMULATOR_COUNTERS', `the simulator's counters answered ${r.status}`);
        return Object.freeze({ ...countersSchema.parse(JSON.parse(r.body)).counters });
      },
      close() {
        if (closed) return;
        closed = true;
        for (const t of transports) t.close();
        held.close();
        store.close();
      },
    });
  } catch (e) {
    for (const t of transports) t.close();
    consumption?.close();
    store.close();
    throw e;
  }
}

/** GET-only reads of the appliance a lab config names: its binding, aliases and pending changes (preflight). */
export interface ApplianceReader {
  binding(): Promise<ApplianceBinding>;
  aliases(): Promise<readonly unknown[]>;
  /** The data of GET /api/v2/firewall/apply ({applied, pending_subsystems}). */
  applyStatus(): Promise<unknown>;
  /** The data of GET /api/v2/system/restapi/version. */
  restApiVersion(): Promise<unknown>;
  /** Every filter rule (GET /api/v2/firewall/rules, all pages): whether a rule uses the candidate. */
  rules(): Promise<readonly unknown[]>;
  /** GET requests made so far. */
  reads(): number;
  close(): void;
}

export function openApplianceReader(target: LabTarget): ApplianceReader {
  const transport = targetTransport(target, readApiKeyFile(target.apiKeyFile));
  const counting = new CountingTransport(transport);
  const client = new RestApiClient(counting);
  const one = async (path: string): Promise<unknown> => (await client.read(path)).data;
  return Object.freeze({
    binding: () => readApplianceBinding(client, { baseUrl: target.url, tlsMode: target.tlsMode ?? LAB_TLS_MODE }),
    aliases: () => client.readAllPages(ALIASES_PATH),
    applyStatus: () => one(APPLY_PATH),
    restApiVersion: () => one(RESTAPI_VERSION_PATH),
    rules: () => client.readAllPages(FIREWALL_RULES_PATH),
    reads: () => counting.count,
    close: () => transport.close(),
  });
}
