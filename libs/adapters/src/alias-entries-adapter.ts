import { Capability } from '@pfsense-mcp/policy';
import { z } from 'zod';
import { AdapterInputError } from './adapter-error.js';
import { parseAliasIdentity } from './alias-description-intent.js';
import type { AliasIdentity } from './alias-description-intent.js';
import { checkAliasEntriesLimits, checkEntriesChange, expectedEntriesOf } from './alias-entries-change.js';
import type { AliasEntriesLimits } from './alias-entries-change.js';
import { aliasEntriesIntentDigest, aliasEntriesIntentOf, parseAliasEntriesInput, parseAliasEntriesIntent } from './alias-entries-intent.js';
import type { AliasEntriesInput, AliasEntriesIntent, AliasEntryAddition } from './alias-entries-intent.js';
import { createAliasEntriesRequest, isAliasEntriesRequest, parseAliasEntriesResponse } from './alias-entries-request.js';
import type { AliasEntriesRequest } from './alias-entries-request.js';
import {
  aliasEntriesBeforeDigest,
  aliasEntriesFingerprint,
  aliasEntriesIdentityDigest,
  aliasEntriesSnapshotDigest,
  aliasEntriesStateOf,
  parseAliasEntriesState,
  parseAliasEntriesTarget,
  readAliasEntriesTarget,
} from './alias-entries-target.js';
import type { AliasEntriesState, AliasEntriesTarget } from './alias-entries-target.js';
import { isAliasEntriesRollbackVerified, isAliasEntriesVerified } from './alias-entries-verification.js';
import type { CapabilityAdapter, ResolvedTransportTarget } from './capability-adapter.js';
import { parseClosedObject } from './parse-closed-object.js';

/** Adapter and preparer version (docs/DESIGN.md §5). */
export const ALIAS_ENTRIES_SEMANTICS_VERSION = 'firewall-alias-entries/v1';
/** Rollback policy identifier: the pre-state lists written back, applied, only with a signed authorization. */
export const ALIAS_ENTRIES_ROLLBACK_PLAN_VERSION = 'firewall-alias-entries-rollback/v1';

/**
 * What the operator reviews: the alias now with every rule that uses it (the complete state, so the signer
 * recomputes the fingerprint from it; the signer shows at most ALIAS_USAGE_REVIEW_RULES rules and their count)
 * and the change.
 */
export interface AliasEntriesReview {
  readonly pre_state: AliasEntriesState;
  readonly add: readonly AliasEntryAddition[];
  readonly remove: readonly string[];
}

export type AliasEntriesCapabilityAdapter = CapabilityAdapter<
  AliasEntriesTarget,
  AliasIdentity,
  AliasEntriesIntent,
  AliasEntriesState,
  AliasEntriesRequest,
  AliasEntriesInput,
  AliasEntriesReview
>;

const anyObject = z.record(z.string(), z.unknown());

/**
 * The transport projection of this capability: identity and locator, plus the alias's lists as the fresh
 * re-read holds them — the executor checked that read's fingerprint against the contract's precondition before
 * resolving it, so the new lists are computed from exactly the reviewed pre-state.
 */
export interface ResolvedAliasEntriesTarget extends ResolvedTransportTarget<AliasIdentity> {
  readonly entries: { readonly address: readonly string[]; readonly detail: readonly string[] };
}

function parseResolved(value: unknown): ResolvedAliasEntriesTarget {
  const v = parseClosedObject(value, ['identity', 'locator', 'entries'], anyObject, 'target');
  const identity = parseAliasIdentity(v.identity, 'target.identity');
  if (typeof v.locator !== 'number' || !Number.isSafeInteger(v.locator) || v.locator < 0) {
    throw new AdapterInputError('BAD_LOCATOR', 'target.locator', 'must be a non-negative safe integer');
  }
  const entries = v.entries as { address?: unknown; detail?: unknown } | null;
  const isList = (l: unknown): l is readonly string[] => Array.isArray(l) && l.every((x) => typeof x === 'string');
  if (entries === null || typeof entries !== 'object' || !isList(entries.address) || !isList(entries.detail)) {
    throw new AdapterInputError('MALFORMED', 'target.entries', 'must hold the address and detail lists');
  }
  return { identity, locator: v.locator, entries: { address: entries.address, detail: entries.detail } };
}

/** The identity and locator of a projection (a rollback writes the snapshot's lists, not the read's). */
function parseResolvedIdentity(value: unknown): ResolvedTransportTarget<AliasIdentity> {
  const r = parseResolved(value);
  return { identity: r.identity, locator: r.locator };
}

/**
 * Add or remove entries of one host or network alias that an enabled filter rule uses, applied to pf in the
 * same request (docs/DESIGN.md §5). Built by the composition root with the operator's bounds; the result is a
 * frozen object of pure functions like every adapter. Verification beyond the alias's own re-read — the
 * apply status and the pf table — is the executor's.
 */
export function createAliasEntriesAdapter(limits: AliasEntriesLimits): AliasEntriesCapabilityAdapter {
  const bounds = checkAliasEntriesLimits(limits);
  const normalizeIntent = (input: AliasEntriesInput, current: AliasEntriesTarget): AliasEntriesIntent => {
    const intent = aliasEntriesIntentOf(parseAliasEntriesInput(input));
    const target = parseAliasEntriesTarget(current, 'current');
    if (target.name !== intent.raw_target_hint.alias_name) {
      throw new AdapterInputError('TARGET_MISMATCH', 'current', 'is not the alias named by "alias_name"');
    }
    checkEntriesChange(target, intent, bounds);
    return intent;
  };
  return Object.freeze({
    endpointSymbol: 'FIREWALL_ALIAS_ENTRIES_PATCH',
    httpMethod: 'PATCH',
    capability: Capability.ALIAS_ENTRIES_WRITE,
    semanticsVersion: ALIAS_ENTRIES_SEMANTICS_VERSION,
    rollbackPlanVersion: ALIAS_ENTRIES_ROLLBACK_PLAN_VERSION,
    stepPrefix: 'alias-entries',

    parseInput: (input: unknown): AliasEntriesInput => parseAliasEntriesInput(input),
    intentOfInput: (input: AliasEntriesInput): AliasEntriesIntent => aliasEntriesIntentOf(parseAliasEntriesInput(input)),
    inputOfIntent: (intent: AliasEntriesIntent): AliasEntriesInput => {
      const i = parseAliasEntriesIntent(intent);
      return Object.freeze({ alias_name: i.raw_target_hint.alias_name, add: i.add, remove: i.remove });
    },
    identityOfIntent: (intent: AliasEntriesIntent): AliasIdentity => parseAliasEntriesIntent(intent).raw_target_hint,
    normalizeIntent,
    reviewOf: (target: AliasEntriesTarget, intent: AliasEntriesIntent): AliasEntriesReview => {
      const i = parseAliasEntriesIntent(intent);
      return Object.freeze({ pre_state: aliasEntriesStateOf(parseAliasEntriesTarget(target)), add: i.add, remove: i.remove });
    },

    operationBasisOf: (target: AliasEntriesTarget): object => Object.freeze({ entries_before: aliasEntriesBeforeDigest(target) }),

    readTarget: readAliasEntriesTarget,
    naturalIdentity: (hint: unknown): AliasIdentity => parseAliasIdentity(hint, 'raw_target_hint'),
    identityOfTarget: (target: AliasEntriesTarget): AliasIdentity => Object.freeze({ alias_name: parseAliasEntriesTarget(target).name }),
    identityDigest: aliasEntriesIdentityDigest,
    fingerprint: aliasEntriesFingerprint,
    transportLocator: (target: AliasEntriesTarget): number => parseAliasEntriesTarget(target).id,
    snapshotOf: (target: AliasEntriesTarget): AliasEntriesState => aliasEntriesStateOf(parseAliasEntriesTarget(target)),
    resolveTransportTarget: (target: AliasEntriesTarget): ResolvedAliasEntriesTarget => {
      const t = parseAliasEntriesTarget(target);
      return Object.freeze({
        identity: Object.freeze({ alias_name: t.name }),
        locator: t.id,
        entries: Object.freeze({ address: t.address, detail: t.detail }),
      });
    },
    parseIntent: (intent: unknown): AliasEntriesIntent => parseAliasEntriesIntent(intent),
    intentDigest: aliasEntriesIntentDigest,
    snapshotDigest: aliasEntriesSnapshotDigest,

    buildRequest: (intent: unknown, target: ResolvedTransportTarget<AliasIdentity>): AliasEntriesRequest => {
      const wanted = parseAliasEntriesIntent(intent);
      const resolved = parseResolved(target);
      if (resolved.identity.alias_name !== wanted.raw_target_hint.alias_name) {
        throw new AdapterInputError('TARGET_MISMATCH', 'target.identity', 'is not the alias the intent names');
      }
      const next = expectedEntriesOf(resolved.entries, wanted);
      return createAliasEntriesRequest(resolved.locator, resolved.identity.alias_name, next.address, next.detail);
    },
    isRequestModel: isAliasEntriesRequest,
    parseResponse: parseAliasEntriesResponse,
    isSemanticallyVerified: isAliasEntriesVerified,

    buildRollbackRequest: (snapshot: unknown, target: ResolvedTransportTarget<AliasIdentity>): AliasEntriesRequest => {
      const old = parseAliasEntriesState(snapshot);
      const resolved = parseResolvedIdentity(target);
      if (resolved.identity.alias_name !== old.name) {
        throw new AdapterInputError('TARGET_MISMATCH', 'target.identity', 'is not the alias the snapshot was taken of');
      }
      return createAliasEntriesRequest(resolved.locator, old.name, old.address, old.detail);
    },
    isRollbackVerified: isAliasEntriesRollbackVerified,
  });
}
