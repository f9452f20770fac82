import type { TargetReader } from '@pfsense-mcp/adapters';
import { canonicalize, isHex64 } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { VerifiedSeal } from '@pfsense-mcp/contract-store/executor';
import { MAX_WRITE_LIST_LENGTH, isWriteRequestFor, maxBodyBytesFor } from '@pfsense-mcp/write-client';
import type { CheckedAdapter } from './check-adapter.js';
import { isPlainObject } from './is-plain-object.js';
import { StepRefusal } from './step-refusal.js';

/**
 * One authoritative read through the adapter (exactly one match, or it throws), then the executor's own
 * checks: a single plain target object, the contract's identity, the expected locator.
 */
export async function readCheckedTarget(
  reader: TargetReader,
  a: CheckedAdapter,
  identity: CanonicalValue,
  contract: RecoveryContract,
  locator: number,
): Promise<unknown> {
  const target: unknown = await a.fn.readTarget(reader, identity);
  // One target per call (docs/DESIGN.md §4): an array, a wrapper or anything but one plain object is refused.
  if (!isPlainObject(target)) throw new StepRefusal('TARGET_UNRESOLVED');
  if (a.fn.identityDigest(a.fn.identityOfTarget(target)) !== contract.target_identity_digest) {
    throw new StepRefusal('TARGET_IDENTITY_CHANGED');
  }
  if (a.fn.transportLocator(target) !== locator) throw new StepRefusal('TARGET_LOCATOR_CHANGED');
  return target;
}

/** The frozen transport projection, re-checked against identity and locator. */
export function resolveCheckedTarget(a: CheckedAdapter, target: unknown, contract: RecoveryContract, locator: number): unknown {
  const resolved: unknown = a.fn.resolveTransportTarget(target);
  if (!isPlainObject(resolved) || !Object.isFrozen(resolved)) throw new StepRefusal('REQUEST_REFUSED');
  const r = resolved as { identity?: unknown; locator?: unknown };
  if (r.locator !== locator) throw new StepRefusal('TARGET_LOCATOR_CHANGED');
  if (a.fn.identityDigest(r.identity) !== contract.target_identity_digest) throw new StepRefusal('TARGET_IDENTITY_CHANGED');
  return resolved;
}

/**
 * Step 6 run-time check: the request is one frozen plain object that the adapter recognizes as its own
 * closed model, that has exactly the endpoint's own closed key set (the write client's `isWriteRequestFor`,
 * not the adapter's word: an adapter whose isRequestModel says yes to anything cannot add a key), and that
 * encodes as canonical JSON. Anything else (a look-alike literal, an extra key, an array of two requests, a
 * class instance) is refused before the send.
 */
export function checkedRequest(a: CheckedAdapter, contract: RecoveryContract, request: unknown): object {
  if (!isPlainObject(request) || !Object.isFrozen(request)) throw new StepRefusal('REQUEST_REFUSED');
  if (!isWriteRequestFor(contract.endpoint_symbol, request)) throw new StepRefusal('REQUEST_REFUSED');
  if (a.fn.isRequestModel(request) !== true) throw new StepRefusal('REQUEST_REFUSED');
  try {
    // The write client's own bounds for this endpoint (an alias's complete lists can be long).
    canonicalize(request, { maxBytes: maxBodyBytesFor(contract.endpoint_symbol), maxArrayLength: MAX_WRITE_LIST_LENGTH });
  } catch {
    throw new StepRefusal('REQUEST_REFUSED');
  }
  return request;
}

/** The verified seal of a post-read: the adapter's fingerprint digest and the locator, both validated. */
export function sealOf(a: CheckedAdapter, post: unknown): VerifiedSeal {
  const fingerprint: unknown = a.fn.fingerprint(post);
  const locator: unknown = a.fn.transportLocator(post);
  if (!isHex64(fingerprint) || typeof locator !== 'number' || !Number.isSafeInteger(locator)) throw new StepRefusal('NOT_VERIFIED');
  return { verifiedTargetFingerprint: fingerprint, verifiedLifecycleLocator: locator };
}
