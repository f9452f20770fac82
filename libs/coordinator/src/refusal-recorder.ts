import { assertFunction, assertObject } from '@pfsense-mcp/foundation';
import { CoordinatorRefusalError } from './coordinator-refusal-error.js';
import type { RefusalAuditSink, RefusalClass, RefusalGate } from './refusal-audit.js';

/** The value-free ids a refusal row may carry (docs/DESIGN.md §6). */
export interface RefusalContext {
  readonly operationId?: string | null;
  readonly contractId?: string | null;
  readonly artifactDigest?: string | null;
}

/**
 * Turns a failed gate into the one uniform CoordinatorRefusalError and records it (value-free) in the audit
 * sink. The operation driver builds one and hands it to its gatekeeper, so the gates and the driver's
 * inbox/outbox checks refuse the same way without calling each other.
 */
export class RefusalRecorder {
  readonly #audit: RefusalAuditSink;
  readonly #clock: () => number;

  constructor(audit: RefusalAuditSink, clock: () => number) {
    assertObject(audit, 'RefusalRecorder: "audit"');
    assertFunction(audit.record, 'RefusalRecorder: "audit.record"', 'a function record(event)');
    assertFunction(clock, 'RefusalRecorder: "clock"', 'a function returning UTC milliseconds');
    this.#audit = audit;
    this.#clock = clock;
    Object.freeze(this);
  }

  /**
   * Records a refusal and returns the uniform error (with a target cooldown's end when `retryAtMs` is given).
   * Never throws itself.
   */
  refuse(
    refusalClass: RefusalClass,
    gate: RefusalGate,
    context: RefusalContext = {},
    retryAtMs: number | null = null,
  ): CoordinatorRefusalError {
    try {
      this.#audit.record({
        at: this.#clock(),
        refusalClass,
        gate,
        operationId: context.operationId ?? null,
        contractId: context.contractId ?? null,
        artifactDigest: context.artifactDigest ?? null,
      });
    } catch {
      // The audit sink must not turn a refusal into something else.
    }
    return new CoordinatorRefusalError(retryAtMs);
  }
}
