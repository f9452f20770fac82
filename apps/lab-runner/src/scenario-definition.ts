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
  'entries-ordinary',
  'entries-stale-before-forward',
  'entries-foreign-pending',
  'entries-forward-response-lost',
  'entries-table-stale',
  'entries-restart-executing',
  'entries-rollback-after-verified',
] as const);
export type ScenarioId = (typeof SCENARIO_IDS)[number];

/** Which write capability a scenario's subject uses: the alias description, or the alias entries (docs/DESIGN.md §5). */
export type ScenarioCapability = 'description' | 'entries';

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
      /** Someone else's staged change is pending on the appliance at the forward: applying would activate it too. */
      readonly kind: 'foreign-pending';
      readonly phase: 'before-forward';
      readonly upstreamDelivery: null;
      readonly holdKind: null;
      readonly proxyKind: null;
    }
  | {
      /** The forward's filter reload clears the pending change but leaves the pf table as it was (simulator apply mode). */
      readonly kind: 'table-stale';
      readonly phase: 'forward';
      readonly upstreamDelivery: 'reached';
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
  /** The subject's capability: a description change A → B, or blocking one address (an entry added, applied to pf). */
  readonly capability: ScenarioCapability;
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
  /**
   * The candidate's final state: always the original A, by a fresh read and exact fingerprint (for the entries
   * scenarios also its pf table, exactly as before).
   */
  readonly finalTarget: 'A';
}
