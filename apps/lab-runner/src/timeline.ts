import type { RevisionsAround } from './revision-snapshot.js';

/** One entry of a scenario's timeline: what happened, value-free (states, counts, digests only). */
export interface TimelineEvent {
  /** Milliseconds since the scenario started. */
  readonly at_ms: number;
  /** Who acted: the subject executor path, the orchestration path, the owner, the runner, or a worker process. */
  readonly actor: 'subject' | 'orchestration' | 'owner' | 'runner' | 'worker';
  /** A fixed step label (never a value). */
  readonly action: string;
  /** The subject contract's state after the step (null before it exists). */
  readonly state: string | null;
  /** GETs made during the step. */
  readonly reads: number;
  /** Sends during the step, per proxy and phase. */
  readonly sends: { readonly forward: number; readonly rollback: number; readonly orchestration: number };
  /** A signed or server-signed artifact named by kind and digest. */
  readonly artifact: { readonly kind: string; readonly digest: string } | null;
  /** A subject or orchestration mutation: pfSense's config-history revisions before and after it. */
  readonly revisions?: RevisionsAround;
  /** An entries send (forward or rollback): the appliance's apply timing and what pf showed right after it. */
  readonly pf?: PfObservation;
}

/**
 * The effect of an entries send as the appliance showed it (docs/DESIGN.md §5, §7): how long the executor's call
 * took (one PATCH with apply, then its bounded verification), and the runner's own read right after it — whether
 * anything is still pending and whether the candidate's pf table holds the scenario's address. Value-free.
 */
export interface PfObservation {
  readonly call_ms: number;
  readonly pending: boolean | null;
  readonly table_holds_block: boolean | null;
}

export interface SendCounts {
  forward: number;
  rollback: number;
  orchestration: number;
}

export const ZERO_SENDS = Object.freeze({ forward: 0, rollback: 0, orchestration: 0 });

/** One line for the reports: the apply timing and what pf showed after an entries send ('' for any other event). */
export function pfObservationText(pf: PfObservation | undefined): string {
  if (pf === undefined) return '';
  const yesNo = (b: boolean | null): string => (b === null ? 'unknown' : b ? 'yes' : 'no');
  return `${pf.call_ms} ms; pending ${yesNo(pf.pending)}; table holds the address ${yesNo(pf.table_holds_block)}`;
}
