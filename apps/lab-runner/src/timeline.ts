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
}

export interface SendCounts {
  forward: number;
  rollback: number;
  orchestration: number;
}

export const ZERO_SENDS = Object.freeze({ forward: 0, rollback: 0, orchestration: 0 });
