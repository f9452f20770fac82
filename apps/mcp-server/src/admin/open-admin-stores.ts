import { isSafeToken } from '@pfsense-mcp/canonical';
import {
  ContractNotFoundError,
  ContractStoreError,
  SqliteConsumptionStore,
  SqliteRecoveryContractStore,
} from '@pfsense-mcp/contract-store';
import type { ConsumptionStoreOptions, ContractStoreOptions } from '@pfsense-mcp/contract-store';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';

export interface AdminStoreOptions {
  /** Verify every row and the chain at open (default true; `audit verify` opens without, to report instead). */
  readonly verifyOnOpen?: boolean;
  readonly migrate?: boolean;
}

/** A store refusal as an admin refusal: the store's code and its (value-free) message. */
export function storeRefusal(error: unknown): unknown {
  if (error instanceof ContractNotFoundError) return new AdminError('UNKNOWN_CONTRACT', 'CONTRACT_ID: no contract has this id');
  if (error instanceof ContractStoreError)
    return new AdminError(`STORE_${error.code}`, `store refused (${error.name} ${error.code}): ${error.message}`);
  return error;
}

/**
 * Opens the contract store of a checked write directory the way the server does (its file, the master key, its
 * anchor), without evidence verifiers: the admin commands that need signed evidence go through the coordinator.
 */
export async function openAdminContractStore(
  layout: WriteDirectoryLayout,
  ctx: AdminContext,
  options: AdminStoreOptions = {},
): Promise<SqliteRecoveryContractStore> {
  try {
    return await SqliteRecoveryContractStore.open(adminContractStoreOptions(layout, ctx, options));
  } catch (error) {
    throw storeRefusal(error);
  }
}

/** The contract store's open options as the server uses them (for a caller that needs the store's own errors). */
export function adminContractStoreOptions(
  layout: WriteDirectoryLayout,
  ctx: AdminContext,
  options: AdminStoreOptions = {},
): ContractStoreOptions {
  return {
    directory: layout.storeDir,
    fileName: 'contracts.sqlite',
    masterKeyFile: layout.masterKeyFile,
    clock: ctx.now,
    anchor: { file: layout.contractsAnchorFile },
    verifyOnOpen: options.verifyOnOpen ?? true,
    migrate: options.migrate === true,
  };
}

/** Opens the consumption store with its anchor, as the server does. */
export async function openAdminConsumptionStore(
  layout: WriteDirectoryLayout,
  ctx: AdminContext,
  options: AdminStoreOptions = {},
): Promise<SqliteConsumptionStore> {
  try {
    return await SqliteConsumptionStore.open(adminConsumptionStoreOptions(layout, ctx, options));
  } catch (error) {
    throw storeRefusal(error);
  }
}

/** The consumption store's open options as the server uses them. */
export function adminConsumptionStoreOptions(
  layout: WriteDirectoryLayout,
  ctx: AdminContext,
  options: AdminStoreOptions = {},
): ConsumptionStoreOptions {
  return {
    directory: layout.storeDir,
    fileName: 'consumption.sqlite',
    masterKeyFile: layout.masterKeyFile,
    clock: ctx.now,
    anchor: { file: layout.consumptionAnchorFile },
    migrate: options.migrate === true,
  };
}

/** Runs `f` with the contract store open, closing it whatever happens. */
export async function withContractStore<T>(
  layout: WriteDirectoryLayout,
  ctx: AdminContext,
  f: (store: SqliteRecoveryContractStore) => T | Promise<T>,
  options: AdminStoreOptions = {},
): Promise<T> {
  const store = await openAdminContractStore(layout, ctx, options);
  try {
    return await f(store);
  } catch (error) {
    throw storeRefusal(error);
  } finally {
    store.close();
  }
}

/** CONTRACT_ID operand: a safe token (never echoed back in a refusal). */
export function contractIdOperand(value: string): string {
  if (!isSafeToken(value)) throw AdminError.usage('CONTRACT_ID: must be a contract id as `admin status` shows it');
  return value;
}
