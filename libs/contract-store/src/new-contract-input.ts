import { z } from 'zod';
import {
  capabilitySchema,
  hex64Schema,
  locatorSchema,
  mutatingMethodSchema,
  provenanceSchema,
  safeTokenSchema,
  utcMsSchema,
  versionTokenSchema,
} from './recovery-contract.js';

/**
 * What `create` accepts: the immutable bindings plus the three plaintext artifacts, which the store
 * encrypts before anything is written. The store assigns `contract_id` unless one is given.
 */
export const newContractInputSchema = z.strictObject({
  contract_id: safeTokenSchema.optional(),
  operation_id: safeTokenSchema,
  capability: capabilitySchema,
  endpoint_symbol: safeTokenSchema,
  http_method: mutatingMethodSchema,
  target_identity_digest: hex64Schema,
  target_fingerprint: hex64Schema,
  intent_digest: hex64Schema,
  snapshot_digest: hex64Schema,
  rollback_plan_version: versionTokenSchema,
  lifecycle_locator: locatorSchema,
  provenance: provenanceSchema,
  expires_at: utcMsSchema,
  /** Plaintext artifacts: canonical JSON values (validated by the canonical encoder). */
  target_identity: z.unknown(),
  intent: z.unknown(),
  snapshot: z.unknown(),
});

export type NewContractInput = z.input<typeof newContractInputSchema>;
