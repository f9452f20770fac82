import { Capability } from '@pfsense-mcp/policy';
import { z } from 'zod';
import { AdapterInputError } from './adapter-error.js';
import {
  ALIAS_DESCRIPTION_OPERATION,
  aliasDescriptionIntentDigest,
  normalizeAliasDescriptionIntent,
  parseAliasDescriptionInput,
  parseAliasDescriptionIntent,
  parseAliasIdentity,
} from './alias-description-intent.js';
import type { AliasDescriptionInput, AliasDescriptionIntent, AliasIdentity } from './alias-description-intent.js';
import { createAliasDescriptionRequest, isAliasDescriptionRequest } from './alias-description-request.js';
import type { AliasDescriptionRequest } from './alias-description-request.js';
import { aliasSnapshotDigest, aliasTargetFingerprint, aliasTargetIdentityDigest } from './alias-fingerprint.js';
import { aliasSnapshotOf, parseAliasSnapshot, parseAliasTarget } from './alias-target.js';
import type { AliasSnapshot, AliasTarget } from './alias-target.js';
import { isAliasDescriptionVerified, isAliasRollbackVerified } from './alias-verification.js';
import type { CapabilityAdapter, ResolvedTransportTarget } from './capability-adapter.js';
import { parseAliasPatchResponse } from './parse-alias-patch-response.js';
import { parseClosedObject } from './parse-closed-object.js';
import { readAliasTarget } from './read-alias-target.js';

/** Adapter and preparer version (docs/DESIGN.md §5). */
export const ALIAS_DESCRIPTION_SEMANTICS_VERSION = 'firewall-alias-description/v1';
/** Rollback policy identifier (docs/DESIGN.md §5). */
export const ALIAS_DESCRIPTION_ROLLBACK_PLAN_VERSION = 'firewall-alias-description-rollback/v1';

/** What the operator reviews for an alias-description change: the alias's five fields now and the new description. */
export interface AliasDescriptionReview {
  readonly pre_state: AliasSnapshot;
  readonly new_description: string;
}

export type AliasDescriptionCapabilityAdapter = CapabilityAdapter<
  AliasTarget,
  AliasIdentity,
  AliasDescriptionIntent,
  AliasSnapshot,
  AliasDescriptionRequest,
  AliasDescriptionInput,
  AliasDescriptionReview
>;

const anyObject = z.record(z.string(), z.unknown());

function parseResolved(value: unknown): ResolvedTransportTarget<AliasIdentity> {
  const v = parseClosedObject(value, ['identity', 'locator'], anyObject, 'target');
  const identity = parseAliasIdentity(v.identity, 'target.identity');
  if (typeof v.locator !== 'number' || !Number.isSafeInteger(v.locator) || v.locator < 0) {
    throw new AdapterInputError('BAD_LOCATOR', 'target.locator', 'must be a non-negative safe integer');
  }
  return { identity, locator: v.locator };
}

/**
 * Replace the description of one existing ordinary firewall alias, identified by its exact name
 * (docs/DESIGN.md §5). A frozen object of pure functions: descriptor fields are readonly properties,
 * no method uses `this`, nothing is cached. The executor alone reads (through `readTarget`'s injected
 * reader), sends and decides; this adapter only validates, projects and compares.
 */
export const AliasDescriptionAdapter: AliasDescriptionCapabilityAdapter = Object.freeze({
  endpointSymbol: 'FIREWALL_ALIAS_PATCH',
  httpMethod: 'PATCH',
  capability: Capability.ALIAS_WRITE,
  semanticsVersion: ALIAS_DESCRIPTION_SEMANTICS_VERSION,
  rollbackPlanVersion: ALIAS_DESCRIPTION_ROLLBACK_PLAN_VERSION,
  stepPrefix: 'alias-description',

  parseInput: (input: unknown): AliasDescriptionInput => parseAliasDescriptionInput(input),
  intentOfInput: (input: AliasDescriptionInput): AliasDescriptionIntent => {
    const checked = parseAliasDescriptionInput(input);
    return Object.freeze({
      operation: ALIAS_DESCRIPTION_OPERATION,
      raw_target_hint: Object.freeze({ alias_name: checked.alias_name }),
      new_description: checked.description,
    });
  },
  inputOfIntent: (intent: AliasDescriptionIntent): AliasDescriptionInput => {
    const i = parseAliasDescriptionIntent(intent);
    return Object.freeze({ alias_name: i.raw_target_hint.alias_name, description: i.new_description });
  },
  identityOfIntent: (intent: AliasDescriptionIntent): AliasIdentity => parseAliasDescriptionIntent(intent).raw_target_hint,
  normalizeIntent: normalizeAliasDescriptionIntent,
  reviewOf: (target: AliasTarget, intent: AliasDescriptionIntent): AliasDescriptionReview =>
    Object.freeze({ pre_state: aliasSnapshotOf(target), new_description: parseAliasDescriptionIntent(intent).new_description }),

  readTarget: readAliasTarget,
  naturalIdentity: (hint: unknown): AliasIdentity => parseAliasIdentity(hint, 'raw_target_hint'),
  identityOfTarget: (target: AliasTarget): AliasIdentity => Object.freeze({ alias_name: parseAliasTarget(target).name }),
  identityDigest: aliasTargetIdentityDigest,
  fingerprint: aliasTargetFingerprint,
  transportLocator: (target: AliasTarget): number => parseAliasTarget(target).id,
  snapshotOf: (target: AliasTarget): AliasSnapshot => aliasSnapshotOf(target),
  resolveTransportTarget: (target: AliasTarget): ResolvedTransportTarget<AliasIdentity> => {
    const t = parseAliasTarget(target);
    return Object.freeze({ identity: Object.freeze({ alias_name: t.name }), locator: t.id });
  },
  parseIntent: (intent: unknown): AliasDescriptionIntent => parseAliasDescriptionIntent(intent),
  intentDigest: aliasDescriptionIntentDigest,
  snapshotDigest: aliasSnapshotDigest,

  buildRequest: (intent: unknown, target: ResolvedTransportTarget<AliasIdentity>): AliasDescriptionRequest => {
    const wanted = parseAliasDescriptionIntent(intent);
    const resolved = parseResolved(target);
    if (resolved.identity.alias_name !== wanted.raw_target_hint.alias_name) {
      throw new AdapterInputError('TARGET_MISMATCH', 'target.identity', 'is not the alias the intent names');
    }
    return createAliasDescriptionRequest(resolved.locator, resolved.identity.alias_name, wanted.new_description);
  },
  isRequestModel: isAliasDescriptionRequest,
  parseResponse: parseAliasPatchResponse,
  isSemanticallyVerified: isAliasDescriptionVerified,

  buildRollbackRequest: (snapshot: unknown, target: ResolvedTransportTarget<AliasIdentity>): AliasDescriptionRequest => {
    const old = parseAliasSnapshot(snapshot);
    const resolved = parseResolved(target);
    if (resolved.identity.alias_name !== old.name) {
      throw new AdapterInputError('TARGET_MISMATCH', 'target.identity', 'is not the alias the snapshot was taken of');
    }
    // Only the description goes back; the other snapshot fields guard against overwriting unrelated edits.
    return createAliasDescriptionRequest(resolved.locator, resolved.identity.alias_name, old.descr);
  },
  isRollbackVerified: isAliasRollbackVerified,
});
