import type { RecoveryState } from '@pfsense-mcp/state-machine';

/** The closed scenario ids (docs/DESIGN.md §7). Nothing else can be selected. */
export const SCENARIO_IDS = Object.freeze([
  'ordinary',
  'd1-stale-before-forward',
  'd3-conflict-after-verified',
  'e-forward-response-lost',
  'e-rollback-response-lost',
  'g-restart-executing',
  'g-restart-after-verified',
  'g-restart-rolling-back',
] as const);
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export function isScenarioId(value: unknown): value is ScenarioId {
  return typeof value === 'string' && (SCENARIO_IDS as readonly string[]).includes(value);
}

/**
 * What a scenario injects. `proxy-fault`: the subject write proxy's own fault kind (transports'
 * FaultProxyTransport) on the named phase's send. `target-changed`: a separately counted orchestration
 * contract changes the candidate at the named point. `sigkill`: the worker process is killed with SIGKILL at
 * the named point; `holdKind` is the subject proxy's fault that holds the send there (null: no send in flight).
 */
export type ScenarioFault =
  | { readonly kind: 'none'; readonly phase: null; readonly upstreamDelivery: null; readonly holdKind: null; readonly proxyKind: null }
  | {
      readonly kind: 'proxy-fault';
      readonly phase: 'forward' | 'rollback';
      readonly proxyKind: 'drop-response-after-apply';
      /** Whether the faulted send reaches the appliance: checked against the proxy's FAULT_DELIVERY before the run. */
      readonly upstreamDelivery: 'reached';
      readonly holdKind: null;
    }
  | {
      readonly kind: 'target-changed';
      readonly phase: 'before-forward' | 'after-verified';
      readonly upstreamDelivery: null;
      readonly holdKind: null;
      readonly proxyKind: null;
    }
  | {
      readonly kind: 'sigkill';
      readonly phase: 'forward-send' | 'after-verified' | 'rollback-send';
      /** The proxy fault that holds the send until the process dies (timeout: never forwarded). */
      readonly holdKind: 'timeout' | null;
      readonly upstreamDelivery: 'not-reached' | null;
      readonly proxyKind: null;
    };

/** Expected sends counted by the proxies (subject forward / subject rollback / orchestration). */
export interface ExpectedSends {
  readonly forward: number;
  readonly rollback: number;
  readonly orchestration: number;
}

export interface ScenarioDefinition {
  readonly id: ScenarioId;
  /** One line: what a pass proves. */
  readonly proves: string;
  readonly fault: ScenarioFault;
  /** Sends counted by the proxies, per proxy and phase. */
  readonly sends: ExpectedSends;
  /** Alias PATCH requests the simulator counted (the appliance side of the same count). */
  readonly applianceWrites: number;
  /** The subject contract's states, in order, from PREPARED on (from its authenticated audit history). */
  readonly states: readonly RecoveryState[];
  /** The owner's signed reconciliation decision, when the scenario reaches RECONCILIATION. */
  readonly ownerOutcome: 'APPLIED' | 'NOT_APPLIED' | null;
  /** Whether the subject's ROLLBACK_FAILED reservation is released by a signed release. */
  readonly releasesReservation: boolean;
  /** Contracts a restart moved to RECONCILIATION (G scenarios; null: no restart). */
  readonly reconciledOnRestart: number | null;
  /** The candidate's final state: always the original description A, by a fresh read and exact fingerprint. */
  readonly finalTarget: 'A';
}
