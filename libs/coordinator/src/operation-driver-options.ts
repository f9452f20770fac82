import type { SigningKey } from '@pfsense-mcp/authorization';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { assertFunction, assertObject } from '@pfsense-mcp/foundation';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { ArtifactDirectory } from './artifact-directory.js';
import type { GatekeeperOptions } from './gatekeeper.js';
import type { ApplianceConfig } from './read-appliance-binding.js';
import type { RefusalAuditSink } from './refusal-audit.js';

/**
 * Everything the write path is built from: the gatekeeper's parts (capability registry, store, ledger,
 * executor, policy, profile, operator authorities, clock, contract lifetime), the GET-only client and the
 * appliance it reads, where refusals go, and the driver's own inbox, outbox and server request key.
 */
export interface OperationDriverOptions extends Omit<GatekeeperOptions, 'refusals'> {
  /** The GET-only client: the call's one read pass (appliance binding, target). */
  readonly readClient: RestApiClient;
  readonly appliance: ApplianceConfig;
  /** Where refusals go; default: the store's HMAC-chained audit (StoreRefusalAudit). Tests may inject. */
  readonly audit?: RefusalAuditSink;
  /**
   * Fixed directories from configuration (created 0700 on first use; never caller input). Tests may pass
   * an ArtifactDirectory opened with its test-only owner seam instead of a path.
   */
  readonly inboxDirectory: string | ArtifactDirectory;
  readonly outboxDirectory: string | ArtifactDirectory;
  /** The server's own request key (role server-request): it signs pending requests, nothing else. */
  readonly serverKey: SigningKey;
  /** The pinned public half of serverKey (role server-request): re-verifies the server's own outbox files. */
  readonly serverAuthorities: PinnedAuthoritySet;
  /** Validity of a pending authorization / reconciliation / release request (default 1 h, max 7 days). */
  readonly requestLifetimeMs?: number;
}

const DEFAULT_REQUEST_LIFETIME_MS = 60 * 60 * 1000;
const MAX_REQUEST_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The driver's own checks of its options (the gatekeeper checks the parts it is built from): the store, the
 * read client, the appliance, the clock, the audit sink, the server key, the request lifetime and the two
 * different directories. Returns the lifetime and the directory paths it settled.
 */
export function checkDriverOptions(options: OperationDriverOptions): { lifetime: number; inboxPath: string; outboxPath: string } {
  const fn = 'OperationDriver';
  assertObject(options, `${fn}: "options"`);
  if (!(options.store instanceof SqliteRecoveryContractStore)) throw new TypeError(`${fn}: "store" must be a SqliteRecoveryContractStore`);
  if (!(options.readClient instanceof RestApiClient)) throw new TypeError(`${fn}: "readClient" must be a RestApiClient`);
  assertObject(options.appliance, `${fn}: "appliance"`);
  if (typeof options.appliance.baseUrl !== 'string' || typeof options.appliance.tlsMode !== 'string') {
    throw new TypeError(`${fn}: "appliance" must be {baseUrl, tlsMode}`);
  }
  assertFunction(options.clock, `${fn}: "clock"`, 'a function returning UTC milliseconds');
  if (options.audit !== undefined) {
    assertObject(options.audit, `${fn}: "audit"`);
    assertFunction(options.audit.record, `${fn}: "audit.record"`, 'a function record(event)');
  }
  assertObject(options.serverKey, `${fn}: "serverKey"`);
  if (!(options.serverKey.privateKey instanceof Uint8Array)) throw new TypeError(`${fn}: "serverKey.privateKey" must be a Uint8Array`);
  if (!(options.serverAuthorities instanceof PinnedAuthoritySet))
    throw new TypeError(`${fn}: "serverAuthorities" must be a PinnedAuthoritySet`);
  const lifetime = options.requestLifetimeMs ?? DEFAULT_REQUEST_LIFETIME_MS;
  if (!Number.isSafeInteger(lifetime) || lifetime < 1000 || lifetime > MAX_REQUEST_LIFETIME_MS) {
    throw new TypeError(`${fn}: "requestLifetimeMs" must be an integer between 1000 and ${MAX_REQUEST_LIFETIME_MS}`);
  }
  const pathOf = (d: unknown): string | null => (typeof d === 'string' ? d : d instanceof ArtifactDirectory ? d.path : null);
  const inboxPath = pathOf(options.inboxDirectory);
  const outboxPath = pathOf(options.outboxDirectory);
  if (inboxPath === null || outboxPath === null || inboxPath === outboxPath) {
    throw new TypeError(`${fn}: "inboxDirectory" and "outboxDirectory" must be two different paths`);
  }
  return { lifetime, inboxPath, outboxPath };
}
