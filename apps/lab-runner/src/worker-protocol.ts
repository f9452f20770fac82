import { z } from 'zod';
import { labKeysWireSchema, labPinsWireSchema } from './lab-keys.js';
import { hex64Schema as hex64, ownerPauseShape, scenarioEventSchema, signedRecordSchema } from './scenario-evidence-schema.js';
import { SCENARIO_IDS } from './scenario-definition.js';

/** The environment switch that makes the runner's bundle a worker (it then takes its job over IPC only). */
export const WORKER_ENV = 'PFSENSE_MCP_LAB_WORKER';

/**
 * A worker's job. `before-kill`: run the plan up to its kill point and wait to be SIGKILLed. `after-restart`:
 * a new process rebuilds the runtime from the store alone (its executor's construction reconciles) and runs
 * the rest of the plan.
 */
export const workerJobSchema = z.strictObject({
  type: z.literal('job'),
  phase: z.enum(['before-kill', 'after-restart']),
  scenarioId: z.enum(SCENARIO_IDS),
  /** The candidate's A and A-with-B fingerprints (digests only) and the subject contract, once known. */
  baseline: z.strictObject({ fingerprint: hex64, bFingerprint: hex64 }),
  subjectContractId: z.string().max(128).nullable(),
  orchestrationContractIds: z.array(z.string().max(128)).max(16),
  scenarioDir: z.string().min(1).max(4096),
  /**
   * Where the runtime connects: the scenario's simulator child, or the lab config's appliance with its CA file
   * and TLS mode (the TLS mode is part of the appliance binding every authorization names).
   */
  target: z.strictObject({
    url: z.string().url(),
    apiKeyFile: z.string().min(1).max(4096),
    caFile: z.string().min(1).max(4096).nullable(),
    tlsMode: z.enum(['http-loopback', 'https-system-ca', 'https-ca-file']),
    simulated: z.boolean(),
  }),
  /** Against an appliance: its candidate, A as found, and the gate receipt's deadline; null on the simulator. */
  appliance: z
    .strictObject({
      candidate: z.string().min(1).max(64),
      descriptionA: z.string().max(4096),
      deadline: z.number().int().positive(),
      ownerDecides: z.boolean(),
    })
    .nullable(),
  keys: labKeysWireSchema,
  /** Public keys only: the earlier processes' run keys of a resumed run, and the owner's reconciliation key. */
  pins: labPinsWireSchema,
});
export type WorkerJob = z.infer<typeof workerJobSchema>;

export const workerMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('event'), event: scenarioEventSchema }),
  z.strictObject({ type: z.literal('signed'), signed: signedRecordSchema }),
  z.strictObject({ type: z.literal('kill-point'), label: z.string().max(100), subjectContractId: z.string().max(128).nullable() }),
  z.strictObject({ type: z.literal('restarted'), reconciled: z.number().int().min(0) }),
  /** Stopped at a request the owner signs (against an appliance); `nextStep` indexes the plan's afterRestart. */
  z.strictObject({
    type: z.literal('paused'),
    ...ownerPauseShape,
    nextStep: z.number().int().min(0).max(64),
  }),
  z.strictObject({ type: z.literal('done'), orchestrationContractIds: z.array(z.string().max(128)).max(16) }),
  z.strictObject({ type: z.literal('failed'), code: z.string().max(64), message: z.string().max(300) }),
]);
export type WorkerMessage = z.infer<typeof workerMessageSchema>;

/** Parent → worker after the job: stop before the next step (Ctrl-C). */
export const workerInterruptSchema = z.strictObject({ type: z.literal('interrupt') });
