import { digest, DigestPurpose, isHex64, isSafeToken } from '@pfsense-mcp/canonical';

/**
 * The operation id of a change (docs/DESIGN.md §6): derived from the appliance binding digest and the
 * caller's checked input (its wire names: for the alias description, `alias_name` and `description`) — so
 * asking again with the same arguments on the same appliance names the same operation. "op-" + 64 hex (a
 * safe token). The INTENT purpose is shared with normalized intents; the "pfsense-mcp/operation" kind inside
 * the digested object keeps them apart.
 */
export function operationIdOf(applianceBindingDigest: string, input: object): string {
  if (!isHex64(applianceBindingDigest)) throw new TypeError('operationIdOf: "applianceBindingDigest" must be 64 lowercase hex');
  if (input === null || typeof input !== 'object' || Array.isArray(input) || 'appliance_binding_digest' in input) {
    throw new TypeError('operationIdOf: "input" must be a checked input object');
  }
  const d = digest(DigestPurpose.INTENT, {
    kind: 'pfsense-mcp/operation',
    version: 1,
    payload: { ...input, appliance_binding_digest: applianceBindingDigest },
  });
  return `op-${d}`;
}

/** Step id of the n-th attempt of an operation (a new attempt starts after a closed contract). */
export function attemptStepId(stepPrefix: string, attempt: number): string {
  if (!isSafeToken(stepPrefix)) throw new TypeError('attemptStepId: "stepPrefix" must be a safe token');
  if (!Number.isSafeInteger(attempt) || attempt < 1 || attempt > 1_000_000) {
    throw new TypeError('attemptStepId: "attempt" must be an integer 1..1000000');
  }
  return `${stepPrefix}.attempt-${attempt}`;
}
