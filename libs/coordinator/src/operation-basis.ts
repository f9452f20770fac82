import { TargetResolutionError } from '@pfsense-mcp/adapters';
import type { TargetReader } from '@pfsense-mcp/adapters';
import type { WriteCapability } from './capability-registry.js';
import { CoordinatorInputError } from './coordinator-input-error.js';

/**
 * What besides the checked input names an operation (docs/DESIGN.md §6): nothing for most capabilities; for one
 * whose adapter defines `operationBasisOf` (the alias entries: a digest of the entries before the change), that
 * basis from one read of the target — so block → unblock → block are three operations, never a stale
 * `verified`. A target that does not exist is the caller's input error, as in the driver's own read.
 */
export async function operationBasisOf(adapter: WriteCapability, reader: TargetReader, checked: object): Promise<object> {
  const basisOf = adapter.operationBasisOf;
  if (typeof basisOf !== 'function') return {};
  let target: unknown;
  try {
    target = await adapter.readTarget(reader, adapter.identityOfIntent(adapter.intentOfInput(checked)));
  } catch (e) {
    if (e instanceof TargetResolutionError && e.code === 'NOT_FOUND') {
      throw new CoordinatorInputError('UNKNOWN_TARGET', e.argument, 'NOT_FOUND', 'names nothing on the appliance');
    }
    // Any other failure is I/O: the driver refuses the call, audited like its own failed read (STALE).
    throw e;
  }
  return basisOf(target);
}
