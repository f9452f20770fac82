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
import { ARTIFACT_CANONICAL_LIMITS, ArtifactKind, artifactDigestOf, isAliasEntriesChangeReview } from '@pfsense-mcp/authorization';
import type { PendingRequest, PreparedExecutionIntentV1, RequestApplianceFacts } from '@pfsense-mcp/authorization';
import { canonicalize } from '@pfsense-mcp/canonical';
import { Capability } from '@pfsense-mcp/policy';
import { configHistoryReviewOf } from './config-history-review.js';
import type { ConfigHistoryReview } from './config-history-review.js';
import { ExitCode } from './exit-code.js';
import { roleForRequest } from './role-key-file.js';
import { SignerError } from './signer-error.js';

export type RequestType = 'authorization' | 'confirmation' | 'reconciliation' | 'release';

/** Everything the signer shows about a verified pending request; every digest in `digests` was recomputed here. */
export interface RequestReview {
  readonly request: RequestType;
  readonly request_digest: string;
  /**
   * The approval code (12 hex, keyed by the operator's private key of `key_role`, docs/DESIGN.md §10): null until
   * the command was given that key (--key FILE or --keys DIR).
   */
  readonly approve_prefix: string | null;
  /** The role whose key answers this request and computes its approval code. */
  readonly key_role: string;
  readonly server_key_id: string;
  readonly issued_at: number;
  readonly expires_at: number;
  readonly operation_id: string;
  readonly contract_id: string | null;
  readonly state_version: number | null;
  readonly step_id: string | null;
  readonly risk_class: string | null;
  readonly origin: string | null;
  readonly appliance: { readonly base_url: string; readonly tls_mode: string; readonly appliance_id: string } | null;
  readonly alias: { readonly name: string; readonly type: string; readonly address: readonly string[]; readonly detail: readonly string[] };
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of {address, detail}: names the member list in a summary. */
  readonly members_digest: string;
  readonly old_description: string;
  readonly new_description: string;
  readonly observed: { readonly fingerprint: string | null; readonly locator: number; readonly description: string | null } | null;
  /** Reconciliation only: what pfSense's config history showed after the send (null for other requests). */
  readonly config_history: ConfigHistoryReview | null;
  readonly digests: Readonly<Record<string, string>>;
}

/** sha256 over canonical {address, detail} — a display summary anyone can recompute, not a signed digest. */
export function membersDigestOf(address: readonly string[], detail: readonly string[]): string {
  return createHash('sha256').update(canonicalize({ address, detail }, ARTIFACT_CANONICAL_LIMITS)).digest('hex');
}

const TYPE_OF_KIND = Object.freeze({
  [ArtifactKind.AUTHORIZATION_REQUEST]: 'authorization',
  [ArtifactKind.CONFIRMATION_REQUEST]: 'confirmation',
  [ArtifactKind.RECONCILIATION_REQUEST]: 'reconciliation',
  [ArtifactKind.RELEASE_REQUEST]: 'release',
} as const);

function inconsistent(what: string): never {
  throw new SignerError(ExitCode.ARTIFACT_REFUSED, 'INCONSISTENT', `request is inconsistent: ${what}`);
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

/** The fields every review shows, whatever the request. */
type CommonReview = Pick<
  RequestReview,
  | 'request_digest'
  | 'approve_prefix'
  | 'key_role'
  | 'server_key_id'
  | 'issued_at'
  | 'expires_at'
  | 'operation_id'
  | 'alias'
  | 'members_digest'
  | 'old_description'
  | 'new_description'
>;

/** The fields only some requests show: null unless the request kind shows them (this is also their order). */
const NOT_SHOWN = Object.freeze({
  contract_id: null,
  state_version: null,
  step_id: null,
  risk_class: null,
  origin: null,
  appliance: null,
  observed: null,
  config_history: null,
});

type ShownFields = Partial<Pick<RequestReview, keyof typeof NOT_SHOWN>>;

function reviewOf(common: CommonReview, request: RequestType, shown: ShownFields, digests: Record<string, string>): RequestReview {
  // Spreading NOT_SHOWN first fixes the key order, whichever of its fields `shown` fills in.
  return Object.freeze({ ...common, request, ...NOT_SHOWN, ...shown, digests: Object.freeze({ ...digests }) });
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
 * Recomputes the capability-specific digests of a request whose server signature, currentness and generic
 * digests were already verified (verifyPendingRequest), and returns the review to show. Any mismatch is a
 * refusal (exit 4): a request that does not match its own facts is never shown as genuine.
 */
export function reviewPendingRequest(request: PendingRequest): RequestReview {
  const p = request.payload;
  // An alias-entries request is not reviewed here: this review shows a description change only, and a
  // request it cannot show in full is never shown as genuine.
  if (isAliasEntriesChangeReview(p.review)) inconsistent('an alias entries request is not a description change');
  const newDescription = p.review.new_description;
  const digest = artifactDigestOf(request);
  const pre = snapshotOf(p.review.pre_state, 'pre_state');
  const common = {
    request_digest: digest,
    approve_prefix: null,
    key_role: roleForRequest(TYPE_OF_KIND[request.kind]),
    server_key_id: p.key_id,
    issued_at: p.issued_at,
    expires_at: p.expires_at,
    operation_id: p.operation_id,
    alias: { name: pre.name, type: pre.type, address: pre.address, detail: pre.detail },
    members_digest: membersDigestOf(pre.address, pre.detail),
    old_description: pre.descr,
    new_description: newDescription,
  };
  switch (request.kind) {
    case ArtifactKind.AUTHORIZATION_REQUEST: {
      const q = request.payload;
      return reviewOf(
        common,
        'authorization',
        { step_id: q.step_id, risk_class: q.risk_class, appliance: q.appliance },
        {
          ...intentRequestDigests(q, pre, newDescription),
          plan: q.plan_digest,
        },
      );
    }
    case ArtifactKind.CONFIRMATION_REQUEST: {
      const q = request.payload;
      const digests = intentRequestDigests(q, pre, newDescription);
      if (digests.intent !== q.intent_digest) inconsistent('intent digest does not match the intent');
      if (digests.precondition_fingerprint !== q.target_fingerprint) inconsistent('target fingerprint does not match the alias shown');
      return reviewOf(common, 'confirmation', { contract_id: q.contract_id, appliance: q.appliance }, digests);
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
      return reviewOf(
        common,
        'reconciliation',
        {
          contract_id: q.contract_id,
          state_version: q.state_version,
          origin: q.origin,
          appliance: q.appliance,
          observed,
          config_history: configHistoryReviewOf(request),
        },
        digests,
      );
    }
    case ArtifactKind.RELEASE_REQUEST: {
      const q = request.payload;
      return reviewOf(
        common,
        'release',
        { contract_id: q.contract_id, state_version: q.state_version, appliance: q.appliance },
        checkContractFacts(q, pre, newDescription),
      );
    }
  }
}
