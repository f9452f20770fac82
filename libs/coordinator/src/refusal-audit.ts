/**
 * Value-free audit of refusals that have no contract (docs/DESIGN.md §6): the class, the gate code and ids
 * or digests only — never a description, an alias name, a key or the reason in words.
 *
 * STALE: the freshness gate (the target or its read is not as signed; nothing consumed, may pass later),
 * any failed appliance read (I/O), wherever it happens, and the containment gate (a rate / blast-radius
 * window — cooldown, an outstanding PREPARED contract on the target, lockout — nothing consumed, the same
 * authorization passes once the window has passed while it is current), the size limit (an alias beyond
 * the authorization library's bounds: no request is written; it may pass once the alias is smaller), and
 * the request limit (too many outstanding authorization requests: nothing written, a new request passes
 * once older ones are answered or expired).
 * ANOMALY: capability, artifact format, signature, role, currentness, binding, appliance binding (no usable
 * appliance id, or another appliance than signed), replay, inbox file safety, or anything after consumption.
 */
export type RefusalClass = 'STALE' | 'ANOMALY';

export const RefusalGate = Object.freeze({
  CAPABILITY: 'CAPABILITY',
  ARTIFACT: 'ARTIFACT',
  SIGNATURE: 'SIGNATURE',
  CURRENTNESS: 'CURRENTNESS',
  BINDING: 'BINDING',
  FRESHNESS: 'FRESHNESS',
  APPLIANCE_BINDING: 'APPLIANCE_BINDING',
  REPLAY: 'REPLAY',
  CONTAINMENT: 'CONTAINMENT',
  CREATE: 'CREATE',
  CONFIRMATION: 'CONFIRMATION',
  RECONCILIATION: 'RECONCILIATION',
  RELEASE: 'RELEASE',
  INBOX: 'INBOX',
  OUTBOX: 'OUTBOX',
  SIZE_LIMIT: 'SIZE_LIMIT',
  /** Too many outstanding authorization requests (per alias or in the outbox): STALE, nothing written. */
  REQUEST_LIMIT: 'REQUEST_LIMIT',
  /** A change the alias or the operator's bounds forbid (the alias entries' rules): STALE, nothing written. */
  CHANGE_RULES: 'CHANGE_RULES',
  /** A signed rollback without its one valid rollback authorization (missing, forged, stale, another state): ANOMALY. */
  ROLLBACK: 'ROLLBACK',
} as const);
export type RefusalGate = (typeof RefusalGate)[keyof typeof RefusalGate];

export interface RefusalAuditEvent {
  readonly at: number;
  readonly refusalClass: RefusalClass;
  readonly gate: RefusalGate;
  /** The operation, when known (a safe token derived from digests). */
  readonly operationId: string | null;
  /** The contract, when the refusal concerns one. */
  readonly contractId: string | null;
  /** The signed artifact's digest (64 hex), when one was parsed. */
  readonly artifactDigest: string | null;
}

/**
 * Where refusal events go. The default (StoreRefusalAudit) appends them to the contract store's chained
 * audit; tests inject MemoryRefusalAudit. A sink's error never changes the refusal (the caller swallows it).
 */
export interface RefusalAuditSink {
  record(event: RefusalAuditEvent): void;
}

/** An in-memory sink for tests (the coordinator's default is StoreRefusalAudit, the store's chained audit). */
export class MemoryRefusalAudit implements RefusalAuditSink {
  readonly #events: RefusalAuditEvent[] = [];

  record(event: RefusalAuditEvent): void {
    this.#events.push(Object.freeze({ ...event }));
  }

  events(): readonly RefusalAuditEvent[] {
    return Object.freeze([...this.#events]);
  }
}
