import type { SignedRecord } from './lab-owner.js';
import type { SendCounts, TimelineEvent } from './timeline.js';

/** What the runner left behind after a failure or an interruption (null when the scenario completed). */
export interface LeftState {
  /** What the runner did to bring the candidate back: nothing needed, a sealed rollback, an orchestration contract, or nothing it could safely do. */
  readonly action: 'none' | 'sealed-rollback' | 'orchestration-restore' | 'left-as-is';
  readonly subject_state: string | null;
  /** Whether a fresh read shows the original A (exact fingerprint); null when it could not read. */
  readonly candidate_is_original: boolean | null;
  readonly reason: string;
}

/** One scenario's evidence (value-free: states, counts, digests, fixed labels). */
export interface ScenarioResult {
  readonly id: string;
  readonly ok: boolean;
  readonly proves: string;
  readonly fault: Readonly<Record<string, string | null>>;
  readonly states: readonly string[];
  readonly expected_states: readonly string[];
  readonly sends: Readonly<SendCounts>;
  readonly expected_sends: Readonly<SendCounts>;
  /** Alias PATCH requests the scenario's simulator counted. */
  readonly appliance_writes: number | null;
  readonly expected_appliance_writes: number;
  readonly final_target_matches: boolean;
  readonly siblings_unchanged: boolean;
  readonly reconciled_on_restart: number | null;
  readonly expected_reconciled_on_restart: number | null;
  /** The orchestration contracts' states, each in order. */
  readonly orchestration_states: readonly (readonly string[])[];
  readonly appliance_binding_digest: string | null;
  readonly signed: readonly SignedRecord[];
  readonly timeline: readonly TimelineEvent[];
  readonly failures: readonly string[];
  readonly interrupted: boolean;
  readonly left: LeftState | null;
  readonly duration_ms: number;
}
