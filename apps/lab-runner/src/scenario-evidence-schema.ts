// The wire form of a scenario's evidence (docs/DESIGN.md §7), one copy for its two readers: a worker's IPC
// messages (worker-protocol.ts) and the saved state of a run stopped for the owner (run-state.ts).
import { z } from 'zod';
import { pendingCorroborationSchema, revisionsAroundSchema } from './revision-snapshot.js';

export const hex64Schema = z.string().regex(/^[0-9a-f]{64}$/);

/** Sends per role of one scenario. */
export const sendsSchema = z.strictObject({
  forward: z.number().int().min(0),
  rollback: z.number().int().min(0),
  orchestration: z.number().int().min(0),
});

/** One timeline event: who, what, the state reached, the reads and sends so far, the artifact it produced. */
export const scenarioEventSchema = z.strictObject({
  at_ms: z.number().int().min(0),
  actor: z.enum(['subject', 'orchestration', 'owner', 'runner', 'worker']),
  action: z.string().max(200),
  state: z.string().max(32).nullable(),
  reads: z.number().int().min(0),
  sends: sendsSchema,
  artifact: z.strictObject({ kind: z.string().max(64), digest: hex64Schema }).nullable(),
  revisions: revisionsAroundSchema.optional(),
  pf: z
    .strictObject({ call_ms: z.number().int().min(0), pending: z.boolean().nullable(), table_holds_block: z.boolean().nullable() })
    .optional(),
});

/** One request signed during the scenario: the request and the signed answer (digests), and the owner's outcome. */
export const signedRecordSchema = z.strictObject({
  requestKind: z.string().max(64),
  requestDigest: hex64Schema,
  signedKind: z.string().max(64),
  signedDigest: hex64Schema,
  outcome: z.enum(['APPLIED', 'NOT_APPLIED']).nullable(),
  config_history: pendingCorroborationSchema.nullable().optional(),
});

/** The request a run stopped at for the owner to sign (its pending file, its kind, what was observed). */
export const ownerPauseShape = Object.freeze({
  pendingFile: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*\.json$/)
    .max(200),
  request: z.enum(['reconciliation', 'release']),
  observed: z.enum(['APPLIED', 'NOT_APPLIED']).nullable(),
});
