import type { AliasSnapshot } from '@pfsense-mcp/adapters';
import type { AliasState } from '@pfsense-mcp/authorization';

/**
 * The five semantic fields of an alias snapshot as a fresh frozen object with its own arrays: the one copy
 * shown for review (pre-state, observed state) and stored as a contract's rollback snapshot.
 */
export function aliasStateCopy(snapshot: AliasSnapshot): AliasState {
  if (snapshot === null || typeof snapshot !== 'object') throw new TypeError('aliasStateCopy: "snapshot" must be an alias snapshot');
  return Object.freeze({
    name: snapshot.name,
    type: snapshot.type,
    descr: snapshot.descr,
    address: [...snapshot.address],
    detail: [...snapshot.detail],
  });
}
