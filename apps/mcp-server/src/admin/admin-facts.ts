import type { RecoveryContract, SqliteConsumptionStore, SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import { ArtifactDirectory } from '@pfsense-mcp/coordinator';
import { readEd25519PrivateKeyFile } from '@pfsense-mcp/crypto';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { loadServerRequestAuthorities } from '../runtime/write-runtime/load-server-request-authorities.js';
import { loadPinnedAuthorities, pinnedAuthoritySetOf } from '../runtime/write-directory/pinned-authorities-file.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import type { ArtifactFacts } from './classify-artifacts.js';
import { openAdminConsumptionStore, openAdminContractStore, storeRefusal } from './open-admin-stores.js';

/** Every contract of the store, oldest id first (pages of the store's maximum). */
export function allContracts(store: SqliteRecoveryContractStore): readonly RecoveryContract[] {
  const out: RecoveryContract[] = [];
  let after: string | undefined;
  for (;;) {
    const page = store.list({ limit: 1000, ...(after === undefined ? {} : { afterContractId: after }) });
    out.push(...page);
    if (page.length < 1000) return Object.freeze(out);
    after = page[page.length - 1]?.contract_id;
  }
}

/**
 * The server's own request keys as a pinned set (they verify the outbox: only the server's files are authentic): the
 * current key and each retired key still needed, exactly as the server decides it at start.
 */
function serverAuthoritiesOf(
  layout: WriteDirectoryLayout,
  contracts: ReadonlyMap<string, RecoveryContract>,
  now: number,
): PinnedAuthoritySet {
  const key = readEd25519PrivateKeyFile(layout.serverRequestKeyFile);
  key.privateKey.fill(0);
  return loadServerRequestAuthorities(layout, key, (id) => contracts.get(id), now).authorities;
}

export interface OpenedWriteDirectory {
  readonly store: SqliteRecoveryContractStore;
  readonly consumption: SqliteConsumptionStore;
  readonly inbox: ArtifactDirectory;
  readonly outbox: ArtifactDirectory;
  facts(): ArtifactFacts;
}

/** Opens both stores and the artifact directories, runs `f`, closes everything. */
export async function withWriteDirectory<T>(
  layout: WriteDirectoryLayout,
  ctx: AdminContext,
  f: (w: OpenedWriteDirectory) => T | Promise<T>,
): Promise<T> {
  const store = await openAdminContractStore(layout, ctx);
  let consumption: SqliteConsumptionStore | null = null;
  try {
    consumption = await openAdminConsumptionStore(layout, ctx);
    let inbox: ArtifactDirectory;
    let outbox: ArtifactDirectory;
    try {
      inbox = ArtifactDirectory.open(layout.inboxDir);
      outbox = ArtifactDirectory.open(layout.outboxDir);
    } catch {
      throw new AdminError('ARTIFACT_DIR', `${layout.inboxDir} or ${layout.outboxDir}: must be real directories of yours, mode 0700`);
    }
    const opened = consumption;
    const w: OpenedWriteDirectory = {
      store,
      consumption: opened,
      inbox,
      outbox,
      facts: () => {
        const contracts = new Map(allContracts(store).map((c) => [c.contract_id, c]));
        const now = ctx.now();
        return Object.freeze({
          now,
          contracts,
          consumption: opened,
          operatorAuthorities: pinnedAuthoritySetOf(loadPinnedAuthorities(layout.authoritiesFile)),
          serverAuthorities: serverAuthoritiesOf(layout, contracts, now),
        });
      },
    };
    return await f(w);
  } catch (error) {
    throw storeRefusal(error);
  } finally {
    consumption?.close();
    store.close();
  }
}
