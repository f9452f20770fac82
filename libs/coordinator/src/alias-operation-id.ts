import { digest, DigestPurpose, isHex64 } from '@pfsense-mcp/canonical';

/**
 * The operation id of an alias-description change (docs/DESIGN.md §6): derived from the appliance binding
 * digest, the alias name and the requested description — so asking again with the same arguments on the
 * same appliance names the same operation. "op-" + 64 hex (a safe token). The INTENT purpose is shared
 * with normalized intents; the "pfsense-mcp/operation" kind inside the digested object keeps them apart.
 */
export function aliasOperationId(applianceBindingDigest: string, aliasName: string, description: string): string {
  if (!isHex64(applianceBindingDigest)) throw new TypeError('aliasOperationId: "applianceBindingDigest" must be 64 lowercase hex');
  if (typeof aliasName !== 'string') throw new TypeError('aliasOperationId: "aliasName" must be a string');
  if (typeof description !== 'string') throw new TypeError('aliasOperationId: "description" must be a string');
  const d = digest(DigestPurpose.INTENT, {
    kind: 'pfsense-mcp/operation',
    version: 1,
    payload: { appliance_binding_digest: applianceBindingDigest, alias_name: aliasName, description },
  });
  return `op-${d}`;
}

/** Step id of the n-th attempt of an operation (a new attempt starts after a closed contract). */
export function aliasAttemptStepId(attempt: number): string {
  if (!Number.isSafeInteger(attempt) || attempt < 1 || attempt > 1_000_000) {
    throw new TypeError('aliasAttemptStepId: "attempt" must be an integer 1..1000000');
  }
  return `alias-description.attempt-${attempt}`;
}
