import { z } from 'zod';
import { contractBindingShape, provenanceSchema, safeTokenSchema, utcMsSchema } from './recovery-contract.js';

/**
 * What `create` accepts: the immutable bindings plus the three plaintext artifacts, which the store
 * encrypts before anything is written. The store assigns `contract_id` unless one is given.
 */
export const newContractInputSchema = z.strictObject({
  contract_id: safeTokenSchema.optional(),
  ...contractBindingShape,
  provenance: provenanceSchema,
  expires_at: utcMsSchema,
  /** Plaintext artifacts: canonical JSON values (validated by the canonical encoder). */
  target_identity: z.unknown(),
  intent: z.unknown(),
  snapshot: z.unknown(),
});

export type NewContractInput = z.input<typeof newContractInputSchema>;
