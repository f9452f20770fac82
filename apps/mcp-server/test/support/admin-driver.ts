// A write-path composition over a write directory made by `pfsense-mcp admin init`, in the test process: what a
// running server holds (both stores, executor, the operation driver), so the admin commands — real child
// processes — can be run beside it on the same files. The operator's signatures come from the library.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
} from '@pfsense-mcp/authorization';
import type { Artifact, PendingAuthorizationRequest, PendingConfirmationRequest } from '@pfsense-mcp/authorization';
import { bytesToHex } from '@pfsense-mcp/canonical';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { AliasDescriptionAdapter } from '@pfsense-mcp/adapters';
import { CapabilityRegistry, OperationDriver, createStoreEvidenceVerifiers } from '@pfsense-mcp/coordinator';
import type { ChangeResult } from '@pfsense-mcp/coordinator';
import { PinnedAuthoritySet, generateEd25519KeyPair, keyIdOf, readEd25519PrivateKeyFile } from '@pfsense-mcp/crypto';
import { MutationExecutor } from '@pfsense-mcp/executor';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { ALIAS_WRITE_POLICY, Profile } from '@pfsense-mcp/policy';
import { LOOSE_RATE_LIMITS } from '@pfsense-mcp/test-support';
import { createHttpTransport } from '@pfsense-mcp/transports';
import type { HttpTransport } from '@pfsense-mcp/transports';
import { WriteApiClient } from '@pfsense-mcp/write-client';
import { loadPinnedAuthorities, pinnedAuthoritySetOf, writeDirectoryLayout } from '../../src/index.js';
import type { WriteDirectoryLayout } from '../../src/index.js';

export const ALIASES_PATH = '/api/v2/firewall/aliases';
export const STATUS_PATH = '/api/v2/status/system';
export const ALIASES = Object.freeze([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
  { name: 'VPN_PEERS', type: 'host', descr: 'Peers', address: ['10.9.0.1'], detail: ['peer'] },
]);
export const SIM_DATA = Object.freeze({
  [ALIASES_PATH]: ALIASES,
  [STATUS_PATH]: { platform: 'Netgate 4200', netgate_id: 'a1b2c3d4e5f60718' },
});

export interface OperatorKey {
  readonly privateKey: Uint8Array;
  readonly publicHex: string;
  readonly keyId: string;
  readonly pubFile: string;
}

export function operatorKey(dir: string, role: string): OperatorKey {
  const { privateKey, publicKey } = generateEd25519KeyPair();
  const publicHex = bytesToHex(publicKey);
  const pubFile = join(dir, `${role}-${keyIdOf(publicKey).slice(0, 8)}.pub`);
  writeFileSync(pubFile, `${publicHex}\n`, { mode: 0o600 });
  return { privateKey, publicHex, keyId: keyIdOf(publicKey), pubFile };
}

export interface Driver {
  readonly layout: WriteDirectoryLayout;
  readonly store: SqliteRecoveryContractStore;
  request(aliasName: string, description: string): Promise<ChangeResult>;
  /** The outbox file verified against the server key. */
  pending(fileName: string): Artifact;
  close(): void;
}

/**
 * `clockOffsetMs` (≤ 0, within the signatures' clock-skew allowance) runs this composition that far in the past:
 * what it writes happened "earlier" — e.g. a change verified longer ago than the default cooldown.
 */
export async function openDriver(
  dir: string,
  sim: { url: string; apiKey: string },
  options: { readonly clockOffsetMs?: number } = {},
): Promise<Driver> {
  const layout = writeDirectoryLayout(dir);
  const offset = options.clockOffsetMs ?? 0;
  const clock = (): number => Date.now() + offset;
  const authorities = pinnedAuthoritySetOf(loadPinnedAuthorities(layout.authoritiesFile));
  const store = await SqliteRecoveryContractStore.open({
    directory: layout.storeDir,
    masterKeyFile: layout.masterKeyFile,
    clock,
    anchor: { file: layout.contractsAnchorFile },
    rateLimits: LOOSE_RATE_LIMITS,
    ...createStoreEvidenceVerifiers({ authorities }),
  });
  const consumption = await SqliteConsumptionStore.open({
    directory: layout.storeDir,
    masterKeyFile: layout.masterKeyFile,
    clock,
    anchor: { file: layout.consumptionAnchorFile },
  });
  const transports: HttpTransport[] = [];
  const transport = (): HttpTransport => {
    const t = createHttpTransport({
      baseUrl: sim.url,
      allowHttpLoopback: true,
      authHeader: { name: 'X-API-Key', value: sim.apiKey },
      keepAlive: false,
    });
    transports.push(t);
    return t;
  };
  const readClient = new RestApiClient(transport());
  const executor = new MutationExecutor({
    store,
    writeClient: new WriteApiClient(transport()),
    readClient,
    policy: ALIAS_WRITE_POLICY,
    clock,
  });
  const server = readEd25519PrivateKeyFile(layout.serverRequestKeyFile);
  const serverAuthorities = PinnedAuthoritySet.of([
    { keyId: server.keyId, publicKey: server.publicKey, role: 'server-request', active: true },
  ]);
  const driver = new OperationDriver({
    capabilities: CapabilityRegistry.of([AliasDescriptionAdapter]),
    store,
    consumption,
    executor,
    readClient,
    policy: ALIAS_WRITE_POLICY,
    profile: Profile.WRITE_PROTECTED,
    authorities,
    appliance: { baseUrl: sim.url, tlsMode: 'http-loopback' },
    clock,
    inboxDirectory: layout.inboxDir,
    outboxDirectory: layout.outboxDir,
    serverKey: { privateKey: server.privateKey },
    serverAuthorities,
  });
  return {
    layout,
    store,
    request: (aliasName, description) => driver.requestChange('ALIAS_WRITE', { alias_name: aliasName, description }),
    pending: (fileName) =>
      verifyPendingRequest(parseArtifact(readFileSync(join(layout.outboxDir, fileName))), { serverAuthorities, nowMs: Date.now() }),
    close: () => {
      store.close();
      consumption.close();
      for (const t of transports) t.close();
    },
  };
}

/** The operator signs the pending request and hands back a file (as it would arrive from the other machine). */
export function signedFile(driver: Driver, pendingFile: string, key: OperatorKey): string {
  const request = driver.pending(pendingFile);
  const signed =
    request.kind === 'pfsense-mcp/authorization-request'
      ? createPlanAuthorizationFromRequest(request as PendingAuthorizationRequest, key, { issuedAt: Date.now() })
      : createConfirmationEvidence(request as PendingConfirmationRequest, key, { issuedAt: Date.now() });
  const dir = mkdtempSync(join(tmpdir(), 'admin-signed-'));
  const path = join(dir, 'signed.json');
  writeFileSync(path, encodeArtifact(signed), { mode: 0o644 });
  chmodSync(path, 0o644);
  return path;
}
