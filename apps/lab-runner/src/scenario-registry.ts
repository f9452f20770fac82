import { deepFreeze } from '@pfsense-mcp/foundation';
import { RecoveryState as S } from '@pfsense-mcp/state-machine';
import { SCENARIO_IDS, isScenarioId } from './scenario-definition.js';
import type { ScenarioDefinition, ScenarioId } from './scenario-definition.js';

const NO_FAULT = { kind: 'none', phase: null, upstreamDelivery: null, holdKind: null, proxyKind: null } as const;

/**
 * The closed registry (docs/DESIGN.md §7): one immutable entry per scenario. The runner dispatches on the exact
 * entry; nothing in it can come from the command line.
 */
export const SCENARIOS: readonly ScenarioDefinition[] = deepFreeze([
  {
    id: 'ordinary',
    capability: 'description',
    proves: 'A → B through the sealed executor, then rollback B → A; one send each; candidate back to A',
    fault: NO_FAULT,
    sends: { forward: 1, rollback: 1, orchestration: 0 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.ROLLED_BACK],
    ownerOutcome: null,
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'd1-stale-before-forward',
    capability: 'description',
    proves: 'target changed (A → C) after PREPARED: the forward is refused on the fresh read, FAILED, 0 sends',
    fault: { kind: 'target-changed', phase: 'before-forward', upstreamDelivery: null, holdKind: null, proxyKind: null },
    sends: { forward: 0, rollback: 0, orchestration: 2 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.FAILED],
    ownerOutcome: null,
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'd3-conflict-after-verified',
    capability: 'description',
    proves: 'target changed (B → C) after VERIFIED: rollback refused on the fresh read, ROLLBACK_FAILED, 0 rollback sends',
    fault: { kind: 'target-changed', phase: 'after-verified', upstreamDelivery: null, holdKind: null, proxyKind: null },
    sends: { forward: 1, rollback: 0, orchestration: 2 },
    applianceWrites: 3,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.ROLLBACK_FAILED],
    ownerOutcome: null,
    releasesReservation: true,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'e-forward-response-lost',
    capability: 'description',
    proves:
      'forward applied, response lost: RECONCILIATION after exactly 1 send, fresh observation, signed APPLIED → VERIFIED with 0 sends',
    fault: { kind: 'proxy-fault', phase: 'forward', proxyKind: 'drop-response-after-apply', upstreamDelivery: 'reached', holdKind: null },
    sends: { forward: 1, rollback: 1, orchestration: 0 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.RECONCILIATION, S.VERIFIED, S.ROLLING_BACK, S.ROLLED_BACK],
    ownerOutcome: 'APPLIED',
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'e-rollback-response-lost',
    capability: 'description',
    proves: 'rollback applied, response lost: RECONCILIATION after exactly 1 rollback send, signed APPLIED → ROLLED_BACK with 0 sends',
    fault: { kind: 'proxy-fault', phase: 'rollback', proxyKind: 'drop-response-after-apply', upstreamDelivery: 'reached', holdKind: null },
    sends: { forward: 1, rollback: 1, orchestration: 0 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.RECONCILIATION, S.ROLLED_BACK],
    ownerOutcome: 'APPLIED',
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'g-restart-executing',
    capability: 'description',
    proves: 'process SIGKILLed while its forward is held in EXECUTING: the restart reconciles, no resend, signed NOT_APPLIED → FAILED',
    fault: { kind: 'sigkill', phase: 'forward-send', holdKind: 'timeout', upstreamDelivery: 'not-reached', proxyKind: null },
    sends: { forward: 0, rollback: 0, orchestration: 0 },
    applianceWrites: 0,
    states: [S.PREPARED, S.EXECUTING, S.RECONCILIATION, S.FAILED],
    ownerOutcome: 'NOT_APPLIED',
    releasesReservation: false,
    reconciledOnRestart: 1,
    finalTarget: 'A',
  },
  {
    id: 'g-restart-after-verified',
    capability: 'description',
    proves: 'process SIGKILLed after VERIFIED: the restart moves nothing, a fresh runtime rolls back with one send',
    fault: { kind: 'sigkill', phase: 'after-verified', holdKind: null, upstreamDelivery: null, proxyKind: null },
    sends: { forward: 1, rollback: 1, orchestration: 0 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.ROLLED_BACK],
    ownerOutcome: null,
    releasesReservation: false,
    reconciledOnRestart: 0,
    finalTarget: 'A',
  },
  {
    id: 'g-restart-rolling-back',
    capability: 'description',
    proves:
      'process SIGKILLed while its rollback is held in ROLLING_BACK: the restart reconciles, no resend, signed NOT_APPLIED → ROLLBACK_FAILED, release, restored by orchestration',
    fault: { kind: 'sigkill', phase: 'rollback-send', holdKind: 'timeout', upstreamDelivery: 'not-reached', proxyKind: null },
    sends: { forward: 1, rollback: 0, orchestration: 1 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.RECONCILIATION, S.ROLLBACK_FAILED],
    ownerOutcome: 'NOT_APPLIED',
    releasesReservation: true,
    reconciledOnRestart: 1,
    finalTarget: 'A',
  },
  {
    id: 'entries-ordinary',
    capability: 'entries',
    proves: 'block: one address added and applied, verified in the pf table; signed rollback, one send each; the table as before',
    fault: NO_FAULT,
    sends: { forward: 1, rollback: 1, orchestration: 0 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.ROLLED_BACK],
    ownerOutcome: null,
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'entries-stale-before-forward',
    capability: 'entries',
    proves:
      'entries edited after the review (an address added by someone else): the forward is stale on the fresh read, FAILED, 0 forward sends',
    fault: { kind: 'target-changed', phase: 'before-forward', upstreamDelivery: null, holdKind: null, proxyKind: null },
    sends: { forward: 0, rollback: 0, orchestration: 2 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.FAILED],
    ownerOutcome: null,
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'entries-foreign-pending',
    capability: 'entries',
    proves:
      "someone else's change pending at the send: the forward waits (refused, 0 sends, nothing consumed), then runs once it is applied; signed rollback",
    fault: { kind: 'foreign-pending', phase: 'before-forward', upstreamDelivery: null, holdKind: null, proxyKind: null },
    sends: { forward: 1, rollback: 1, orchestration: 2 },
    applianceWrites: 4,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.ROLLED_BACK],
    ownerOutcome: null,
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'entries-forward-response-lost',
    capability: 'entries',
    proves:
      'block applied, response lost: RECONCILIATION after exactly 1 send, fresh observation, signed APPLIED → VERIFIED with 0 sends; signed rollback',
    fault: { kind: 'proxy-fault', phase: 'forward', proxyKind: 'drop-response-after-apply', upstreamDelivery: 'reached', holdKind: null },
    sends: { forward: 1, rollback: 1, orchestration: 0 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.RECONCILIATION, S.VERIFIED, S.ROLLING_BACK, S.ROLLED_BACK],
    ownerOutcome: 'APPLIED',
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'entries-table-stale',
    capability: 'entries',
    proves:
      'config written but the pf table not updated by the reload: RECONCILIATION, never VERIFIED; signed NOT_APPLIED (not in effect) → FAILED, restored by orchestration',
    fault: { kind: 'table-stale', phase: 'forward', upstreamDelivery: 'reached', holdKind: null, proxyKind: null },
    sends: { forward: 1, rollback: 0, orchestration: 1 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.RECONCILIATION, S.FAILED],
    ownerOutcome: 'NOT_APPLIED',
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
  {
    id: 'entries-restart-executing',
    capability: 'entries',
    proves: 'process SIGKILLed while its block is held in EXECUTING: the restart reconciles, no resend, signed NOT_APPLIED → FAILED',
    fault: { kind: 'sigkill', phase: 'forward-send', holdKind: 'timeout', upstreamDelivery: 'not-reached', proxyKind: null },
    sends: { forward: 0, rollback: 0, orchestration: 0 },
    applianceWrites: 0,
    states: [S.PREPARED, S.EXECUTING, S.RECONCILIATION, S.FAILED],
    ownerOutcome: 'NOT_APPLIED',
    releasesReservation: false,
    reconciledOnRestart: 1,
    finalTarget: 'A',
  },
  {
    id: 'entries-rollback-after-verified',
    capability: 'entries',
    proves:
      'a verified block is rolled back only under a signed rollback authorization: unsigned → refused with 0 sends; signed → one send, consumed once, the table as before',
    fault: NO_FAULT,
    sends: { forward: 1, rollback: 1, orchestration: 0 },
    applianceWrites: 2,
    states: [S.PREPARED, S.EXECUTING, S.VERIFIED, S.ROLLING_BACK, S.ROLLED_BACK],
    ownerOutcome: null,
    releasesReservation: false,
    reconciledOnRestart: null,
    finalTarget: 'A',
  },
] satisfies ScenarioDefinition[]);

if (SCENARIOS.length !== SCENARIO_IDS.length || SCENARIOS.some((s, i) => s.id !== SCENARIO_IDS[i])) {
  throw new Error('scenario registry: one entry per scenario id, in order');
}

/** The exact registry entry for an id (identity-checked by the runner). */
export function scenarioOf(id: ScenarioId): ScenarioDefinition {
  if (!isScenarioId(id)) throw new TypeError('scenarioOf: "id" must be a ScenarioId');
  const found = SCENARIOS.find((s) => s.id === id);
  if (found === undefined) throw new TypeError('scenarioOf: no entry');
  return found;
}
