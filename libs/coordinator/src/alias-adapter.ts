import { AliasDescriptionAdapter } from '@pfsense-mcp/adapters';
import { isSafeToken } from '@pfsense-mcp/canonical';

/**
 * The alias-description adapter as the coordinator hands it to the executor. The contract store keeps
 * rollback_plan_version as a safe token and the executor compares it with the adapter's, but the adapter
 * spells it "firewall-alias-description-rollback/v1". Until the two libraries agree, the one
 * reversible spelling both accept is used ("/" → ".", the same as the executor's tests); every function is
 * the adapter's own. When the adapter's version is already a safe token this is the adapter itself.
 */
export const ALIAS_ADAPTER: typeof AliasDescriptionAdapter = isSafeToken(AliasDescriptionAdapter.rollbackPlanVersion)
  ? AliasDescriptionAdapter
  : Object.freeze({ ...AliasDescriptionAdapter, rollbackPlanVersion: (AliasDescriptionAdapter.rollbackPlanVersion as string).replaceAll('/', '.') });
