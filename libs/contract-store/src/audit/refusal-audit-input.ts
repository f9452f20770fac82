import { z } from 'zod';
import { hex64Schema, outcomeClassSchema, safeTokenSchema } from '../model/recovery-contract.js';

/** The two value-free refusal classes of docs/DESIGN.md §6: STALE (freshness) and ANOMALY (everything else). */
export type RefusalAuditClass = 'STALE' | 'ANOMALY';

/**
 * One refusal to append to the audit chain (docs/DESIGN.md §6: "the audit records a value-free class").
 * Only safe tokens, upper-case codes and digests: no description, alias name, key, message or reason text.
 */
export interface RefusalAuditInput {
  /** Which gate refused, an upper-case code (e.g. FRESHNESS, REPLAY). */
  readonly gate: string;
  readonly refusalClass: RefusalAuditClass;
  /** The operation, when known (a safe token). */
  readonly operationId?: string;
  /** The contract the refusal concerns, when there is one (a safe token). */
  readonly contractId?: string;
  /** The digest of the signed artifact refused, when one was parsed (64 lowercase hex). */
  readonly artifactDigest?: string;
}

/** Strict: unknown fields are refused, so nothing value-bearing can ride along. */
export const refusalAuditInputSchema = z.strictObject({
  gate: outcomeClassSchema,
  refusalClass: z.enum(['STALE', 'ANOMALY']),
  operationId: safeTokenSchema.optional(),
  contractId: safeTokenSchema.optional(),
  artifactDigest: hex64Schema.optional(),
});
