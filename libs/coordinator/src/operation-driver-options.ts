import type { SigningKey } from '@pfsense-mcp/authorization';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import type { ArtifactDirectory } from './artifact-directory.js';
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
