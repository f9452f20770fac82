import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { verifyBindings } from '@pfsense-mcp/contract-store';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { ExecutorContractStore } from '@pfsense-mcp/contract-store/executor';
import type { CheckedAdapter } from './check-adapter.js';
import { ExecutorRefusalError } from './executor-refusal-error.js';
import type { ExecutorOperation } from './executor-refusal-error.js';
import { isPlainObject } from './is-plain-object.js';
import { refuseOnStoreError, safeCode } from './refuse-on-store-error.js';

/** What the binding checks need from the executor's store entry: the protected artifacts, decrypted. */
export type ArtifactDecryptor = Pick<ExecutorContractStore, 'decryptProtectedArtifact'>;

/** The adapter's static descriptors must be the contract's (capability, endpoint, method, rollback plan). */
export function bindDescriptors(op: ExecutorOperation, contract: RecoveryContract, a: CheckedAdapter): void {
  const pairs: readonly (readonly [string, string, string])[] = [
    ['capability', contract.capability, a.capability],
    ['endpoint_symbol', contract.endpoint_symbol, a.endpointSymbol],
    ['http_method', contract.http_method, a.httpMethod],
    ['rollback_plan_version', contract.rollback_plan_version, a.rollbackPlanVersion],
  ];
  for (const [field, want, got] of pairs) {
    if (want !== got) throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field });
  }
}

/** The decrypted target identity, checked against the contract's identity digest. Stays in the caller's frame. */
export function storedIdentity(
  entry: ArtifactDecryptor,
  op: ExecutorOperation,
  contract: RecoveryContract,
  a: CheckedAdapter,
): CanonicalValue {
  const identity = refuseOnStoreError(op, contract.contract_id, () =>
    entry.decryptProtectedArtifact(contract.contract_id, 'target-identity'),
  );
  let digest: unknown;
  try {
    digest = a.fn.identityDigest(identity);
  } catch {
    throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field: 'target_identity' });
  }
  if (digest !== contract.target_identity_digest) {
    throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field: 'target_identity' });
  }
  return identity;
}

/**
 * Execute step 3: identity from the caller's intent.raw_target_hint, its intent digest, and the precondition
 * fingerprint recomputed from the contract's protected snapshot, all compared with verifyBindings. Returns
 * the stored target identity (equal in digest to the caller's) for the reads.
 */
export function bindExecution(
  entry: ArtifactDecryptor,
  op: ExecutorOperation,
  contract: RecoveryContract,
  a: CheckedAdapter,
  intent: unknown,
): CanonicalValue {
  const id = contract.contract_id;
  let identityDigest: unknown;
  let intentDigest: unknown;
  try {
    if (!isPlainObject(intent) || !Object.prototype.hasOwnProperty.call(intent, 'raw_target_hint')) throw new TypeError('intent');
    const hint = (intent as { raw_target_hint: unknown }).raw_target_hint;
    identityDigest = a.fn.identityDigest(a.fn.naturalIdentity(hint));
    intentDigest = a.fn.intentDigest(intent);
  } catch (error) {
    throw new ExecutorRefusalError('INTENT_INVALID', op, id, { reason: safeCode(error) });
  }
  let precondition: unknown;
  let snapshotDigest: unknown;
  {
    const snapshot = refuseOnStoreError(op, id, () => entry.decryptProtectedArtifact(id, 'snapshot'));
    try {
      precondition = a.fn.fingerprint(snapshot);
      snapshotDigest = a.fn.snapshotDigest(snapshot);
    } catch {
      throw new ExecutorRefusalError('BINDING_MISMATCH', op, id, { field: 'snapshot' });
    }
  }
  if (typeof identityDigest !== 'string' || typeof intentDigest !== 'string' || typeof precondition !== 'string') {
    throw new ExecutorRefusalError('ADAPTER_INVALID', op, id);
  }
  refuseOnStoreError(op, id, () =>
    verifyBindings(contract, {
      capability: a.capability,
      endpoint_symbol: a.endpointSymbol,
      http_method: a.httpMethod,
      target_identity_digest: identityDigest as string,
      target_fingerprint: precondition as string,
      intent_digest: intentDigest as string,
    }),
  );
  if (snapshotDigest !== contract.snapshot_digest) throw new ExecutorRefusalError('BINDING_MISMATCH', op, id, { field: 'snapshot_digest' });
  bindDescriptors(op, contract, a);
  return storedIdentity(entry, op, contract, a);
}

/** Rollback's bindings: the descriptors, the sealed locator equal to the lifecycle locator, the stored identity. */
export function bindRollback(
  entry: ArtifactDecryptor,
  op: ExecutorOperation,
  contract: RecoveryContract,
  a: CheckedAdapter,
): CanonicalValue {
  bindDescriptors(op, contract, a);
  if (contract.verified_lifecycle_locator !== contract.lifecycle_locator) {
    throw new ExecutorRefusalError('BINDING_MISMATCH', op, contract.contract_id, { field: 'verified_lifecycle_locator' });
  }
  return storedIdentity(entry, op, contract, a);
}
