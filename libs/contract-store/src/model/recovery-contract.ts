import { isHex64, isSafeToken } from '@pfsense-mcp/canonical';
import { Capability } from '@pfsense-mcp/policy';
import { RECOVERY_STATES } from '@pfsense-mcp/state-machine';
import type { RecoveryState } from '@pfsense-mcp/state-machine';
import { z } from 'zod';
import { configHistoryRecordSchema } from './config-history-record.js';

/** Version of the persisted record format and of the AEAD associated data. */
export const CONTRACT_SCHEMA_VERSION = 1 as const;

const CAPABILITY_VALUES: ReadonlySet<string> = new Set(Object.values(Capability) as string[]);

export const safeTokenSchema = z.string().refine(isSafeToken, { message: 'must be a safe token' });
/**
 * Adapter and rollback-plan versions as docs/DESIGN.md §5 pins them (e.g. `firewall-alias-description-rollback/v1`):
 * lower-case segments separated by '/', bounded — never free text.
 */
export const versionTokenSchema = z
  .string()
  .max(128)
  .regex(/^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/u, { message: 'must be a version token' });
export const hex64Schema = z.string().refine(isHex64, { message: 'must be 64 lowercase hex digits' });
export const utcMsSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
export const locatorSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** Sanitized, value-free outcome class (e.g. PROVEN_NONE, AMBIGUOUS, INTERRUPTED). */
export const outcomeClassSchema = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/);
export const capabilitySchema = z.string().refine((v) => CAPABILITY_VALUES.has(v), { message: 'must be a Capability' });
export const mutatingMethodSchema = z.enum(['POST', 'PUT', 'PATCH', 'DELETE']);
const stateSchema = z.enum(RECOVERY_STATES as unknown as [RecoveryState, ...RecoveryState[]]);

/** The three protected (encrypted) artifacts of a contract. */
export const PROTECTED_ARTIFACT_PURPOSES = Object.freeze(['target-identity', 'intent', 'snapshot'] as const);
export type ProtectedArtifactPurpose = (typeof PROTECTED_ARTIFACT_PURPOSES)[number];

const artifactRefSchema = z.strictObject({
  /** SHA-256 of the stored AEAD envelope: binds the envelope row to the authenticated record. */
  envelope_sha256: hex64Schema,
  envelope_bytes: z.number().int().positive(),
});

const ownerSchema = z.strictObject({
  pid: z.number().int().positive(),
  /** /proc/<pid>/stat field 22 (clock ticks since boot), as a decimal string. */
  start_time: z.string().regex(/^[0-9]{1,20}$/),
  boot_id: z.string().regex(/^[0-9a-f-]{36}$/),
});

export const provenanceSchema = z.strictObject({
  authorization_id: safeTokenSchema,
  plan_digest: hex64Schema,
  step_id: safeTokenSchema,
  execution_intent_digest: hex64Schema,
  authorization_expires_at: utcMsSchema,
});

const confirmationRecordSchema = z.strictObject({
  confirmation_id: safeTokenSchema,
  confirmation_digest: hex64Schema,
  authority_key_id: hex64Schema,
  confirmed_at: utcMsSchema,
  expires_at: utcMsSchema,
});

const reconciliationRecordSchema = z.strictObject({
  origin: z.enum(['EXECUTING', 'ROLLING_BACK']),
  entered_at: utcMsSchema,
  outcome_class: outcomeClassSchema,
});

const resolutionRecordSchema = z.strictObject({
  resolution_id: safeTokenSchema,
  resolution_digest: hex64Schema,
  authority_key_id: hex64Schema,
  outcome: z.enum(['FORWARD_APPLIED', 'FORWARD_NOT_APPLIED', 'ROLLBACK_APPLIED', 'ROLLBACK_NOT_APPLIED']),
  resolved_at: utcMsSchema,
});

const releaseRecordSchema = z.strictObject({
  release_id: safeTokenSchema,
  release_digest: hex64Schema,
  authority_key_id: hex64Schema,
  released_at: utcMsSchema,
});

/** The immutable bindings a contract is created with and keeps (one definition for create and load). */
export const contractBindingShape = {
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
} as const;

/** The authenticated record of one Recovery Contract (docs/DESIGN.md §3). Snake case = persisted names. */
export const recoveryContractSchema = z.strictObject({
  schema_version: z.literal(CONTRACT_SCHEMA_VERSION),
  contract_id: safeTokenSchema,
  ...contractBindingShape,
  protected_artifacts: z.strictObject({
    'target-identity': artifactRefSchema,
    intent: artifactRefSchema,
    snapshot: artifactRefSchema,
  }),
  artifacts_purged_at: utcMsSchema.nullable(),
  provenance: provenanceSchema,
  created_at: utcMsSchema,
  expires_at: utcMsSchema,
  confirmation: confirmationRecordSchema.nullable(),
  state: stateSchema,
  state_version: z.number().int().positive(),
  updated_at: utcMsSchema,
  terminal_at: utcMsSchema.nullable(),
  verified_target_fingerprint: hex64Schema.nullable(),
  verified_lifecycle_locator: locatorSchema.nullable(),
  rollback_verified_target_fingerprint: hex64Schema.nullable(),
  rollback_verified_lifecycle_locator: locatorSchema.nullable(),
  owner: ownerSchema.nullable(),
  reconciliation: reconciliationRecordSchema.nullable(),
  resolution: resolutionRecordSchema.nullable(),
  reservation_release: releaseRecordSchema.nullable(),
  last_outcome_class: outcomeClassSchema.nullable(),
  /**
   * The config-history corroboration of the last forward / rollback send (value-free, see
   * config-history-record.ts). Absent in records written before it existed and until a send records one.
   */
  execution_config_history: configHistoryRecordSchema.nullable().optional(),
  rollback_config_history: configHistoryRecordSchema.nullable().optional(),
});

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** A loaded, authenticated contract (deep-frozen). Protected artifacts appear only as envelope references. */
export type RecoveryContract = DeepReadonly<z.infer<typeof recoveryContractSchema>>;
export type ProcessOwner = DeepReadonly<z.infer<typeof ownerSchema>>;
export type ContractProvenance = DeepReadonly<z.infer<typeof provenanceSchema>>;
export type ResolutionOutcome = z.infer<typeof resolutionRecordSchema>['outcome'];
