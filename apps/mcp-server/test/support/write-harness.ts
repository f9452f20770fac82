// Write-path test support: a write directory laid out like `pfsense-mcp admin init` makes it (through the one
// layout module), operator keys signed with the authorization library (the e2e suite uses the real signer), and
// an in-process harness: the real server factory with the READ tools and the write tool attached exactly as the
// program does, behind the SDK's stdio entry, the v2 SDK Client of either protocol era in memory, the simulator
// over loopback.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  createReconciliationEvidence,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
} from '@pfsense-mcp/authorization';
import type { Artifact, PendingAuthorizationRequest, PendingConfirmationRequest } from '@pfsense-mcp/authorization';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import {
  PinnedAuthoritySet,
  generateEd25519KeyPair,
  generateMasterKey,
  keyIdOf,
  writeEd25519PrivateKeyFile,
  writeMasterKeyFile,
} from '@pfsense-mcp/crypto';
import { privilegeFor, startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import type { Profile } from '@pfsense-mcp/policy';
import {
  attachReadTools,
  attachWriteTool,
  buildReadClient,
  createLogger,
  createServerFactory,
  observeToolCalls,
  savePinnedAuthorities,
  writeDirectoryLayout,
  type OperatorRole,
  type ServerConfig,
  type WriteAttachment,
  type WriteDirectoryLayout,
} from '../../src/index.js';
import { assertEra, newClient, type Era } from './clients.js';

export const ALIASES_PATH = '/api/v2/firewall/aliases';
export const ALIAS_PATH = '/api/v2/firewall/alias';
export const STATUS_PATH = '/api/v2/status/system';
export const HASYNC_PATH = '/api/v2/system/hasync';
export const NETGATE_ID = 'a1b2c3d4e5f60718';
export const WRITE_TOOL = 'pfsense_set_firewall_alias_description';

export const ALIASES = Object.freeze([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1', '10.0.0.2'], detail: ['nas', 'printer'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
]);

interface WritePathRow {
  readonly method: string;
  readonly path: string;
  readonly key: 'read' | 'write';
  readonly privileges: readonly string[];
}
/** The generated least-privilege table's write-path rows (docs/pfrest-privileges.json). */
export const WRITE_PATH_ROWS = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'pfrest-privileges.json'), 'utf8')) as { write_path: readonly WritePathRow[] }
).write_path;
/**
 * The READ key holds exactly the table's `read` rows of the write path (plus the one GET of --check-config and the
 * alias list tool's privilege for READ-serving checks); the write key exactly its `write` row. So every lifecycle
 * test that reaches `verified` proves the table's write rows are enough.
 */
export const WRITE_PATH_READ_PRIVILEGES = Object.freeze([
  ...WRITE_PATH_ROWS.filter((r) => r.key === 'read').flatMap((r) => r.privileges),
  privilegeFor('/api/v2/system/restapi/version', 'GET'),
]);
export const WRITE_PRIVILEGE = WRITE_PATH_ROWS.filter((r) => r.key === 'write').flatMap((r) => r.privileges);
export const READ_KEY = 'read-key-for-the-write-tool-tests-0123456789';
export const WRITE_KEY = 'write-key-for-the-write-tool-tests-0123456789';

export async function startWriteSimulator(): Promise<RunningSimulator> {
  return startSimulator({
    data: { [ALIASES_PATH]: ALIASES, [STATUS_PATH]: { platform: 'Netgate 4200', netgate_id: NETGATE_ID } },
    credentials: [
      { auth: 'key', secret: READ_KEY, privileges: [...WRITE_PATH_READ_PRIVILEGES] },
      { auth: 'key', secret: WRITE_KEY, privileges: [...WRITE_PRIVILEGE] },
    ],
  });
}

export interface OperatorKey {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
}

function operatorKey(): OperatorKey {
  const k = generateEd25519KeyPair();
  return Object.freeze({ privateKey: k.privateKey, publicKey: k.publicKey, keyId: keyIdOf(k.publicKey) });
}

export interface TestWriteDirectory {
  readonly root: string;
  readonly layout: WriteDirectoryLayout;
  readonly server: OperatorKey;
  readonly operator: Readonly<Record<OperatorRole, OperatorKey>>;
  /** The store's master key (tests advance or tamper with the stores directly). */
  readonly masterKey: Uint8Array;
  /** Replaces authorities.json with the given roles' keys. */
  pin(roles: readonly OperatorRole[]): void;
  cleanup(): void;
}

/**
 * A write directory as `pfsense-mcp admin init` lays it out (paths from the one layout module): 0700 dirs,
 * 0600 keys, both stores created with their anchors, operator keys pinned for `pinned` roles.
 */
export async function initTestWriteDirectory(
  options: { pinned?: readonly OperatorRole[]; externalAnchors?: boolean } = {},
): Promise<TestWriteDirectory> {
  const root = mkdtempSync(join(tmpdir(), 'mcp-write-'));
  chmodSync(root, 0o700);
  const anchorDir = options.externalAnchors === true ? join(root, 'other-medium') : null;
  const layout = writeDirectoryLayout(join(root, 'dir'), anchorDir);
  for (const d of [layout.dir, layout.storeDir, layout.keysDir, layout.localAnchorDir, layout.inboxDir, layout.outboxDir, layout.anchorDir]) {
    mkdirSync(d, { recursive: true, mode: 0o700 });
    chmodSync(d, 0o700);
  }
  const masterKey = generateMasterKey();
  writeMasterKeyFile(layout.masterKeyFile, new Uint8Array(masterKey));
  const server = operatorKey();
  writeEd25519PrivateKeyFile(layout.serverRequestKeyFile, server.privateKey);
  writeFileSync(layout.serverRequestPublicKeyFile, `${bytesToHex(server.publicKey)}\n`, { mode: 0o600, flag: 'wx' });
  const store = await SqliteRecoveryContractStore.open({ directory: layout.storeDir, masterKey, clock: Date.now, anchor: { file: layout.contractsAnchorFile } });
  store.close();
  const consumption = await SqliteConsumptionStore.open({ directory: layout.storeDir, masterKey, clock: Date.now, anchor: { file: layout.consumptionAnchorFile } });
  consumption.close();
  const operator = Object.freeze({ 'plan-authorization': operatorKey(), confirmation: operatorKey(), reconciliation: operatorKey() });
  const pin = (roles: readonly OperatorRole[]) =>
    savePinnedAuthorities(
      layout.authoritiesFile,
      roles.map((role) => ({ role, keyId: operator[role].keyId, publicKey: bytesToHex(operator[role].publicKey) })),
    );
  pin(options.pinned ?? ['plan-authorization', 'confirmation', 'reconciliation']);
  return Object.freeze({ root, layout, server, operator, masterKey, pin, cleanup: () => rmSync(root, { recursive: true, force: true }) });
}

/** A private dir with an owner-only key file holding `apiKey`. */
export function keyFile(dir: string, name: string, apiKey: string): string {
  const path = join(dir, name);
  writeFileSync(path, `${apiKey}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

// ---------------------------------------------------------------- the operator's side (library signing)

function serverSet(w: TestWriteDirectory): PinnedAuthoritySet {
  return PinnedAuthoritySet.of([{ keyId: w.server.keyId, publicKey: w.server.publicKey, role: 'server-request', active: true }]);
}

function verified(w: TestWriteDirectory, path: string): Artifact {
  return verifyPendingRequest(parseArtifact(readFileSync(path)), { serverAuthorities: serverSet(w), nowMs: Date.now() });
}

/** Signs the pending request at `path` as the operator would and installs the result in the inbox (0600). */
export function signIntoInbox(w: TestWriteDirectory, path: string, outcome?: 'APPLIED' | 'NOT_APPLIED'): string {
  const request = verified(w, path);
  let signed: Artifact;
  if (request.kind === 'pfsense-mcp/authorization-request') {
    signed = createPlanAuthorizationFromRequest(request as PendingAuthorizationRequest, w.operator['plan-authorization'], { issuedAt: Date.now() });
  } else if (request.kind === 'pfsense-mcp/confirmation-request') {
    signed = createConfirmationEvidence(request as PendingConfirmationRequest, w.operator.confirmation, { issuedAt: Date.now() });
  } else if (request.kind === 'pfsense-mcp/reconciliation-request') {
    signed = createReconciliationEvidence(request, w.operator.reconciliation, { issuedAt: Date.now(), outcome: outcome ?? 'APPLIED' });
  } else {
    throw new Error(`cannot sign ${request.kind}`);
  }
  const target = join(w.layout.inboxDir, `signed-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(target, encodeArtifact(signed), { mode: 0o600, flag: 'wx' });
  chmodSync(target, 0o600);
  return target;
}

// ---------------------------------------------------------------- in-process server

export interface WriteHarness {
  readonly client: Client;
  readonly attachment: WriteAttachment;
  readonly logs: string[];
  close(): Promise<void>;
}

export function serverConfig(sim: RunningSimulator, extra: Partial<ServerConfig> = {}): ServerConfig {
  return {
    url: sim.url,
    apiKeyFile: '/unused',
    caFile: null,
    profile: 'write_protected',
    allowedTools: null,
    toolsets: null,
    logLevel: 'debug',
    allowHttpLoopback: true,
    write: { dir: null, anchorDir: null, apiKeyFile: null },
    ...extra,
  };
}

/** The program's two-step attach (READ tools, then the write tool), over an in-memory MCP link. */
export async function startWriteHarness(
  config: ServerConfig,
  readApiKey: string,
  options: { allowListed?: () => boolean; era?: Era } = {},
): Promise<WriteHarness> {
  const { era = 'modern', ...attachOptions } = options;
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const factory = createServerFactory(config.profile as Profile, config.allowedTools, config.toolsets);
  const handle = buildReadClient(config, readApiKey);
  attachReadTools(factory, handle.client);
  const attachment = await attachWriteTool(factory, config, readApiKey, logger, attachOptions);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(() => factory.create(), { transport: observeToolCalls(serverSide, logger, factory.names) });
  const client = newClient(era, 'mcp-write-test');
  await client.connect(clientSide);
  assertEra(client, era);
  let closed = false;
  return {
    client,
    attachment,
    logs,
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
      await served.close();
      if (attachment.runtime !== null) {
        await attachment.runtime.drain();
        attachment.runtime.close();
      }
      handle.close();
    },
  };
}

export interface WriteResult {
  readonly status: string;
  readonly operation_id: string | null;
  readonly contract_id: string | null;
  readonly pending_request: string | null;
  readonly next_step: string;
}

/** Calls the write tool; returns the structured result and checks the text block is the same JSON. */
export async function callWrite(client: Client, args: Record<string, unknown>): Promise<WriteResult & { raw: string }> {
  const r = (await client.callTool({ name: WRITE_TOOL, arguments: args })) as { content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean };
  const text = r.content[0]?.text ?? '';
  if (r.isError === true) throw new Error(`write tool error: ${text}`);
  const structured = r.structuredContent as WriteResult;
  if (JSON.stringify(structured) !== text) throw new Error('text block differs from structuredContent');
  return { ...structured, raw: text };
}

/** Appends one refusal row to the contract store's chain (its anchor advances), as any refused call would. */
export async function advanceContractStore(w: TestWriteDirectory): Promise<void> {
  const store = await SqliteRecoveryContractStore.open({ directory: w.layout.storeDir, masterKey: w.masterKey, clock: Date.now, anchor: { file: w.layout.contractsAnchorFile } });
  store.recordRefusal({ gate: 'SIGNATURE', refusalClass: 'ANOMALY' });
  store.close();
}

/** Consumes one authorization id in the consumption store (its anchor advances). */
export async function advanceConsumptionStore(w: TestWriteDirectory): Promise<void> {
  const consumption = await SqliteConsumptionStore.open({ directory: w.layout.storeDir, masterKey: w.masterKey, clock: Date.now, anchor: { file: w.layout.consumptionAnchorFile } });
  consumption.tryConsume(`auth-${Date.now()}`);
  consumption.close();
}
