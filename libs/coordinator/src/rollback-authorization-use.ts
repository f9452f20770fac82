import { ArtifactKind, validateArtifactDocument, verifyRollbackAuthorization } from '@pfsense-mcp/authorization';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import type { RollbackAuthorizationUse } from '@pfsense-mcp/executor';
import { needsSignedRollback } from '@pfsense-mcp/policy';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { fail, gate } from './gate-failure.js';
import { RefusalGate } from './refusal-audit.js';

/** What the check needs: the pinned operator authorities, the time, and the consumption ledger's one call. */
export interface RollbackAuthorizationDeps {
  readonly authorities: PinnedAuthoritySet;
  readonly nowMs: number;
  readonly tryConsume: (id: string, issuedAt: number) => boolean;
}

/**
 * The rollback authorization a contract's rollback is handed (docs/DESIGN.md §5), or undefined for a contract
 * whose rollback is unsigned. A signed one must be a well-formed rollback authorization, signed by a pinned
 * confirmation key, current, and bound to this VERIFIED contract's state version and sealed fingerprint; anything
 * else — missing, or given where none is taken — fails the ROLLBACK gate (ANOMALY). The ledger consumption runs
 * later, inside the store's transition (its REPLAY failure propagates from there).
 */
export function rollbackAuthorizationUseOf(
  contract: RecoveryContract,
  signed: unknown,
  deps: RollbackAuthorizationDeps,
): RollbackAuthorizationUse | undefined {
  if (!needsSignedRollback(contract.capability)) return signed === undefined ? undefined : fail('ANOMALY', RefusalGate.ROLLBACK);
  const verifiedFingerprint = contract.verified_target_fingerprint;
  if (signed === undefined || contract.state !== RecoveryState.VERIFIED || verifiedFingerprint === null)
    return fail('ANOMALY', RefusalGate.ROLLBACK);
  const doc = gate('ANOMALY', RefusalGate.ARTIFACT, () => {
    const d = validateArtifactDocument(signed);
    if (d.kind !== ArtifactKind.ROLLBACK_AUTHORIZATION) throw new TypeError('kind');
    return d;
  });
  const v = gate('ANOMALY', RefusalGate.ROLLBACK, () =>
    verifyRollbackAuthorization(doc, {
      authorities: deps.authorities,
      nowMs: deps.nowMs,
      expected: {
        contractId: contract.contract_id,
        operationId: contract.operation_id,
        stateVersion: contract.state_version,
        verifiedTargetFingerprint: verifiedFingerprint,
      },
    }),
  );
  return Object.freeze({
    rollbackAuthorizationId: v.rollbackAuthorizationId,
    authorizationDigest: v.authorizationDigest,
    authorityKeyId: v.authorityKeyId,
    consume: (id: string) => gate('ANOMALY', RefusalGate.REPLAY, () => deps.tryConsume(id, v.issuedAt)),
  });
}
