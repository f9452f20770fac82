import { ReadOnlySet } from '@pfsense-mcp/foundation';

/** The events that move a Recovery Contract. Values equal names. */
export const RecoveryEvent = Object.freeze({
  PREPARE: 'PREPARE',
  EXPIRE: 'EXPIRE',
  BEGIN_EXECUTION: 'BEGIN_EXECUTION',
  EXECUTION_VERIFIED: 'EXECUTION_VERIFIED',
  EXECUTION_FAILED: 'EXECUTION_FAILED',
  EXECUTION_AMBIGUOUS: 'EXECUTION_AMBIGUOUS',
  BEGIN_ROLLBACK: 'BEGIN_ROLLBACK',
  ROLLBACK_VERIFIED: 'ROLLBACK_VERIFIED',
  ROLLBACK_FAILED: 'ROLLBACK_FAILED',
  ROLLBACK_AMBIGUOUS: 'ROLLBACK_AMBIGUOUS',
  RESOLVE_FORWARD_APPLIED: 'RESOLVE_FORWARD_APPLIED',
  RESOLVE_FORWARD_NOT_APPLIED: 'RESOLVE_FORWARD_NOT_APPLIED',
  RESOLVE_ROLLBACK_APPLIED: 'RESOLVE_ROLLBACK_APPLIED',
  RESOLVE_ROLLBACK_NOT_APPLIED: 'RESOLVE_ROLLBACK_NOT_APPLIED',
} as const);

export type RecoveryEvent = (typeof RecoveryEvent)[keyof typeof RecoveryEvent];

/** Every event, in declaration order. */
export const RECOVERY_EVENTS: readonly RecoveryEvent[] = Object.freeze(Object.values(RecoveryEvent));

const EVENT_SET: ReadonlySet<string> = new ReadOnlySet<string>(RECOVERY_EVENTS);

export function isRecoveryEvent(value: unknown): value is RecoveryEvent {
  return typeof value === 'string' && EVENT_SET.has(value);
}
