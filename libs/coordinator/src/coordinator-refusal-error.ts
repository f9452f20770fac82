import { CodedError } from '@pfsense-mcp/foundation';

/**
 * The one refusal the caller sees when any gate fails (docs/DESIGN.md §6): it never says which gate refused
 * or why. The value-free class (STALE or ANOMALY) goes to the refusal audit, not into this error. The one
 * exception is `retryAtMs`: a target cooldown's end, when waiting is all the same call needs.
 */
export class CoordinatorRefusalError extends CodedError<'REFUSED'> {
  override readonly name = 'CoordinatorRefusalError';

  constructor(readonly retryAtMs: number | null = null) {
    super('REFUSED', 'refused');
  }
}
