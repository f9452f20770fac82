// The write runtime's composition root (docs/DESIGN.md §2, §6): the write directory → keys, pinned authorities,
// both stores with their anchors, inbox/outbox → executor → the capability registry (this build's one adapter) → the
// operation driver → the facade the tool holds. All or nothing: the first problem closes what was opened and throws one WriteGateError.
import { isAbsolute, relative } from 'node:path';
import {
  ContractStoreError,
  RecordIntegrityError,
  SchemaVersionError,
  SqliteConsumptionStore,
  SqliteRecoveryContractStore,
  StoreConsistencyError,
  readRotationJournal,
} from '@pfsense-mcp/contract-store';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import {
  ArtifactDirectory,
  ArtifactFileError,
  OperationDriver,
  createStoreEvidenceVerifiers,
  readApplianceBinding,
} from '@pfsense-mcp/coordinator';
import type { WriteFacade } from '@pfsense-mcp/coordinator';
import { KeyFileError, readEd25519PrivateKeyFile, readMasterKeyFile } from '@pfsense-mcp/crypto';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { MutationExecutor } from '@pfsense-mcp/executor';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { writeCapabilitiesOf } from './write-capabilities-of.js';
import type { Profile } from '@pfsense-mcp/policy';
import { createHttpTransport } from '@pfsense-mcp/transports';
import type { HttpTransport } from '@pfsense-mcp/transports';
import { WriteApiClient } from '@pfsense-mcp/write-client';
import { ConfigError } from '../config/config-error.js';
import type { ServerConfig, WriteEnvironment } from '../config/load-config.js';
import { PinnedAuthoritiesFileError, loadPinnedAuthorities, pinnedAuthoritySetOf } from '../write-directory/pinned-authorities-file.js';
import { readApiKey } from '../config/read-api-key.js';
import { inWriteSettingNames } from '../config/write-setting-names.js';
import { WriteDirectoryError } from '../write-directory/write-directory-error.js';
import { serverRequestKeyIdsOf } from '../write-directory/server-request-key-ids.js';
import { settleInterruptedRotation } from '../write-directory/settle-key-rotation.js';
import { announceServer } from '../write-directory/write-directory-lock.js';
import { contractLookup, loadServerRequestAuthorities } from './load-server-request-authorities.js';
import { assertWriteDirectory, writeDirectoryLayout } from '../write-directory/write-directory-layout.js';
import type { WriteDirectoryLayout } from '../write-directory/write-directory-layout.js';
import { WriteGate, WriteGateError } from './write-gate-error.js';
import { ExchangeError } from '../exchange/exchange-error.js';
import { ExchangeFolder } from '../exchange/exchange-folder.js';
import { withExchange } from '../exchange/exchange-facade.js';
import { exchangeLayout } from '../exchange/exchange-layout.js';
import { createAnswerWaiter } from '../exchange/answer-waiter.js';
import type { AnswerWaiter } from '../exchange/answer-waiter.js';
import type { AwaitAnswer } from '../../tools/wait-for-answer.js';
import { CodedError } from '@pfsense-mcp/foundation';

/** The transport's response timeout for the write path (the same default as every other call). */
export const WRITE_RESPONSE_TIMEOUT_MS = 30_000;
/** Shutdown waits this long for a write in flight: the response timeout plus a margin for the verify read. */
export const WRITE_DRAIN_TIMEOUT_MS = WRITE_RESPONSE_TIMEOUT_MS + 10_000;

/** The write runtime as the server holds it: the tool's facade, the paths it names, and its shutdown. */
export interface WriteRuntime {
  readonly facade: WriteFacade;
  /** The operator's recovery calls (`pfsense-mcp admin rollback|reconcile|release`); the MCP tool never holds them. */
  readonly recovery: WriteRecoveryOperations;
  readonly layout: WriteDirectoryLayout;
  /** The exchange folder (PFSENSE_WRITE_EXCHANGE_DIR), or null when none is set. */
  readonly exchange: ExchangeFolder | null;
  /** Waits (bounded, cancellable) for the answer to a pending request: what `wait_seconds` waits on. */
  readonly awaitAnswer: AwaitAnswer;
  /** Contracts restart reconciliation moved to RECONCILIATION, and contracts expired, at construction. */
  readonly reconciledAtStart: number;
  readonly expiredAtStart: number;
  /**
   * While the clock is behind the latest time the store's rate windows accepted (a clock stepped backwards), every
   * write is refused until that time (UTC ms); null when writes are not held back by the clock.
   */
  clockBlockedUntil(): number | null;
  /** Refuses new calls and waits (bounded) for the calls in flight to finish; true when there were any. */
  drain(timeoutMs?: number): Promise<boolean>;
  /** Closes both stores (SQLite checkpoints the WAL on the last close) and the runtime's transports. */
  close(): void;
  /**
   * The appliance's own id, read fresh as the binding reads it (readApplianceBinding): what tells two inventory
   * entries that are one appliance apart. Identifying data: compared, never logged or returned to a caller.
   */
  readApplianceId(): Promise<string>;
}

export interface OpenWriteRuntimeOptions {
  readonly config: ServerConfig;
  /** The READ key: every read of the write path (alias, appliance id) uses it; the PATCH too unless a write key is set. */
  readonly readApiKey: string;
  readonly clock?: () => number;
  /** Tighter transport limits (tests); the defaults are the transport's. */
  readonly transportLimits?: { readonly connectTimeoutMs?: number; readonly responseTimeoutMs?: number };
}

/** What `pfsense-mcp admin` may do through the runtime: rollback, and the reconciliation / release loop. */
export interface WriteRecoveryOperations {
  /** The gatekeeper's rollback of a VERIFIED contract (at most one send): ROLLED_BACK, ROLLBACK_FAILED or RECONCILIATION after. */
  rollback(contractId: string): Promise<RecoveryContract>;
  /** Whether a VERIFIED contract's rollback needs the operator's signed authorization and the inbox does not hold it yet. */
  rollbackAwaitsAuthorization(contractId: string): boolean;
  /** The authenticated contract (for the admin commands' state checks). */
  loadContract(contractId: string): RecoveryContract;
  emitRecoveryRequest: OperationDriver['emitRecoveryRequest'];
  resumeRecovery: OperationDriver['resumeRecovery'];
}

/** The runtime was closed (shutdown): a new write call is not started. */
export class WriteRuntimeClosedError extends CodedError<'RUNTIME_CLOSED'> {
  override readonly name = 'WriteRuntimeClosedError';
  constructor() {
    super('RUNTIME_CLOSED', 'the write runtime is shutting down');
  }
}

function runtimeFailure(code: string, rule: string, error: unknown = null): WriteGateError {
  const errorClass = error instanceof Error ? error.name : null;
  return new WriteGateError(WriteGate.RUNTIME, code, rule, errorClass);
}

/** A path of the layout, named relative to DIR or the anchor directory (the layout's names, not a value). */
function layoutName(layout: WriteDirectoryLayout | null, path: string): string {
  if (layout === null) return 'PFSENSE_WRITE_DIR';
  const under = (root: string, label: string): string | null => {
    const rel = relative(root, path);
    if (rel === '') return label;
    return rel.startsWith('..') || isAbsolute(rel) ? null : `${label}/${rel}`;
  };
  return (
    under(layout.dir, 'PFSENSE_WRITE_DIR') ??
    (layout.anchorDirIsExternal ? under(layout.anchorDir, 'PFSENSE_WRITE_ANCHOR_DIR') : null) ??
    'a path of the write directory'
  );
}

const safeCode = (code: unknown): string => (typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,40}$/.test(code) ? code : 'UNUSABLE');

const safeId = (id: unknown): string | null => (typeof id === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : null);

/** Where a store's row check failed: the table and the contract id (identifiers only, never a value). */
function whereInStore(error: ContractStoreError): string {
  if (!(error instanceof StoreConsistencyError) && !(error instanceof RecordIntegrityError)) return '';
  const table = safeId(error.table);
  const contract = safeId(error.contractId);
  return `${table === null ? '' : ` in table ${table}`}${contract === null ? '' : `, contract ${contract}`}`;
}

/**
 * Maps any failure while building to the one runtime gate failure (codes and fixed rules, never a value), its rule
 * naming the settings as they were given: the variables, or an inventory appliance's fields (write-setting-names.ts).
 */
function buildFailure(error: unknown, layout: WriteDirectoryLayout | null, env: WriteEnvironment): WriteGateError {
  const failure = classifyBuildError(error, layout);
  const rule = inWriteSettingNames(failure.rule, env);
  return rule === failure.rule ? failure : new WriteGateError(failure.gate, failure.code, rule, failure.errorClass);
}

function classifyBuildError(error: unknown, layout: WriteDirectoryLayout | null): WriteGateError {
  if (error instanceof WriteGateError) return error;
  if (error instanceof WriteDirectoryError) {
    return runtimeFailure(`WRITE_DIR_${safeCode(error.code)}`, `${layoutName(layout, error.path)} ${error.rule}`, error);
  }
  if (error instanceof PinnedAuthoritiesFileError) {
    return runtimeFailure(
      `AUTHORITIES_${safeCode(error.code)}`,
      `PFSENSE_WRITE_DIR/authorities.json is unusable (${safeCode(error.code)}); fix it with \`pfsense-mcp admin trust\``,
      error,
    );
  }
  if (error instanceof KeyFileError) {
    return runtimeFailure(
      `KEY_FILE_${safeCode(error.code)}`,
      `a key file in PFSENSE_WRITE_DIR/keys is unusable (${safeCode(error.code)})`,
      error,
    );
  }
  if (error instanceof ArtifactFileError) {
    return runtimeFailure(
      `ARTIFACT_DIR_${safeCode(error.code)}`,
      `PFSENSE_WRITE_DIR/inbox or outbox is unusable (${safeCode(error.code)}): both must be real directories of the server user, mode 0700, holding only safe files`,
      error,
    );
  }
  if (error instanceof SchemaVersionError && (error.code === 'LEGACY_SCHEMA' || error.code === 'NEWER_SCHEMA')) {
    // The store's own sentence: both version numbers and what to do (`admin migrate`, or the newer release).
    return runtimeFailure(`STORE_${error.code}`, `the store refused to open: ${error.message}`, error);
  }
  if (error instanceof ContractStoreError) {
    return runtimeFailure(
      `STORE_${safeCode(error.code)}`,
      `the contract or consumption store refused to open (${error.name} ${safeCode(error.code)}${whereInStore(error)}); see \`pfsense-mcp admin\` and the contract-store README (backup and restore)`,
      error,
    );
  }
  if (error instanceof ConfigError) {
    return runtimeFailure(error.code, error.message, error);
  }
  if (error instanceof ExchangeError) {
    return runtimeFailure(`EXCHANGE_${error.code}`, error.message, error);
  }
  return runtimeFailure('BUILD_FAILED', 'the write runtime could not be built (internal error)', error);
}

function appliedEnvironment(config: ServerConfig): WriteEnvironment {
  return config.write ?? Object.freeze({ dir: null, anchorDir: null, apiKeyFile: null });
}

/** The layout of PFSENSE_WRITE_DIR (and PFSENSE_WRITE_ANCHOR_DIR), checked to be owner-only and laid out by init. */
function checkedLayout(env: WriteEnvironment): WriteDirectoryLayout {
  if (env.dir === null) {
    throw runtimeFailure(
      'WRITE_DIR_UNSET',
      'PFSENSE_WRITE_DIR is not set (create it with `pfsense-mcp admin init --dir DIR`, then set PFSENSE_WRITE_DIR=DIR)',
    );
  }
  if (!isAbsolute(env.dir)) throw runtimeFailure('WRITE_DIR_NOT_ABSOLUTE', 'PFSENSE_WRITE_DIR must be an absolute path');
  if (env.anchorDir !== null && !isAbsolute(env.anchorDir)) {
    throw runtimeFailure('WRITE_ANCHOR_DIR_NOT_ABSOLUTE', 'PFSENSE_WRITE_ANCHOR_DIR must be an absolute path');
  }
  const layout = writeDirectoryLayout(env.dir, env.anchorDir);
  try {
    assertWriteDirectory(layout);
  } catch (error) {
    throw buildFailure(error, layout, env);
  }
  return layout;
}

/** The exchange folder of PFSENSE_WRITE_EXCHANGE_DIR, checked and scanned for private keys; null when unset. */
function openExchange(
  env: WriteEnvironment,
  layout: WriteDirectoryLayout,
  authorities: PinnedAuthoritySet,
  serverKeyId: string,
  clock: () => number,
): ExchangeFolder | null {
  const dir = env.exchangeDir ?? null;
  if (dir === null) return null;
  return ExchangeFolder.open({
    layout: exchangeLayout(dir),
    inboxDir: layout.inboxDir,
    outboxDir: layout.outboxDir,
    authorities,
    requestKeyIds: serverRequestKeyIdsOf(layout, serverKeyId),
    clock,
    install: true,
  });
}

/** The pinned operator keys; at least one plan-authorization and one confirmation key are required. */
function loadAuthorities(layout: WriteDirectoryLayout): PinnedAuthoritySet {
  const entries = loadPinnedAuthorities(layout.authoritiesFile);
  const roles = new Set(entries.map((e) => e.role));
  if (!roles.has('plan-authorization')) {
    throw runtimeFailure(
      'NO_PLAN_AUTHORIZATION_KEY',
      'no plan-authorization key is pinned (`pfsense-mcp admin trust --dir DIR --role plan-authorization --public-key KEY`)',
    );
  }
  if (!roles.has('confirmation')) {
    throw runtimeFailure(
      'NO_CONFIRMATION_KEY',
      'no confirmation key is pinned (`pfsense-mcp admin trust --dir DIR --role confirmation --public-key KEY`)',
    );
  }
  return pinnedAuthoritySetOf(entries);
}

function readWriteApiKey(env: WriteEnvironment, readKey: string): string {
  if (env.apiKeyFile === null) return readKey;
  if (!isAbsolute(env.apiKeyFile))
    throw runtimeFailure('WRITE_API_KEY_FILE_NOT_ABSOLUTE', 'PFSENSE_WRITE_API_KEY_FILE must be an absolute path');
  try {
    return readApiKey(env.apiKeyFile);
  } catch (error) {
    if (error instanceof ConfigError) {
      const code = error.code.replace(/^API_KEY_FILE_/, 'WRITE_API_KEY_FILE_');
      throw runtimeFailure(code, error.message.replace(/^PFSENSE_API_KEY_FILE/, 'PFSENSE_WRITE_API_KEY_FILE'), error);
    }
    throw error;
  }
}

/** The TLS mode the appliance binding names (a safe token): what the transport enforces. */
function tlsModeOf(config: ServerConfig): string {
  if (config.url.startsWith('http:')) return 'http-loopback';
  return config.caFile === null ? 'https-system-trust' : 'https-ca-file';
}

/** Closes everything opened so far, in reverse order, never throwing. */
function closeAll(closers: (() => void)[]): void {
  for (const close of closers.reverse()) {
    try {
      close();
    } catch {
      // Closing is best effort; the first failure is what is reported.
    }
  }
  closers.length = 0;
}

async function openStores(
  layout: WriteDirectoryLayout,
  masterKey: Uint8Array,
  authorities: PinnedAuthoritySet,
  clock: () => number,
  closers: (() => void)[],
): Promise<{ store: SqliteRecoveryContractStore; consumption: SqliteConsumptionStore }> {
  const store = await SqliteRecoveryContractStore.open({
    directory: layout.storeDir,
    masterKey,
    clock,
    anchor: { file: layout.contractsAnchorFile },
    ...createStoreEvidenceVerifiers({ authorities }),
  });
  closers.push(() => store.close());
  // Always with its own anchor: a restored older consumption file would forget consumed authorizations.
  const consumption = await SqliteConsumptionStore.open({
    directory: layout.storeDir,
    masterKey,
    clock,
    anchor: { file: layout.consumptionAnchorFile },
  });
  closers.push(() => consumption.close());
  return { store, consumption };
}

/**
 * --check-config's half: the same checks as openWriteRuntime up to the stores (layout, keys, pinned
 * authorities, write key file, both stores opened and verified against their anchors, inbox/outbox), then
 * closes everything. It constructs no executor, so it reconciles and expires nothing.
 */
export async function checkWriteRuntime(config: ServerConfig): Promise<WriteDirectoryLayout> {
  const env = appliedEnvironment(config);
  const closers: (() => void)[] = [];
  let layout: WriteDirectoryLayout | null = null;
  try {
    layout = checkedLayout(env);
    // --check-config changes nothing: a pending rotation is reported, the server start or any admin command settles it.
    if (readRotationJournal(layout.rotationJournalFile) !== null) {
      throw runtimeFailure(
        'KEY_ROTATION_PENDING',
        'an interrupted `pfsense-mcp admin rotate master-key` is pending; start the server or run any `pfsense-mcp admin` command on DIR to settle it',
      );
    }
    const masterKey = readMasterKeyFile(layout.masterKeyFile);
    const serverKey = readEd25519PrivateKeyFile(layout.serverRequestKeyFile);
    serverKey.privateKey.fill(0);
    const authorities = loadAuthorities(layout);
    openExchange(env, layout, authorities, serverKey.keyId, Date.now);
    readWriteApiKey(env, 'unused');
    // Listing only (no bound on the count: leftovers never stop the write).
    ArtifactDirectory.open(layout.inboxDir).list();
    ArtifactDirectory.open(layout.outboxDir).list();
    await openStores(layout, masterKey, authorities, Date.now, closers);
    return layout;
  } catch (error) {
    throw buildFailure(error, layout, env);
  } finally {
    closeAll(closers);
  }
}

/**
 * Builds the whole write runtime or throws a WriteGateError (everything opened is closed again). Restart
 * reconciliation runs in the executor's constructor (an interrupted EXECUTING / ROLLING_BACK contract whose
 * process is gone goes to RECONCILIATION, never resent); expired PREPARING / PREPARED contracts are expired.
 */
export async function openWriteRuntime(options: OpenWriteRuntimeOptions): Promise<WriteRuntime> {
  const { config } = options;
  const clock = options.clock ?? Date.now;
  const env = appliedEnvironment(config);
  const closers: (() => void)[] = [];
  let layout: WriteDirectoryLayout | null = null;
  try {
    layout = checkedLayout(env);
    // Announced before the stores open, withdrawn at close: `admin migrate` refuses while this process lives.
    closers.push(announceServer(layout));
    // An interrupted `admin rotate master-key` is rolled back or completed before any key is read.
    settleInterruptedRotation(layout);
    const masterKey = readMasterKeyFile(layout.masterKeyFile);
    const serverKey = readEd25519PrivateKeyFile(layout.serverRequestKeyFile);
    const authorities = loadAuthorities(layout);
    const exchange = openExchange(env, layout, authorities, serverKey.keyId, clock);
    const writeKey = readWriteApiKey(env, options.readApiKey);
    const { store, consumption } = await openStores(layout, masterKey, authorities, clock, closers);

    const transport = (apiKey: string): HttpTransport => {
      const t = createHttpTransport({
        baseUrl: config.url,
        authHeader: { name: 'X-API-Key', value: apiKey },
        ...(config.caFile === null ? {} : { caFile: config.caFile }),
        allowHttpLoopback: config.allowHttpLoopback,
        responseTimeoutMs: WRITE_RESPONSE_TIMEOUT_MS,
        ...options.transportLimits,
      });
      closers.push(() => t.close());
      return t;
    };
    // Every read of the write path uses the READ key; only the one PATCH uses the write key (when set).
    const readClient = new RestApiClient(transport(options.readApiKey));
    const writeClient = new WriteApiClient(transport(writeKey));
    // The closed set of capabilities this server writes (docs/DESIGN.md §6): those PFSENSE_WRITE_CAPABILITIES names.
    const { registry, policy } = writeCapabilitiesOf(config.write);
    const executor = new MutationExecutor({ store, writeClient, readClient, policy, clock });
    const expired = store.expire();
    const driver = new OperationDriver({
      capabilities: registry,
      store,
      consumption,
      executor,
      readClient,
      policy,
      profile: config.profile satisfies Profile,
      authorities,
      appliance: { baseUrl: config.url, tlsMode: tlsModeOf(config) },
      clock,
      inboxDirectory: layout.inboxDir,
      outboxDirectory: layout.outboxDir,
      serverKey: { privateKey: serverKey.privateKey },
      // The current key, and a retired one while a file it signed is still needed (admin rotate server-key).
      serverAuthorities: loadServerRequestAuthorities(layout, serverKey, contractLookup(store), clock()).authorities,
    });
    serverKey.privateKey.fill(0);
    masterKey.fill(0);
    // With an exchange folder, the operator's commands pick its answers up first and copy a rollback request into it.
    const recovery: WriteRecoveryOperations = Object.freeze({
      rollback: (id: string) => {
        exchange?.pickup();
        return driver.rollback(id);
      },
      rollbackAwaitsAuthorization: (id: string) => {
        exchange?.pickup();
        return driver.rollbackAwaitsAuthorization(id);
      },
      loadContract: (id: string) => store.load(id),
      emitRecoveryRequest: async (id: string, kind: 'reconciliation' | 'release' | 'rollback') => {
        const emitted = await driver.emitRecoveryRequest(id, kind);
        exchange?.mirror(emitted.pendingRequest);
        return emitted;
      },
      resumeRecovery: (id: string, kind: 'reconciliation' | 'release') => driver.resumeRecovery(id, kind),
    });
    const clockBlockedUntil = (): number | null => store.rateWindows().clockBlockedUntilMs;
    const facade = exchange === null ? driver : withExchange(driver, exchange);
    const waiter = createAnswerWaiter({ inboxDir: layout.inboxDir, exchange, clock });
    const appliance = { baseUrl: config.url, tlsMode: tlsModeOf(config) };
    const readApplianceId = async (): Promise<string> => (await readApplianceBinding(readClient, appliance)).appliance_id;
    return trackedRuntime(
      facade,
      recovery,
      { layout, exchange, waiter },
      executor.reconciledAtStart.length,
      expired.length,
      [...closers],
      clockBlockedUntil,
      readApplianceId,
    );
  } catch (error) {
    closeAll(closers);
    throw buildFailure(error, layout, env);
  }
}

/** Wraps the facade so shutdown can refuse new calls and wait for those in flight before closing the stores. */
function trackedRuntime(
  inner: WriteFacade,
  recovery: WriteRecoveryOperations,
  files: { readonly layout: WriteDirectoryLayout; readonly exchange: ExchangeFolder | null; readonly waiter: AnswerWaiter },
  reconciledAtStart: number,
  expiredAtStart: number,
  closers: (() => void)[],
  clockBlockedUntil: () => number | null,
  readApplianceId: () => Promise<string>,
): WriteRuntime {
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;
  // The tools get exactly the facade's three methods (never the driver, its recovery calls or its parts).
  const facade: WriteFacade = Object.freeze({
    requestChange: (capability: string, input: unknown) => {
      if (closing) return Promise.reject(new WriteRuntimeClosedError());
      const call = inner.requestChange(capability, input);
      inFlight.add(call);
      const forget = () => inFlight.delete(call);
      call.then(forget, forget);
      return call;
    },
    // Read-only and synchronous: nothing to drain.
    listWriteOperations: (query: Parameters<WriteFacade['listWriteOperations']>[0]) => inner.listWriteOperations(query),
    artifactCounts: () => inner.artifactCounts(),
  });
  const { layout, exchange, waiter } = files;
  return Object.freeze({
    facade,
    recovery,
    layout,
    exchange,
    // A wait holds nothing (docs/DESIGN.md §6): it is outside the calls drain waits for, and shutdown ends it.
    awaitAnswer: (pending: Parameters<AwaitAnswer>[0], untilMs: number, signal: AbortSignal) =>
      closing ? Promise.resolve(false) : waiter.awaitAnswer(pending, untilMs, signal),
    reconciledAtStart,
    expiredAtStart,
    clockBlockedUntil,
    readApplianceId,
    drain: async (timeoutMs = WRITE_DRAIN_TIMEOUT_MS) => {
      closing = true;
      waiter.close();
      if (inFlight.size === 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      return true;
    },
    close: () => {
      closing = true;
      waiter.close();
      closeAll(closers);
    },
  });
}
