import type { AliasSnapshot } from '@pfsense-mcp/adapters';
import type { AliasState } from '@pfsense-mcp/authorization';
import { assertObject } from '@pfsense-mcp/foundation';

/**
 * The five semantic fields of an alias snapshot as a fresh frozen object with its own arrays: the one copy
 * shown for review (pre-state, observed state) and stored as a contract's rollback snapshot.
 */
export function aliasStateCopy(snapshot: AliasSnapshot): AliasState {
  assertObject(snapshot, 'aliasStateCopy: "snapshot"');
  return Object.freeze({
    name: snapshot.name,
    type: snapshot.type,
    descr: snapshot.descr,
    address: [...snapshot.address],
    detail: [...snapshot.detail],
  });
}
