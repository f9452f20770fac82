/**
 * The one refusal the caller sees when any gate fails (docs/DESIGN.md §6): it never says which gate refused
 * or why. The value-free class (STALE or ANOMALY) goes to the refusal audit, not into this error.
 */
export class CoordinatorRefusedError extends Error {
  override readonly name = 'CoordinatorRefusedError';
  readonly code = 'REFUSED' as const;

  constructor() {
    super('refused');
  }
}
