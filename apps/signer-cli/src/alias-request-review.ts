import {
  ALIAS_DESCRIPTION_OPERATION,
  ALIAS_DESCRIPTION_ROLLBACK_PLAN_VERSION,
  ALIAS_DESCRIPTION_SEMANTICS_VERSION,
  AliasDescriptionAdapter,
  aliasDescriptionIntentDigest,
  aliasSnapshotDigest,
  aliasTargetFingerprint,
  aliasTargetIdentityDigest,
  assertAliasDescription,
  parseAliasDescriptionIntent,
  parseAliasSnapshot,
} from '@pfsense-mcp/adapters';
import type { AliasSnapshot } from '@pfsense-mcp/adapters';
import { createHash } from 'node:crypto';
import { ARTIFACT_CANONICAL_LIMITS, ArtifactKind } from '@pfsense-mcp/authorization';
import type { AliasChangeReview, PendingRequest, PreparedExecutionIntentV1, RequestApplianceFacts } from '@pfsense-mcp/authorization';
import { canonicalize } from '@pfsense-mcp/canonical';
import { Capability } from '@pfsense-mcp/policy';
import { configHistoryReviewOf } from './config-history-review.js';
import type { ConfigHistoryReview } from './config-history-review.js';
import { NOT_SHOWN, TYPE_OF_KIND, commonReviewOf, inconsistent, shownFieldsOf } from './request-review-base.js';
import type { RequestReviewBase } from './request-review-base.js';

/** Everything the signer shows about a verified alias-description request; every digest was recomputed here. */
export interface AliasDescriptionReview extends RequestReviewBase {
  readonly alias: { readonly name: string; readonly type: string; readonly address: readonly string[]; readonly detail: readonly string[] };
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of {address, detail}: names the member list in a summary. */
  readonly members_digest: string;
  readonly old_description: string;
  readonly new_description: string;
  readonly observed: { readonly fingerprint: string | null; readonly locator: number; readonly description: string | null } | null;
  /** Reconciliation only: what pfSense's config history showed after the send (null for other requests). */
  readonly config_history: ConfigHistoryReview | null;
}

/** sha256 over canonical {address, detail} — a display summary anyone can recompute, not a signed digest. */
export function membersDigestOf(address: readonly string[], detail: readonly string[]): string {
  return createHash('sha256').update(canonicalize({ address, detail }, ARTIFACT_CANONICAL_LIMITS)).digest('hex');
}

function snapshotOf(value: unknown, what: string): AliasSnapshot {
  try {
    return parseAliasSnapshot(value, what);
  } catch {
    return inconsistent(`${what} is not a valid alias`);
  }
}

/**
 * The alias-description facts an execution intent must carry, recomputed with the adapter's pure functions
 * from the pre-state and new description the request shows: descriptor, natural target, precondition
 * fingerprint, rollback snapshot digest, normalized intent (and that it is not a no-op).
 */
function checkIntent(intent: PreparedExecutionIntentV1, pre: AliasSnapshot, newDescription: string): Record<string, string> {
  const i = intent.payload;
  if (
    i.capability !== Capability.ALIAS_WRITE ||
    i.endpoint_symbol !== AliasDescriptionAdapter.endpointSymbol ||
    i.method !== AliasDescriptionAdapter.httpMethod ||
    i.adapter_semantics_version !== ALIAS_DESCRIPTION_SEMANTICS_VERSION ||
    i.rollback_plan_version !== ALIAS_DESCRIPTION_ROLLBACK_PLAN_VERSION
  ) {
    inconsistent('not an alias-description change this signer knows');
  }
  if (canonicalize(i.natural_target) !== canonicalize({ alias_name: pre.name })) inconsistent('target is not the alias shown');
  const fingerprint = aliasTargetFingerprint(pre);
  if (fingerprint !== i.precondition_fingerprint) inconsistent('precondition fingerprint does not match the alias shown');
  const snapshot = aliasSnapshotDigest(pre);
  if (snapshot !== i.rollback_snapshot_digest) inconsistent('rollback snapshot digest does not match the alias shown');
  let normalized;
  try {
    assertAliasDescription(newDescription, 'new_description');
    normalized = parseAliasDescriptionIntent(i.normalized_intent, 'normalized_intent');
  } catch {
    return inconsistent('intent is not a valid alias-description intent');
  }
  if (normalized.raw_target_hint.alias_name !== pre.name) inconsistent('intent names another alias');
  if (normalized.new_description !== newDescription) inconsistent('intent sets another description than shown');
  if (newDescription === pre.descr) inconsistent('new description equals the current one');
  return {
    target_identity: aliasTargetIdentityDigest({ alias_name: pre.name }),
    precondition_fingerprint: fingerprint,
    rollback_snapshot: snapshot,
    intent: aliasDescriptionIntentDigest(normalized),
  };
}

/**
 * A reconciliation or release request names the contract's target fingerprint and intent digest: both are
 * recomputed here from the pre-state and new description shown (with the adapter's pure functions), so
 * what the operator sees is what the contract holds. The appliance digest was recomputed by
 * verifyPendingRequest.
 */
function checkContractFacts(q: RequestApplianceFacts, pre: AliasSnapshot, newDescription: string): Record<string, string> {
  const fingerprint = aliasTargetFingerprint(pre);
  if (fingerprint !== q.target_fingerprint) inconsistent('target fingerprint does not match the alias shown');
  let intent: string;
  try {
    intent = aliasDescriptionIntentDigest({
      operation: ALIAS_DESCRIPTION_OPERATION,
      raw_target_hint: { alias_name: pre.name },
      new_description: newDescription,
    });
  } catch {
    return inconsistent('new description is not a valid alias description');
  }
  if (intent !== q.intent_digest) inconsistent('intent digest does not match the change shown');
  if (newDescription === pre.descr) inconsistent('new description equals the current one');
  return {
    target_identity: aliasTargetIdentityDigest({ alias_name: pre.name }),
    target_fingerprint: fingerprint,
    intent,
    appliance_binding: q.appliance_binding_digest,
  };
}

/** The fields only a description review shows beside the common ones: null unless the request kind shows them. */
const NOT_SHOWN_HERE = Object.freeze({ observed: null, config_history: null });

function reviewOf(
  request: PendingRequest,
  described: Pick<AliasDescriptionReview, 'alias' | 'members_digest' | 'old_description' | 'new_description'>,
  shown: Partial<Pick<AliasDescriptionReview, 'observed' | 'config_history'>>,
  digests: Record<string, string>,
): AliasDescriptionReview {
  // The key order is fixed by the spreads, whichever fields `shown` fills in.
  return Object.freeze({
    ...commonReviewOf(request),
    ...described,
    request: TYPE_OF_KIND[request.kind],
    ...NOT_SHOWN,
    ...NOT_SHOWN_HERE,
    ...shownFieldsOf(request),
    ...shown,
    digests: Object.freeze({ ...digests }),
  });
}

/** Authorization and confirmation requests carry the execution intent: its facts, recomputed, plus the two digests. */
function intentRequestDigests(
  q: {
    execution_intent: PreparedExecutionIntentV1;
    appliance_binding_digest: string;
    execution_intent_digest: string;
  },
  pre: AliasSnapshot,
  newDescription: string,
): Record<string, string> {
  return {
    ...checkIntent(q.execution_intent, pre, newDescription),
    appliance_binding: q.appliance_binding_digest,
    execution_intent: q.execution_intent_digest,
  };
}

/**
 * Recomputes the description-specific digests of a request whose server signature, currentness and generic
 * digests were already verified (verifyPendingRequest), and returns the review to show. Any mismatch is a
 * refusal (exit 4): a request that does not match its own facts is never shown as genuine.
 */
export function reviewAliasDescriptionRequest(request: PendingRequest, review: AliasChangeReview): AliasDescriptionReview {
  const newDescription = review.new_description;
  const pre = snapshotOf(review.pre_state, 'pre_state');
  const described = {
    alias: { name: pre.name, type: pre.type, address: pre.address, detail: pre.detail },
    members_digest: membersDigestOf(pre.address, pre.detail),
    old_description: pre.descr,
    new_description: newDescription,
  };
  switch (request.kind) {
    case ArtifactKind.AUTHORIZATION_REQUEST: {
      const q = request.payload;
      return reviewOf(request, described, {}, { ...intentRequestDigests(q, pre, newDescription), plan: q.plan_digest });
    }
    case ArtifactKind.CONFIRMATION_REQUEST: {
      const q = request.payload;
      const digests = intentRequestDigests(q, pre, newDescription);
      if (digests.intent !== q.intent_digest) inconsistent('intent digest does not match the intent');
      if (digests.precondition_fingerprint !== q.target_fingerprint) inconsistent('target fingerprint does not match the alias shown');
      return reviewOf(request, described, {}, digests);
    }
    case ArtifactKind.RECONCILIATION_REQUEST: {
      const q = request.payload;
      let observedDescr: string | null = null;
      const digests: Record<string, string> = { ...checkContractFacts(q, pre, newDescription) };
      if (q.observed_state !== null) {
        const seen = snapshotOf(q.observed_state, 'observed_state');
        if (seen.name !== pre.name) inconsistent('observed alias is another alias');
        const fp = aliasTargetFingerprint(seen);
        if (fp !== q.observed_fingerprint) inconsistent('observed fingerprint does not match the observed alias');
        digests.observed_fingerprint = fp;
        observedDescr = seen.descr;
      }
      const observed = Object.freeze({ fingerprint: q.observed_fingerprint, locator: q.observed_locator, description: observedDescr });
      return reviewOf(request, described, { observed, config_history: configHistoryReviewOf(request) }, digests);
    }
    case ArtifactKind.RELEASE_REQUEST:
      return reviewOf(request, described, {}, checkContractFacts(request.payload, pre, newDescription));
    case ArtifactKind.ROLLBACK_REQUEST:
      // The description's rollback restores a text and is never signed (docs/DESIGN.md §5).
      return inconsistent('a description change is rolled back without a signed request');
  }
}
