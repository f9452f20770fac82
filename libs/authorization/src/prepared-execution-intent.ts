import { bytesToHex, canonicalize } from '@pfsense-mcp/canonical';
import { z } from 'zod';
import { ArtifactKind } from './artifact-kind.js';
import { deepFreeze } from '@pfsense-mcp/foundation';
import {
  canonicalObjectSchema,
  capabilityNameSchema,
  hex64Schema,
  mutatingMethodSchema,
  safeTokenSchema,
  versionNameSchema,
} from './field-schemas.js';
import { parseWith } from './parse-with.js';
import { signingDigestBytes } from './signing-message.js';

/**
 * The complete prepared operation an authorization approves (docs/DESIGN.md §6). Everything that
 * decides what is sent and how it is undone; nothing generated (ids, timestamps, state).
 */
export interface PreparedExecutionIntentV1Payload {
  readonly capability: string;
  readonly endpoint_symbol: string;
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly adapter_semantics_version: string;
  /** The resource's natural identity, e.g. {alias_name}. */
  readonly natural_target: Readonly<Record<string, unknown>>;
  /** Target fingerprint of the pre-state (the precondition). */
  readonly precondition_fingerprint: string;
  /** The adapter's normalized intent. */
  readonly normalized_intent: Readonly<Record<string, unknown>>;
  readonly rollback_snapshot_digest: string;
  readonly rollback_plan_version: string;
  readonly appliance_binding_digest: string;
}

/** Unsigned document {kind, version: 1, payload}; embedded in pending requests, digested under EXECUTION_INTENT. */
export interface PreparedExecutionIntentV1 {
  readonly kind: typeof ArtifactKind.PREPARED_EXECUTION_INTENT;
  readonly version: 1;
  readonly payload: PreparedExecutionIntentV1Payload;
}

export const preparedExecutionIntentPayloadSchema = z.strictObject({
  capability: capabilityNameSchema,
  endpoint_symbol: safeTokenSchema,
  method: mutatingMethodSchema,
  adapter_semantics_version: versionNameSchema,
  natural_target: canonicalObjectSchema,
  precondition_fingerprint: hex64Schema,
  normalized_intent: canonicalObjectSchema,
  rollback_snapshot_digest: hex64Schema,
  rollback_plan_version: versionNameSchema,
  appliance_binding_digest: hex64Schema,
});

export const preparedExecutionIntentSchema = z.strictObject({
  kind: z.literal(ArtifactKind.PREPARED_EXECUTION_INTENT),
  version: z.literal(1),
  payload: preparedExecutionIntentPayloadSchema,
});

function cloneJson<T>(v: T): T {
  return JSON.parse(canonicalize(v)) as T;
}

/** Validates the fields (snake_case, exactly these) and returns the frozen V1 document. */
export function createPreparedExecutionIntentV1(fields: unknown): PreparedExecutionIntentV1 {
  const payload = parseWith(preparedExecutionIntentPayloadSchema, fields, 'execution_intent.payload');
  return deepFreeze(cloneJson({ kind: ArtifactKind.PREPARED_EXECUTION_INTENT, version: 1 as const, payload })) as PreparedExecutionIntentV1;
}

/** Validates a whole document; an unknown or older version is refused, never read as V1. */
export function parsePreparedExecutionIntent(value: unknown): PreparedExecutionIntentV1 {
  const v = parseWith(preparedExecutionIntentSchema, value, 'execution_intent');
  return deepFreeze(cloneJson(v)) as PreparedExecutionIntentV1;
}

/**
 * The execution-intent digest: digest(EXECUTION_INTENT, {kind, version: 1, payload}) as 64 hex. This is what
 * a PlanAuthorizationV2 step binds and what the coordinator recomputes from a fresh read.
 */
export function executionIntentDigest(intent: unknown): string {
  const doc = parsePreparedExecutionIntent(intent);
  return bytesToHex(signingDigestBytes(doc.kind, doc.version, doc.payload));
}
