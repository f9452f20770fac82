import { z } from 'zod';
import type { RecoveryContract } from '../model/recovery-contract.js';
import { hex64Schema, locatorSchema, safeTokenSchema, utcMsSchema } from '../model/recovery-contract.js';

/**
 * Evidence verification is injected: the signed artifact formats live in libs/authorization, which this
 * lib must not import. A verifier throws on anything it does not accept and returns the facts it
 * verified; the store re-checks those facts against the stored contract and records them (value-free).
 */
export interface ConfirmationVerifier {
  verify(contract: RecoveryContract, evidence: unknown, nowMs: number): VerifiedConfirmation;
}

export interface VerifiedConfirmation {
  readonly confirmationId: string;
  readonly confirmationDigest: string;
  readonly authorityKeyId: string;
  readonly contractId: string;
  readonly expiresAt: number;
}

export type ReconciliationOrigin = 'EXECUTING' | 'ROLLING_BACK';
export type ReconciliationOutcome = 'FORWARD_APPLIED' | 'FORWARD_NOT_APPLIED' | 'ROLLBACK_APPLIED' | 'ROLLBACK_NOT_APPLIED';

export interface ReconciliationVerifier {
  verify(contract: RecoveryContract, signedResolution: unknown, nowMs: number): VerifiedResolution;
}

export interface VerifiedResolution {
  readonly resolutionId: string;
  readonly resolutionDigest: string;
  readonly authorityKeyId: string;
  /** The pinned role the signing key holds; anything but 'reconciliation' is refused by the store. */
  readonly authorityRole: string;
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
  readonly origin: ReconciliationOrigin;
  readonly outcome: ReconciliationOutcome;
  readonly observedLifecycleLocator: number;
  /** Fresh fingerprint digest of the observed target; required for FORWARD_APPLIED (it is sealed). */
  readonly observedFingerprint: string | null;
}

/** Verifies the signed release of a ROLLBACK_FAILED contract's target reservation. */
export interface ReservationReleaseVerifier {
  verify(contract: RecoveryContract, signedRelease: unknown, nowMs: number): VerifiedReservationRelease;
}

export interface VerifiedReservationRelease {
  readonly releaseId: string;
  readonly releaseDigest: string;
  readonly authorityKeyId: string;
  readonly authorityRole: string;
  readonly contractId: string;
  readonly operationId: string;
  readonly stateVersion: number;
}

export const verifiedConfirmationSchema = z.strictObject({
  confirmationId: safeTokenSchema,
  confirmationDigest: hex64Schema,
  authorityKeyId: hex64Schema,
  contractId: safeTokenSchema,
  expiresAt: utcMsSchema,
});

export const verifiedResolutionSchema = z.strictObject({
  resolutionId: safeTokenSchema,
  resolutionDigest: hex64Schema,
  authorityKeyId: hex64Schema,
  authorityRole: z.string().max(64),
  contractId: safeTokenSchema,
  operationId: safeTokenSchema,
  stateVersion: z.number().int().positive(),
  origin: z.enum(['EXECUTING', 'ROLLING_BACK']),
  outcome: z.enum(['FORWARD_APPLIED', 'FORWARD_NOT_APPLIED', 'ROLLBACK_APPLIED', 'ROLLBACK_NOT_APPLIED']),
  observedLifecycleLocator: locatorSchema,
  observedFingerprint: hex64Schema.nullable(),
});

export const verifiedReleaseSchema = z.strictObject({
  releaseId: safeTokenSchema,
  releaseDigest: hex64Schema,
  authorityKeyId: hex64Schema,
  authorityRole: z.string().max(64),
  contractId: safeTokenSchema,
  operationId: safeTokenSchema,
  stateVersion: z.number().int().positive(),
});
