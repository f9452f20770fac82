import { SqliteRecoveryContractStore } from '@pfsense-mcp/contract-store';
import type { RefusalAuditEvent, RefusalAuditSink } from './refusal-audit.js';

/**
 * The default refusal audit (docs/DESIGN.md §6 "the audit records a value-free class"): each refusal becomes
 * one `refusal` row in the contract store's HMAC-chained audit (store.recordRefusal: its own transaction,
 * anchor advanced). Only the class, the gate code and ids / digests go in. The store's clock stamps the row.
 */
export class StoreRefusalAudit implements RefusalAuditSink {
  readonly #store: SqliteRecoveryContractStore;

  constructor(store: SqliteRecoveryContractStore) {
    if (!(store instanceof SqliteRecoveryContractStore))
      throw new TypeError('StoreRefusalAudit: "store" must be a SqliteRecoveryContractStore');
    this.#store = store;
    Object.freeze(this);
  }

  record(event: RefusalAuditEvent): void {
    const base = { gate: event.gate, refusalClass: event.refusalClass };
    try {
      this.#store.recordRefusal({
        ...base,
        ...(event.operationId === null ? {} : { operationId: event.operationId }),
        ...(event.contractId === null ? {} : { contractId: event.contractId }),
        ...(event.artifactDigest === null ? {} : { artifactDigest: event.artifactDigest }),
      });
    } catch (e) {
      // An id the store will not take (it came from a refused artifact) must not cost the row: keep the class.
      if (!(e instanceof TypeError)) throw e;
      this.#store.recordRefusal(base);
    }
  }
}
