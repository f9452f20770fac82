// Test composition root: a loopback simulator, a real store, consumption ledger and executor in temp dirs,
// pinned Ed25519 authorities, the operation driver and its gatekeeper. Like the product's composition root,
// it is the one place that builds the write path (write client, executor store entry) and hands it over.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  createReconciliationEvidence,
  createReservationRelease,
  createRollbackAuthorization,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
} from '@pfsense-mcp/authorization';
import type { Artifact, PendingAuthorizationRequest, PendingConfirmationRequest, SigningKey } from '@pfsense-mcp/authorization';
import { CRASH_HOOKS, SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { ContractStoreOptions, CrashHooks } from '@pfsense-mcp/contract-store';
import { PinnedAuthoritySet, generateEd25519KeyPair, generateMasterKey, keyIdOf } from '@pfsense-mcp/crypto';
import type { AuthorityRole, PinnedAuthority } from '@pfsense-mcp/crypto';
import { MutationExecutor } from '@pfsense-mcp/executor';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { privilegeFor, startSimulator } from '@pfsense-mcp/pfsense-sim';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { ALIAS_WRITE_POLICY, Profile } from '@pfsense-mcp/policy';
import type { MutationPolicy, Profile as ProfileType } from '@pfsense-mcp/policy';
import { LOOSE_RATE_LIMITS, RecordingTransport, simulatorTransport } from '@pfsense-mcp/test-support';
import { FaultProxyTransport } from '@pfsense-mcp/transports';
import type { HttpTransport } from '@pfsense-mcp/transports';
import { WriteApiClient } from '@pfsense-mcp/write-client';
import { AliasDescriptionAdapter } from '@pfsense-mcp/adapters';
import {
  CapabilityRegistry,
  MemoryRefusalAudit,
  OperationDriver,
  StoreRefusalAudit,
  createStoreEvidenceVerifiers,
  readApplianceBinding,
} from '../../src/index.js';
import type { ConsumptionLedger, OperationDriverOptions } from '../../src/index.js';
import { Gatekeeper } from '../../src/gatekeeper.js';
import type { FreshRead } from '../../src/gatekeeper.js';
import { RefusalRecorder } from '../../src/refusal-recorder.js';

/** The alias-description capability, as every composition root registers it. */
export const ALIAS_WRITE = 'ALIAS_WRITE';
export const CAPABILITIES = CapabilityRegistry.of([AliasDescriptionAdapter]);

export const HOUR = 3_600_000;
export const ALIASES_PATH = '/api/v2/firewall/aliases';
export const ALIAS_PATH = '/api/v2/firewall/alias';
export const STATUS_PATH = '/api/v2/status/system';
export const NETGATE_ID = 'a1b2c3d4e5f60718';
export const TLS_MODE = 'http-loopback';

export const ALIASES = Object.freeze([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1', '10.0.0.2'], detail: ['nas', 'printer'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
]);

export const READ_ONLY_KEY = 'read-only-key-for-coordinator-tests-0123456789';

export async function startTestSimulator(extraData: Record<string, unknown> = {}): Promise<RunningSimulator> {
  return startSimulator({
    data: { [ALIASES_PATH]: ALIASES, [STATUS_PATH]: { platform: 'Netgate 4200', netgate_id: NETGATE_ID }, ...extraData },
    credentials: [{ auth: 'key', secret: READ_ONLY_KEY, privileges: [privilegeFor(ALIASES_PATH, 'GET')] }],
  });
}

/** Counts tryConsume calls (the spy of "no consumption on a failed gate"); isConsumed is a read. */
export class CountingLedger implements ConsumptionLedger {
  calls = 0;
  /** The issued_at the gatekeeper passed with its last tryConsume (the accepted-restore gate needs it). */
  lastIssuedAt: number | undefined;
  constructor(private readonly inner: ConsumptionLedger) {}
  tryConsume(id: string, issuedAt: number): boolean {
    this.calls += 1;
    this.lastIssuedAt = issuedAt;
    return this.inner.tryConsume(id, issuedAt);
  }
  isConsumed(id: string, issuedAt: number): boolean {
    return this.inner.isConsumed(id, issuedAt);
  }
}

export interface KeyPair {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
}

export function keyPair(): KeyPair {
  const k = generateEd25519KeyPair();
  return { privateKey: k.privateKey, publicKey: k.publicKey, keyId: keyIdOf(k.publicKey) };
}

export interface Keys {
  readonly authorization: KeyPair;
  readonly confirmation: KeyPair;
  readonly reconciliation: KeyPair;
  readonly server: KeyPair;
  /** Pinned nowhere. */
  readonly stranger: KeyPair;
  /** Pinned as plan-authorization but inactive. */
  readonly retired: KeyPair;
}

export function makeKeys(): Keys {
  return {
    authorization: keyPair(),
    confirmation: keyPair(),
    reconciliation: keyPair(),
    server: keyPair(),
    stranger: keyPair(),
    retired: keyPair(),
  };
}

export function pin(k: KeyPair, role: AuthorityRole, active = true): PinnedAuthority {
  return { keyId: k.keyId, publicKey: k.publicKey, role, active };
}

export function operatorAuthorities(keys: Keys): PinnedAuthoritySet {
  return PinnedAuthoritySet.of([
    pin(keys.authorization, 'plan-authorization'),
    pin(keys.confirmation, 'confirmation'),
    pin(keys.reconciliation, 'reconciliation'),
    pin(keys.server, 'server-request'),
    pin(keys.retired, 'plan-authorization', false),
  ]);
}

export function serverAuthorities(keys: Keys): PinnedAuthoritySet {
  return PinnedAuthoritySet.of([pin(keys.server, 'server-request')]);
}

export interface World {
  readonly dir: string;
  readonly inbox: string;
  readonly outbox: string;
  readonly clock: { now: number };
  readonly keys: Keys;
  readonly masterKey: Uint8Array;
  readonly store: SqliteRecoveryContractStore;
  readonly consumption: SqliteConsumptionStore;
  readonly ledger: CountingLedger;
  readonly reads: RecordingTransport;
  readonly writeProxy: FaultProxyTransport;
  /** The injected sink (stays empty in a world made with audit: 'store'). */
  readonly audit: MemoryRefusalAudit;
  /** The gates alone (the driver's own gatekeeper is private): built from the same parts and audit sink. */
  readonly gatekeeper: Gatekeeper;
  readonly driver: OperationDriver;
  /** What `driver` was built from (a test builds a second driver over other directories). */
  readonly driverOptions: OperationDriverOptions;
  /** A read of the binding and this alias, made only when gate 5 asks (what the driver hands authorizeAndCreate). */
  freshRead(aliasName: string): () => Promise<FreshRead>;
  storeOptions(): ContractStoreOptions;
  cleanup(): void;
}

export async function makeWorld(
  sim: { url: string; apiKey: string },
  extra: {
    profile?: ProfileType;
    policy?: MutationPolicy;
    keys?: Keys;
    crashHooks?: CrashHooks;
    /** 'store' = no injected sink: the driver's default (the store's chained audit). */
    audit?: 'memory' | 'store';
    /** The store's rate / blast-radius limits: LOOSE_RATE_LIMITS (default), or 'default' for the product's own. */
    limits?: 'loose' | 'default';
    /** Reopen the files of an earlier world (after a child process crashed on them). */
    reopen?: { dir: string; keys: Keys; masterKey: Uint8Array };
    /** The read and write transports' response cap (default 1 MiB; the product's default is 8 MiB). */
    maxResponseBytes?: number;
    /** The capability registry (default CAPABILITIES: the description only). */
    capabilities?: CapabilityRegistry;
    /** The executor's waits between pf verification reads (a write that applies the filter). */
    filterVerificationDelaysMs?: readonly number[];
  } = {},
): Promise<World> {
  const dir = extra.reopen?.dir ?? mkdtempSync(join(tmpdir(), 'coordinator-'));
  chmodSync(dir, 0o700);
  const storeDir = join(dir, 'store');
  const inbox = join(dir, 'inbox');
  const outbox = join(dir, 'outbox');
  const { mkdirSync } = await import('node:fs');
  if (extra.reopen === undefined) mkdirSync(storeDir, { mode: 0o700 });
  const keys = extra.reopen?.keys ?? extra.keys ?? makeKeys();
  const masterKey = extra.reopen?.masterKey ?? generateMasterKey();
  // Real time: the signer (another machine, in the product) signs with its own clock.
  const clock = { now: Date.now() };
  const authorities = operatorAuthorities(keys);
  const storeOptions = (): ContractStoreOptions => ({
    directory: storeDir,
    masterKey,
    clock: () => clock.now,
    anchor: { file: join(dir, 'anchor.json') },
    // 'default': no override at all, so the store runs DEFAULT_RATE_LIMITS exactly as the product does.
    ...(extra.limits === 'default' ? {} : { rateLimits: LOOSE_RATE_LIMITS }),
    ...createStoreEvidenceVerifiers({ authorities }),
    ...(extra.crashHooks === undefined ? {} : { [CRASH_HOOKS]: extra.crashHooks }),
  });
  const store = await SqliteRecoveryContractStore.open(storeOptions());
  const consumption = await SqliteConsumptionStore.open({ directory: storeDir, masterKey, clock: () => clock.now });
  const ledger = new CountingLedger(consumption);
  const transports: HttpTransport[] = [];
  const readHttp = simulatorTransport(sim, { maxResponseBytes: extra.maxResponseBytes });
  const writeHttp = simulatorTransport(sim, { maxResponseBytes: extra.maxResponseBytes });
  transports.push(readHttp, writeHttp);
  const reads = new RecordingTransport(readHttp);
  const readClient = new RestApiClient(reads);
  const writeProxy = new FaultProxyTransport(writeHttp);
  const executor = new MutationExecutor({
    store,
    writeClient: new WriteApiClient(writeProxy),
    readClient,
    policy: extra.policy ?? ALIAS_WRITE_POLICY,
    clock: () => clock.now,
    ...(extra.filterVerificationDelaysMs === undefined ? {} : { filterVerificationDelaysMs: extra.filterVerificationDelaysMs }),
  });
  const audit = new MemoryRefusalAudit();
  const driverOptions: OperationDriverOptions = {
    capabilities: extra.capabilities ?? CAPABILITIES,
    store,
    consumption: ledger,
    executor,
    readClient,
    policy: extra.policy ?? ALIAS_WRITE_POLICY,
    profile: extra.profile ?? Profile.WRITE_PROTECTED,
    authorities,
    appliance: { baseUrl: sim.url, tlsMode: TLS_MODE },
    clock: () => clock.now,
    ...(extra.audit === 'store' ? {} : { audit }),
    inboxDirectory: inbox,
    outboxDirectory: outbox,
    serverKey: { privateKey: keys.server.privateKey },
    serverAuthorities: serverAuthorities(keys),
  };
  const driver = new OperationDriver(driverOptions);
  const gatekeeper = new Gatekeeper({
    capabilities: extra.capabilities ?? CAPABILITIES,
    store,
    consumption: ledger,
    executor,
    policy: driverOptions.policy,
    profile: driverOptions.profile,
    authorities,
    serverAuthorities: driverOptions.serverAuthorities,
    clock: () => clock.now,
    refusals: new RefusalRecorder(extra.audit === 'store' ? new StoreRefusalAudit(store) : audit, () => clock.now),
  });
  const appliance = driverOptions.appliance;
  return {
    dir,
    inbox,
    outbox,
    clock,
    keys,
    masterKey,
    store,
    consumption,
    ledger,
    reads,
    writeProxy,
    audit,
    gatekeeper,
    driver,
    driverOptions,
    freshRead: (aliasName: string) => async () => ({
      binding: await readApplianceBinding(readClient, appliance),
      target: await AliasDescriptionAdapter.readTarget(readClient, { alias_name: aliasName }),
    }),
    storeOptions,
    cleanup() {
      store.close();
      consumption.close();
      for (const t of transports) t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- the operator's side (library signing)

export function readOutbox(world: World, fileName: string): Artifact {
  return parseArtifact(readFileSync(join(world.outbox, fileName)));
}

/** Writes an artifact into the inbox as the operator would copy it there (0600). */
export function putInbox(world: World, fileName: string, artifact: Artifact, mode = 0o600): string {
  const path = join(world.inbox, fileName);
  writeFileSync(path, encodeArtifact(artifact), { mode, flag: 'wx' });
  chmodSync(path, mode);
  return path;
}

function verifiedRequest(world: World, fileName: string): Artifact {
  return verifyPendingRequest(readOutbox(world, fileName), { serverAuthorities: serverAuthorities(world.keys), nowMs: Date.now() });
}

export function signAuthorization(world: World, pendingFile: string, key: SigningKey = world.keys.authorization): Artifact {
  return createPlanAuthorizationFromRequest(verifiedRequest(world, pendingFile) as PendingAuthorizationRequest, key, {
    issuedAt: world.clock.now,
  });
}

export function signConfirmation(world: World, pendingFile: string, key: SigningKey = world.keys.confirmation): Artifact {
  return createConfirmationEvidence(verifiedRequest(world, pendingFile) as PendingConfirmationRequest, key, { issuedAt: world.clock.now });
}

export function signReconciliation(world: World, pendingFile: string, outcome: 'APPLIED' | 'NOT_APPLIED'): Artifact {
  const request = verifiedRequest(world, pendingFile);
  if (request.kind !== 'pfsense-mcp/reconciliation-request') throw new Error('not a reconciliation request');
  return createReconciliationEvidence(request, world.keys.reconciliation, { issuedAt: world.clock.now, outcome });
}

export function signRelease(world: World, pendingFile: string): Artifact {
  const request = verifiedRequest(world, pendingFile);
  if (request.kind !== 'pfsense-mcp/reservation-release-request') throw new Error('not a release request');
  return createReservationRelease(request, world.keys.reconciliation, { issuedAt: world.clock.now });
}

export function signRollback(world: World, pendingFile: string, key: SigningKey = world.keys.confirmation): Artifact {
  const request = verifiedRequest(world, pendingFile);
  if (request.kind !== 'pfsense-mcp/rollback-request') throw new Error('not a rollback request');
  return createRollbackAuthorization(request, key, { issuedAt: world.clock.now });
}

/** Admin-side edit of an alias on the simulator ("someone else changed the firewall"). */
export async function adminSetDescription(sim: { url: string; apiKey: string }, id: number, descr: string): Promise<void> {
  const t = simulatorTransport(sim);
  try {
    const r = await t.request('PATCH', ALIAS_PATH, { body: JSON.stringify({ id, descr, apply: false }) });
    if (r.status !== 200) throw new Error(`admin PATCH failed: ${r.status}`);
  } finally {
    t.close();
  }
}

export async function aliasNow(
  sim: { url: string; apiKey: string },
  name: string,
  maxResponseBytes?: number,
): Promise<Record<string, unknown> | undefined> {
  const t = simulatorTransport(sim, { maxResponseBytes });
  try {
    const items = await new RestApiClient(t).readAllPages(ALIASES_PATH);
    return (items as Record<string, unknown>[]).find((i) => i.name === name);
  } finally {
    t.close();
  }
}

export function patchCount(sim: RunningSimulator): number {
  return sim.control.count(ALIAS_PATH, 'PATCH');
}
