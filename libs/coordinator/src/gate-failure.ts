import { PreconditionError, RateLimitError } from '@pfsense-mcp/contract-store';
import { RefusalGate } from './refusal-audit.js';
import type { RefusalClass } from './refusal-audit.js';
import { CodedError } from '@pfsense-mcp/foundation';

/** One failed gate, with its audit class; the gatekeeper turns it into the uniform refusal at its boundary. */
export class GateFailure extends CodedError<RefusalClass> {
  override readonly name = 'GateFailure';
  constructor(
    readonly refusalClass: RefusalClass,
    readonly gate: RefusalGate,
    /** A target cooldown's end (UTC ms), the one refusal the caller is told about (CoordinatorRefusalError). */
    readonly retryAtMs: number | null = null,
  ) {
    super(refusalClass, `${refusalClass}:${gate}`);
  }
}

export function fail(refusalClass: RefusalClass, gate: RefusalGate): never {
  throw new GateFailure(refusalClass, gate);
}

/** Runs a check; any error becomes the given gate failure (the original error is not kept: it may carry data). */
export function gate<T>(refusalClass: RefusalClass, g: RefusalGate, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof GateFailure) throw e;
    return fail(refusalClass, g);
  }
}

/** `gate` for an asynchronous check. */
export async function gateAsync<T>(refusalClass: RefusalClass, g: RefusalGate, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (e) {
    if (e instanceof GateFailure) throw e;
    return fail(refusalClass, g);
  }
}

/**
 * A store creation step (precheck or create): a rate / blast-radius refusal is containment (STALE: it may
 * pass later, nothing was consumed; a target cooldown says when), an authorization that already made a contract or was consumed is a
 * replay, anything else an ANOMALY at CREATE.
 */
export function creationGate<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof GateFailure) throw e;
    if (e instanceof RateLimitError) throw new GateFailure('STALE', RefusalGate.CONTAINMENT, e.retryAtMs);
    if (e instanceof PreconditionError && (e.code === 'DUPLICATE_AUTHORIZATION' || e.code === 'AUTHORIZATION_CONSUMED')) {
      return fail('ANOMALY', RefusalGate.REPLAY);
    }
    return fail('ANOMALY', RefusalGate.CREATE);
  }
}
