import { AdapterInputError, TargetResolutionError } from '@pfsense-mcp/adapters';
import { ProtectedArtifactError, RecordIntegrityError } from '@pfsense-mcp/contract-store';
import { PfrestResponseError } from '@pfsense-mcp/pfsense-read';
import { ResponseTooLargeError, TransportConnectionError, TransportError, TransportTimeoutError } from '@pfsense-mcp/write-client';
import { CodedError } from '@pfsense-mcp/foundation';

/** A refusal after the reservation, before the send: carries the value-free outcome class only. */
export class StepRefusal extends CodedError<string> {
  override readonly name = 'StepRefusal';
  constructor(readonly outcomeClass: string) {
    super(outcomeClass, outcomeClass);
  }
}

/**
 * A failed read of the appliance: pfrest's error envelope or one of the transport failures a read can meet. A
 * TransportError of its own class counts, but not its configuration and invalid-request subclasses (a caller
 * bug, not a read that failed), hence the exact prototype check rather than `instanceof TransportError`.
 */
function isReadFailure(error: unknown): boolean {
  return (
    error instanceof PfrestResponseError ||
    error instanceof TransportTimeoutError ||
    error instanceof TransportConnectionError ||
    error instanceof ResponseTooLargeError ||
    (error instanceof TransportError && Object.getPrototypeOf(error) === TransportError.prototype)
  );
}

/** The outcome class of a failure while resolving or checking the target before the send. */
export function preSendClass(error: unknown): string {
  if (error instanceof StepRefusal) return error.outcomeClass;
  if (error instanceof TargetResolutionError) {
    if (error.code === 'NOT_FOUND') return 'TARGET_NOT_FOUND';
    if (error.code === 'DUPLICATE') return 'TARGET_DUPLICATE';
    return 'TARGET_UNRESOLVED';
  }
  if (isReadFailure(error)) return 'TARGET_READ_FAILED';
  if (error instanceof ProtectedArtifactError || error instanceof RecordIntegrityError) return 'ARTIFACT_UNAVAILABLE';
  if (error instanceof AdapterInputError) return 'ADAPTER_REFUSED';
  return 'PRECONDITION_FAILED';
}
