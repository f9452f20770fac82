// The write path at library level, wired the way the product's composition root wires it (docs/DESIGN.md §2,
// §6): contract store and consumption ledger, a read client and a write client on their own loopback
// transports, the executor and the operation driver under ALIAS_WRITE_POLICY in the write-protected profile.
// The write benchmarks measure it against the product surface and against a growing outbox.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SigningKey } from '@pfsense-mcp/authorization';
import { SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { AliasDescriptionAdapter } from '@pfsense-mcp/adapters';
import { CapabilityRegistry, OperationDriver, createStoreEvidenceVerifiers } from '@pfsense-mcp/coordinator';
import type { RefusalAuditSink } from '@pfsense-mcp/coordinator';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { MutationExecutor } from '@pfsense-mcp/executor';
import { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { ALIAS_WRITE_POLICY, Profile } from '@pfsense-mcp/policy';
import { createHttpTransport } from '@pfsense-mcp/transports';
import type { HttpTransport } from '@pfsense-mcp/transports';
import { WriteApiClient } from '@pfsense-mcp/write-client';

export interface LibraryWritePathOptions {
  /** A 0700 directory: store/ (made here), inbox/ and outbox/ live below it. */
  readonly directory: string;
  readonly masterKey: Uint8Array;
  /** The simulator, reached over loopback HTTP with its key. */
  readonly sim: { readonly url: string; readonly apiKey: string };
  /** The operator's pinned keys (plan-authorization, confirmation, …). */
  readonly authorities: PinnedAuthoritySet;
  readonly serverKey: SigningKey;
  readonly serverAuthorities: PinnedAuthoritySet;
  /** The contract store's anchor file, and the consumption ledger's (none when absent). */
  readonly anchors: { readonly contracts: string; readonly consumption?: string };
  /** Where refusals go; default the store's chained audit, as in the product. */
  readonly audit?: RefusalAuditSink;
}

export interface LibraryWritePath {
  readonly driver: OperationDriver;
  readonly inbox: string;
  readonly outbox: string;
  /** Closes the transports and the stores. */
  close(): void;
}

export async function openLibraryWritePath(o: LibraryWritePathOptions): Promise<LibraryWritePath> {
  if (o === null || typeof o !== 'object') throw new TypeError('openLibraryWritePath: options must be an object');
  const storeDir = join(o.directory, 'store');
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const closers: (() => void)[] = [];
  const close = (): void => {
    for (const c of closers.splice(0).reverse()) c();
  };
  try {
    const store = await SqliteRecoveryContractStore.open({
      directory: storeDir,
      masterKey: o.masterKey,
      clock: Date.now,
      anchor: { file: o.anchors.contracts },
      ...createStoreEvidenceVerifiers({ authorities: o.authorities }),
    });
    closers.push(() => store.close());
    const consumption = await SqliteConsumptionStore.open({
      directory: storeDir,
      masterKey: o.masterKey,
      clock: Date.now,
      ...(o.anchors.consumption === undefined ? {} : { anchor: { file: o.anchors.consumption } }),
    });
    closers.push(() => consumption.close());
    const http = (): HttpTransport => {
      const t = createHttpTransport({
        baseUrl: o.sim.url,
        allowHttpLoopback: true,
        authHeader: { name: 'X-API-Key', value: o.sim.apiKey },
      });
      closers.push(() => t.close());
      return t;
    };
    const readClient = new RestApiClient(http());
    const executor = new MutationExecutor({
      store,
      writeClient: new WriteApiClient(http()),
      readClient,
      policy: ALIAS_WRITE_POLICY,
      clock: Date.now,
    });
    const inbox = join(o.directory, 'inbox');
    const outbox = join(o.directory, 'outbox');
    const driver = new OperationDriver({
      capabilities: CapabilityRegistry.of([AliasDescriptionAdapter]),
      store,
      consumption,
      executor,
      readClient,
      policy: ALIAS_WRITE_POLICY,
      profile: Profile.WRITE_PROTECTED,
      authorities: o.authorities,
      appliance: { baseUrl: o.sim.url, tlsMode: 'http-loopback' },
      clock: Date.now,
      ...(o.audit === undefined ? {} : { audit: o.audit }),
      inboxDirectory: inbox,
      outboxDirectory: outbox,
      serverKey: o.serverKey,
      serverAuthorities: o.serverAuthorities,
    });
    return Object.freeze({ driver, inbox, outbox, close });
  } catch (e) {
    close();
    throw e;
  }
}
