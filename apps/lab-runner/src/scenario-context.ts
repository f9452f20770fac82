import { aliasTargetFingerprint } from '@pfsense-mcp/adapters';
import type { AliasTarget } from '@pfsense-mcp/adapters';
import { LabError, LabInterruptedError } from './lab-error.js';
import { Capability } from '@pfsense-mcp/policy';
import { BLOCKS, BLOCK_DETAIL, CANDIDATE_ALIAS, DESCRIPTION_A, REPLACEMENTS } from './lab-fixture.js';
import type { LabOwner, SignedRecord } from './lab-owner.js';
import type { LabRuntime } from './runtime-factory.js';
import type { ScenarioDefinition } from './scenario-definition.js';
import { takeRevisionSnapshot } from './revision-snapshot.js';
import type { RevisionSnapshot, RevisionsAround } from './revision-snapshot.js';
import { ZERO_SENDS } from './timeline.js';
import type { PfObservation, SendCounts, TimelineEvent } from './timeline.js';

/** The entries tool's input (docs/DESIGN.md §5): the alias, the entries to add and to remove. */
export interface EntriesInput {
  readonly alias_name: string;
  readonly add?: readonly { readonly address: string; readonly detail: string }[];
  readonly remove?: readonly string[];
}

/** Stops the run between steps (Ctrl-C / SIGTERM); a test-only hook may pause after a named step. */
export interface Interruption {
  readonly interrupted: boolean;
  /** Resolves when the run is interrupted. */
  readonly whenInterrupted: Promise<void>;
}

/** Where a scenario runs against a lab config's appliance: its candidate, its A, and the gate's deadline. */
export interface ScenarioTargetOptions {
  readonly candidate: string;
  readonly descriptionA: string;
  /** The gate receipt's absolute deadline (UTC ms); null on the simulator. */
  readonly deadline: number | null;
  /** Test-only: after this step, wait until the deadline has passed (the deadline-expiry test). */
  readonly waitDeadlineAfter?: string | null;
  /**
   * True against an appliance: requests of role reconciliation (decisions, releases) are the owner's, signed
   * with pfsense-mcp-signer; the scenario stops at them (OwnerPause) instead of signing itself.
   */
  readonly ownerDecides?: boolean;
  /** When the scenario started (UTC ms): a resumed scenario keeps its first process's clock for the timeline. */
  readonly startedAt?: number;
}

export interface StepProgress {
  (scenarioId: string, event: TimelineEvent): void;
}

/**
 * The state of one running scenario: the exact registry entry, the current runtime (replaced after a
 * restart), the owner, and what was observed so far. Scenario steps read it; only executors send.
 */
export class ScenarioContext {
  runtime: LabRuntime;
  subjectContractId: string | null = null;
  readonly orchestrationContractIds: string[] = [];
  readonly signed: SignedRecord[] = [];
  readonly events: TimelineEvent[] = [];
  readonly counts: SendCounts = { ...ZERO_SENDS };
  /**
   * The candidate before anything ran: its fingerprint (A), the fingerprint it has with the subject's B
   * applied (the owner's check of an observation), and the siblings' bytes (empty in a worker).
   */
  baseline: { fingerprint: string; bFingerprint: string; siblings: string } | null = null;
  applianceBindingDigest: string | null = null;
  reconciledOnRestart: number | null = null;
  readonly started: number;
  readonly ownerDecides: boolean;
  readonly candidate: string;
  readonly descriptionA: string;
  readonly deadline: number | null;
  readonly #waitDeadlineAfter: string | null;
  #readsMark = 0;

  constructor(
    readonly scenario: ScenarioDefinition,
    runtime: LabRuntime,
    readonly owner: LabOwner,
    readonly interruption: Interruption,
    readonly progress: StepProgress,
    readonly pauseAfter: string | null,
    target: ScenarioTargetOptions = { candidate: CANDIDATE_ALIAS, descriptionA: DESCRIPTION_A, deadline: null },
  ) {
    this.candidate = target.candidate;
    this.descriptionA = target.descriptionA;
    this.deadline = target.deadline;
    this.#waitDeadlineAfter = target.waitDeadlineAfter ?? null;
    this.ownerDecides = target.ownerDecides === true;
    this.started = target.startedAt ?? Date.now();
    this.runtime = runtime;
    this.#readsMark = runtime.reads();
  }

  /** The subject's capability (the registry entry's): the description, or the alias entries. */
  get subjectCapability(): string {
    return this.scenario.capability === 'entries' ? Capability.ALIAS_ENTRIES_WRITE : Capability.ALIAS_WRITE;
  }

  /** The subject's change (the scenario's constant): A → B, or the scenario's address blocked in the candidate. */
  get subjectInput(): { alias_name: string; description: string } | EntriesInput {
    if (this.scenario.capability === 'entries') return this.entriesInput({ add: [this.block.block] });
    return { alias_name: this.candidate, description: REPLACEMENTS[this.scenario.id].b };
  }

  /** The entries scenario's two addresses (the subject's block, and the one someone else adds). */
  get block(): { readonly block: string; readonly other: string } {
    const b = BLOCKS[this.scenario.id];
    if (b === null) throw new LabError('NOT_AN_ENTRIES_SCENARIO', 'this scenario changes the description');
    return b;
  }

  /** An entries change of the candidate: the addresses added (with the lab's fixed detail) and removed. */
  entriesInput(change: { add?: readonly string[]; remove?: readonly string[] }): EntriesInput {
    return {
      alias_name: this.candidate,
      ...(change.add === undefined ? {} : { add: change.add.map((address) => ({ address, detail: BLOCK_DETAIL })) }),
      ...(change.remove === undefined ? {} : { remove: [...change.remove] }),
    };
  }

  /** The orchestration's closed changes: to C (the scenario's constant) or back to A. */
  orchestrationInput(to: 'C' | 'A'): { alias_name: string; description: string } {
    return { alias_name: this.candidate, description: to === 'C' ? REPLACEMENTS[this.scenario.id].c : this.descriptionA };
  }

  /** Takes the baseline from the candidate as read before anything ran. */
  setBaseline(target: AliasTarget, siblings: string): void {
    this.baseline = Object.freeze({
      fingerprint: aliasTargetFingerprint(target),
      bFingerprint: aliasTargetFingerprint({ ...target, descr: REPLACEMENTS[this.scenario.id].b }),
      siblings,
    });
  }

  /** The fingerprint the candidate has with the subject's B applied (the owner's check of an observation). */
  fingerprintWithB(): string {
    if (this.baseline === null) throw new LabError('NO_BASELINE', 'the baseline read is missing');
    return this.baseline.bFingerprint;
  }

  /** Replaces the runtime (a restart: the old one is gone with its process, or closed). */
  restart(runtime: LabRuntime): void {
    this.runtime = runtime;
    this.#readsMark = runtime.reads();
  }

  subjectState(): string | null {
    if (this.subjectContractId === null) return null;
    try {
      return this.runtime.store.load(this.subjectContractId).state;
    } catch {
      return null;
    }
  }

  /** Appends a timeline event (reads since the last event, the given sends) and reports progress. */
  record(
    actor: TimelineEvent['actor'],
    action: string,
    sends: Partial<SendCounts> = {},
    artifact: TimelineEvent['artifact'] = null,
    revisions: RevisionsAround | null = null,
    pf: PfObservation | null = null,
  ): TimelineEvent {
    const reads = this.runtime.reads() - this.#readsMark;
    this.#readsMark = this.runtime.reads();
    const s = { ...ZERO_SENDS, ...sends };
    this.counts.forward += s.forward;
    this.counts.rollback += s.rollback;
    this.counts.orchestration += s.orchestration;
    const event: TimelineEvent = Object.freeze({
      at_ms: Date.now() - this.started,
      actor,
      action,
      state: this.subjectState(),
      reads,
      sends: Object.freeze(s),
      artifact: artifact === null ? null : Object.freeze({ ...artifact }),
      ...(revisions === null ? {} : { revisions: Object.freeze({ ...revisions }) }),
      ...(pf === null ? {} : { pf: Object.freeze({ ...pf }) }),
    });
    this.events.push(event);
    this.progress(this.scenario.id, event);
    return event;
  }

  /** The config-history revisions now (before / after a mutation); null when they cannot be read. */
  revisionsNow(): Promise<RevisionSnapshot | null> {
    const rt = this.runtime;
    return takeRevisionSnapshot(() => rt.readConfigHistory());
  }

  /** An event that happened elsewhere (a worker process), appended as it was observed there. */
  append(event: TimelineEvent): void {
    this.counts.forward += event.sends.forward;
    this.counts.rollback += event.sends.rollback;
    this.counts.orchestration += event.sends.orchestration;
    const e = Object.freeze({ ...event, at_ms: Date.now() - this.started });
    this.events.push(e);
    this.progress(this.scenario.id, e);
  }

  /**
   * Before every gate, orchestration, executor call, observation, evidence write and final read: the gate
   * receipt's absolute deadline must not have passed (it is never renewed or reinterpreted).
   */
  beforeAction(what: string): void {
    if (this.deadline !== null && !(Date.now() < this.deadline)) {
      throw new LabError('GATE_DEADLINE', `the gate receipt's deadline passed; not started: ${what}`);
    }
  }

  /** Between two steps: stop if interrupted; the test-only pause holds here until interrupted. */
  async checkpoint(step: string): Promise<void> {
    if (this.interruption.interrupted) throw new LabInterruptedError();
    if (this.#waitDeadlineAfter === step && this.deadline !== null) {
      this.record('runner', `waiting past the gate deadline after ${step} (test hook)`);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, (this.deadline as number) - Date.now()) + 50));
    }
    this.beforeAction(`the step after ${step}`);
    if (this.pauseAfter === step) {
      this.record('runner', `paused after ${step} (test hook)`);
      await this.interruption.whenInterrupted;
      throw new LabInterruptedError();
    }
  }
}
