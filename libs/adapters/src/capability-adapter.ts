import type { CanonicalValue } from '@pfsense-mcp/canonical';
import type { Capability, HttpMethod } from '@pfsense-mcp/policy';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';

/**
 * The one read an adapter may make: the GET-only client's `readAllPages`. Typed structurally from
 * pfsense-read's client (a type-only import: the adapter never holds a transport).
 */
export type TargetReader = Pick<RestApiClient, 'readAllPages'>;

/**
 * The immutable transport projection the executor builds from a fresh authoritative read, after it has
 * checked identity and the lifecycle locator (docs/DESIGN.md §4 steps 5–6). The locator is never identity.
 */
export interface ResolvedTransportTarget<TIdentity = CanonicalValue> {
  readonly identity: TIdentity;
  readonly locator: number;
}

/** What `parseResponse` concluded from a received response. */
export type ParsedWriteResponse<TTarget> =
  { readonly accepted: true; readonly target: TTarget } | { readonly accepted: false; readonly reason: string };

/** The part of a transport response an adapter may look at. */
export interface WriteResponseView {
  readonly status: number;
  readonly body: string;
}

/**
 * The port between the sealed executor and one capability (docs/DESIGN.md §4).
 * An adapter is a frozen object of pure
 * functions plus static descriptor fields; it holds no state, no client and no key. Its only I/O is
 * `readTarget` through the reader the executor passes in. It never sends: it builds a closed request model
 * that the executor checks with `isRequestModel` and sends through its own WriteApiClient.
 *
 * Descriptor fields are readonly properties of the frozen adapter object (TypeScript interfaces cannot
 * declare statics); the executor matches them against policy and WriteEndpoints, they authorize nothing.
 */
export interface CapabilityAdapter<TTarget, TIdentity, TIntent, TSnapshot, TRequest extends object, TInput = unknown, TReview = unknown> {
  readonly endpointSymbol: string;
  readonly httpMethod: HttpMethod;
  readonly capability: Capability;
  /** Changes with any change of identity, fingerprint, intent, request or verification semantics. */
  readonly semanticsVersion: string;
  readonly rollbackPlanVersion: string;
  /** The prefix of a plan's step ids (`<stepPrefix>.attempt-<n>`): an old attempt's authorization never matches a new plan. */
  readonly stepPrefix: string;

  // What the coordinator uses to prepare a change (docs/DESIGN.md §6); the executor never calls these.
  /** The caller's input, by its wire names, checked (AdapterInputError names the wire argument, never its value). */
  parseInput(input: unknown): TInput;
  /** The normalized intent checked input asks for, without looking at the appliance (resuming a contract). */
  intentOfInput(input: TInput): TIntent;
  /** The checked input that asks for an intent (the inverse of intentOfInput: the operation id is derived from it). */
  inputOfIntent(intent: TIntent): TInput;
  /** The natural identity an intent names (what `readTarget` is given). */
  identityOfIntent(intent: TIntent): TIdentity;
  /** The normalized intent from checked input and one fresh read; refuses another target and a no-op. */
  normalizeIntent(input: TInput, current: TTarget): TIntent;
  /** What the operator reviews and signs over: the target's pre-state and the requested change. */
  reviewOf(target: TTarget, intent: TIntent): TReview;
  /**
   * Optional: what of the target's state, besides the input, names the operation (the alias entries: a digest of
   * the entries before the change, so the same change asked again after it was applied is a new operation).
   */
  operationBasisOf?(target: TTarget): object;

  /** The authoritative read of exactly one target; throws on zero, several or a malformed target. */
  readTarget(reader: TargetReader, identity: unknown): Promise<TTarget>;
  /** The natural identity from an intent's `raw_target_hint` (validated). */
  naturalIdentity(hint: unknown): TIdentity;
  /** The natural identity of a target returned by `readTarget`. */
  identityOfTarget(target: TTarget): TIdentity;
  /** digest(TARGET_IDENTITY, …) of a natural identity. */
  identityDigest(identity: unknown): string;
  /** digest(TARGET_FINGERPRINT, …) over the target's semantic fields (never the locator). */
  fingerprint(target: unknown): string;
  /** The transient numeric locator of a target (pfrest `id`). */
  transportLocator(target: TTarget): number;
  /** The rollback snapshot (pre-state semantic object) of a target. */
  snapshotOf(target: TTarget): TSnapshot;
  /** The frozen transport projection of a target, for `buildRequest`/`buildRollbackRequest`. */
  resolveTransportTarget(target: TTarget): ResolvedTransportTarget<TIdentity>;
  /** Validates a decrypted normalized intent. */
  parseIntent(intent: unknown): TIntent;
  /** digest(INTENT, …) of a normalized intent. */
  intentDigest(intent: unknown): string;
  /** digest(SNAPSHOT, …) of a snapshot. */
  snapshotDigest(snapshot: unknown): string;
  /** The closed, frozen forward request model. */
  buildRequest(intent: unknown, target: ResolvedTransportTarget<TIdentity>): TRequest;
  /** True only for a request model this adapter built (run-time check before any send). */
  isRequestModel(value: unknown): value is TRequest;
  /** Accepts only the upstream success response for exactly this request. */
  parseResponse(response: WriteResponseView, request: TRequest): ParsedWriteResponse<TTarget>;
  /** Forward post-condition over two authoritative reads; false on anything unexpected. */
  isSemanticallyVerified(pre: TTarget, post: TTarget, intent: unknown): boolean;
  /** The closed, frozen request that writes the snapshot's value back. */
  buildRollbackRequest(snapshot: unknown, target: ResolvedTransportTarget<TIdentity>): TRequest;
  /** Rollback post-condition: the fresh read equals the snapshot. */
  isRollbackVerified(snapshot: unknown, postRollback: TTarget): boolean;
}
