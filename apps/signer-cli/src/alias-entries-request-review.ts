import {
  ALIAS_ENTRIES_ROLLBACK_PLAN_VERSION,
  ALIAS_ENTRIES_SEMANTICS_VERSION,
  ALIAS_ENTRIES_OPERATION,
  aliasEntriesFingerprint,
  aliasEntriesIdentityDigest,
  aliasEntriesIntentDigest,
  aliasEntriesSnapshotDigest,
  entryKeyOf,
  expectedEntriesOf,
  parseAliasEntriesIntent,
  parseAliasEntriesState,
} from '@pfsense-mcp/adapters';
import type { AliasEntriesIntent, AliasEntriesState, AliasRuleUse } from '@pfsense-mcp/adapters';
import { ArtifactKind } from '@pfsense-mcp/authorization';
import type {
  AliasEntriesChangeReview,
  PfTableState,
  PendingRequest,
  PreparedExecutionIntentV1,
  RequestApplianceFacts,
} from '@pfsense-mcp/authorization';
import { canonicalize } from '@pfsense-mcp/canonical';
import { Capability } from '@pfsense-mcp/policy';
import { NOT_SHOWN, TYPE_OF_KIND, commonReviewOf, inconsistent, shownFieldsOf } from './request-review-base.js';
import type { RequestReviewBase } from './request-review-base.js';

/** One line of the change: an entry added (with the detail sent) or removed (with the detail it had). */
export interface EntryChangeReview {
  readonly change: 'add' | 'remove';
  readonly address: string;
  readonly detail: string;
}

/** Everything the signer shows about a verified alias-entries request; every digest was recomputed here. */
export interface AliasEntriesRequestReview extends RequestReviewBase {
  readonly capability: 'alias_entries';
  readonly alias: {
    readonly name: string;
    readonly type: string;
    readonly descr: string;
    readonly address: readonly string[];
    readonly detail: readonly string[];
  };
  readonly entries_before: number;
  readonly entries_after: number;
  readonly changes: readonly EntryChangeReview[];
  /**
   * Where the alias is used, as the server read it before the request was issued (`reported_at`, the request's
   * issue time): every referencing filter rule (the fingerprint binds them all; the human review lists the first
   * ALIAS_USAGE_REVIEW_RULES) and their count.
   */
  readonly usage: { readonly reported_at: number; readonly count: number; readonly rules: readonly AliasRuleUse[] };
  /** Reconciliation only: the alias as observed after the send (null when no single alias could be observed). */
  readonly observed: {
    readonly fingerprint: string | null;
    readonly locator: number;
    readonly address: readonly string[] | null;
    readonly detail: readonly string[] | null;
    /**
     * The alias's pf table as the server read it with the observation, compared with the observed alias (what pf
     * actually enforces); null in a request older than version 3.
     */
    readonly pf_table: PfTableState | null;
  } | null;
}

function stateOf(value: unknown, what: string): AliasEntriesState {
  try {
    return parseAliasEntriesState(value, what);
  } catch {
    return inconsistent(`${what} is not a valid alias with its usage`);
  }
}

/** The intent the review shows, checked as the adapter checks it (and against the alias shown). */
function intentOf(value: unknown, pre: AliasEntriesState): AliasEntriesIntent {
  let intent: AliasEntriesIntent;
  try {
    intent = parseAliasEntriesIntent(value, 'intent');
  } catch {
    return inconsistent('change is not a valid alias-entries change');
  }
  if (intent.raw_target_hint.alias_name !== pre.name) inconsistent('intent names another alias');
  const present = new Set(pre.address.map(entryKeyOf));
  if (intent.add.some((a) => present.has(entryKeyOf(a.address)))) inconsistent('an added entry is already in the alias shown');
  if (intent.remove.some((r) => !present.has(entryKeyOf(r)))) inconsistent('a removed entry is not in the alias shown');
  return intent;
}

function sameChange(a: Pick<AliasEntriesIntent, 'add' | 'remove'>, b: Pick<AliasEntriesIntent, 'add' | 'remove'>): boolean {
  return canonicalize({ add: a.add, remove: a.remove }) === canonicalize({ add: b.add, remove: b.remove });
}

/** The execution intent's facts, recomputed with the adapter's pure functions from the pre-state and change shown. */
function checkIntent(execution: PreparedExecutionIntentV1, pre: AliasEntriesState, shown: AliasEntriesIntent): Record<string, string> {
  const i = execution.payload;
  if (
    i.capability !== Capability.ALIAS_ENTRIES_WRITE ||
    i.endpoint_symbol !== 'FIREWALL_ALIAS_ENTRIES_PATCH' ||
    i.method !== 'PATCH' ||
    i.adapter_semantics_version !== ALIAS_ENTRIES_SEMANTICS_VERSION ||
    i.rollback_plan_version !== ALIAS_ENTRIES_ROLLBACK_PLAN_VERSION
  ) {
    inconsistent('not an alias-entries change this signer knows');
  }
  if (canonicalize(i.natural_target) !== canonicalize({ alias_name: pre.name })) inconsistent('target is not the alias shown');
  const fingerprint = aliasEntriesFingerprint(pre);
  if (fingerprint !== i.precondition_fingerprint) inconsistent('precondition fingerprint does not match the alias and usage shown');
  const snapshot = aliasEntriesSnapshotDigest(pre);
  if (snapshot !== i.rollback_snapshot_digest) inconsistent('rollback snapshot digest does not match the alias shown');
  const normalized = intentOf(i.normalized_intent, pre);
  if (!sameChange(normalized, shown)) inconsistent('intent makes another change than shown');
  return {
    target_identity: aliasEntriesIdentityDigest({ alias_name: pre.name }),
    precondition_fingerprint: fingerprint,
    rollback_snapshot: snapshot,
    intent: aliasEntriesIntentDigest(normalized),
  };
}

/** A reconciliation or release request's contract facts, recomputed from the pre-state and change shown. */
function checkContractFacts(q: RequestApplianceFacts, pre: AliasEntriesState, shown: AliasEntriesIntent): Record<string, string> {
  const fingerprint = aliasEntriesFingerprint(pre);
  if (fingerprint !== q.target_fingerprint) inconsistent('target fingerprint does not match the alias and usage shown');
  const intent = aliasEntriesIntentDigest(shown);
  if (intent !== q.intent_digest) inconsistent('intent digest does not match the change shown');
  return {
    target_identity: aliasEntriesIdentityDigest({ alias_name: pre.name }),
    target_fingerprint: fingerprint,
    intent,
    appliance_binding: q.appliance_binding_digest,
  };
}

function changesOf(pre: AliasEntriesState, intent: Pick<AliasEntriesIntent, 'add' | 'remove'>): readonly EntryChangeReview[] {
  const detailOf = new Map(pre.address.map((a, i) => [entryKeyOf(a), pre.detail[i] ?? ''] as const));
  return Object.freeze([
    ...intent.add.map((a) => Object.freeze({ change: 'add' as const, address: a.address, detail: a.detail })),
    ...intent.remove.map((r) => Object.freeze({ change: 'remove' as const, address: r, detail: detailOf.get(entryKeyOf(r)) ?? '' })),
  ]);
}

/** The change that undoes `intent` on the alias it left: its added entries removed, its removed ones back with their details. */
function inverseOf(pre: AliasEntriesState, intent: AliasEntriesIntent): Pick<AliasEntriesIntent, 'add' | 'remove'> {
  const detailOf = new Map(pre.address.map((a, i) => [entryKeyOf(a), pre.detail[i] ?? ''] as const));
  return Object.freeze({
    add: Object.freeze(intent.remove.map((r) => Object.freeze({ address: r, detail: detailOf.get(entryKeyOf(r)) ?? '' }))),
    remove: Object.freeze(intent.add.map((a) => a.address)),
  });
}

/**
 * Recomputes the entries-specific digests of a request whose server signature, currentness and generic digests
 * were already verified (verifyPendingRequest), and returns the review to show: the alias, the change, and
 * every rule that uses the alias — so the operator sees whether it feeds a pass or a block rule. Any mismatch
 * is a refusal (exit 4).
 */
export function reviewAliasEntriesRequest(request: PendingRequest, review: AliasEntriesChangeReview): AliasEntriesRequestReview {
  const pre = stateOf(review.pre_state, 'pre_state');
  const shown = intentOf(
    { operation: ALIAS_ENTRIES_OPERATION, raw_target_hint: { alias_name: pre.name }, add: review.add, remove: review.remove },
    pre,
  );
  let digests: Record<string, string>;
  let observed: AliasEntriesRequestReview['observed'] = null;
  switch (request.kind) {
    case ArtifactKind.AUTHORIZATION_REQUEST: {
      const q = request.payload;
      digests = {
        ...checkIntent(q.execution_intent, pre, shown),
        appliance_binding: q.appliance_binding_digest,
        execution_intent: q.execution_intent_digest,
        plan: q.plan_digest,
      };
      break;
    }
    case ArtifactKind.CONFIRMATION_REQUEST: {
      const q = request.payload;
      digests = {
        ...checkIntent(q.execution_intent, pre, shown),
        appliance_binding: q.appliance_binding_digest,
        execution_intent: q.execution_intent_digest,
      };
      if (digests.intent !== q.intent_digest) inconsistent('intent digest does not match the intent');
      if (digests.precondition_fingerprint !== q.target_fingerprint) inconsistent('target fingerprint does not match the alias shown');
      break;
    }
    case ArtifactKind.RECONCILIATION_REQUEST: {
      const q = request.payload;
      digests = checkContractFacts(q, pre, shown);
      let seen: AliasEntriesState | null = null;
      if (q.observed_state !== null) {
        seen = stateOf(q.observed_state, 'observed_state');
        if (seen.name !== pre.name) inconsistent('observed alias is another alias');
        const fp = aliasEntriesFingerprint(seen);
        if (fp !== q.observed_fingerprint) inconsistent('observed fingerprint does not match the observed alias');
        digests.observed_fingerprint = fp;
      }
      observed = Object.freeze({
        fingerprint: q.observed_fingerprint,
        locator: q.observed_locator,
        address: seen === null ? null : seen.address,
        detail: seen === null ? null : seen.detail,
        pf_table: request.version === 3 ? request.payload.observed_pf_table : null,
      });
      break;
    }
    case ArtifactKind.RELEASE_REQUEST:
      digests = checkContractFacts(request.payload, pre, shown);
      break;
    case ArtifactKind.ROLLBACK_REQUEST: {
      digests = checkContractFacts(request.payload, pre, shown);
      const fp = aliasEntriesFingerprint({ ...pre, ...expectedEntriesOf(pre, shown) });
      if (fp !== request.payload.verified_target_fingerprint) inconsistent('verified fingerprint does not match the alias with the change');
      digests.verified_fingerprint = fp;
      break;
    }
  }
  // A rollback is shown as the change it makes: from the alias as verified back to the alias before.
  const rollback = request.kind === ArtifactKind.ROLLBACK_REQUEST;
  const from: AliasEntriesState = rollback ? Object.freeze({ ...pre, ...expectedEntriesOf(pre, shown) }) : pre;
  const change = rollback ? inverseOf(pre, shown) : shown;
  const after = expectedEntriesOf(from, change);
  return Object.freeze({
    ...commonReviewOf(request),
    capability: 'alias_entries' as const,
    alias: Object.freeze({ name: from.name, type: from.type, descr: from.descr, address: from.address, detail: from.detail }),
    entries_before: from.address.length,
    entries_after: after.address.length,
    changes: changesOf(from, change),
    usage: Object.freeze({ reported_at: request.payload.issued_at, count: pre.usage.length, rules: pre.usage }),
    request: TYPE_OF_KIND[request.kind],
    ...NOT_SHOWN,
    ...shownFieldsOf(request),
    observed,
    digests: Object.freeze({ ...digests }),
  });
}
