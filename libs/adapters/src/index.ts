// Public API of adapters: the CapabilityAdapter port and the alias-description adapter, plus the pure
// helpers the signer needs (identity, fingerprint, intent and snapshot digests). Nothing here can send:
// pfsense-read is imported for types only, so no transport is in this library's import graph.
export type {
  CapabilityAdapter,
  ParsedWriteResponse,
  ResolvedTransportTarget,
  TargetReader,
  WriteResponseView,
} from './capability-adapter.js';
export { AdapterError, AdapterInputError, TargetResolutionError } from './adapter-error.js';
export type { AdapterInputCode, TargetResolutionCode } from './adapter-error.js';
export {
  AliasDescriptionAdapter,
  ALIAS_DESCRIPTION_ROLLBACK_PLAN_VERSION,
  ALIAS_DESCRIPTION_SEMANTICS_VERSION,
} from './alias-description-adapter.js';
export type { AliasDescriptionCapabilityAdapter, AliasDescriptionReview } from './alias-description-adapter.js';
export {
  ALIAS_DESCRIPTION_OPERATION,
  aliasDescriptionIntentDigest,
  normalizeAliasDescriptionIntent,
  parseAliasDescriptionInput,
  parseAliasDescriptionIntent,
  parseAliasIdentity,
} from './alias-description-intent.js';
export type { AliasDescriptionInput, AliasDescriptionIntent, AliasIdentity } from './alias-description-intent.js';
export { isAliasDescriptionRequest } from './alias-description-request.js';
export type { AliasDescriptionRequest } from './alias-description-request.js';
export { aliasSnapshotDigest, aliasTargetFingerprint, aliasTargetIdentityDigest } from './alias-fingerprint.js';
export {
  ALIAS_SEMANTIC_FIELDS,
  ALIAS_TARGET_FIELDS,
  ALIAS_TYPES,
  URL_ALIAS_TYPES,
  aliasSnapshotOf,
  parseAliasSnapshot,
  parseAliasTarget,
} from './alias-target.js';
export type { AliasSnapshot, AliasTarget, AliasType } from './alias-target.js';
export { isAliasDescriptionVerified, isAliasRollbackVerified } from './alias-verification.js';
export { ALIAS_DESCRIPTION_MAX_LENGTH, assertAliasDescription } from './assert-alias-description.js';
export { assertAliasName } from './assert-alias-name.js';
// The rule itself is foundation's (written once, below every lib that needs it); adapters is its public home.
export { ALIAS_NAME_CHARSET, ALIAS_NAME_MAX_LENGTH, isAliasName } from '@pfsense-mcp/foundation';
export { parseAliasPatchResponse } from './parse-alias-patch-response.js';
export { ALIASES_PATH, readAliasTarget } from './read-alias-target.js';
export {
  ALIAS_ENTRIES_ROLLBACK_PLAN_VERSION,
  ALIAS_ENTRIES_SEMANTICS_VERSION,
  createAliasEntriesAdapter,
} from './alias-entries-adapter.js';
export type { AliasEntriesCapabilityAdapter, AliasEntriesReview, ResolvedAliasEntriesTarget } from './alias-entries-adapter.js';
export {
  DEFAULT_MAX_PREFIX_V4,
  DEFAULT_MAX_PREFIX_V6,
  checkAliasEntriesLimits,
  checkEntriesChange,
  expectedEntriesOf,
} from './alias-entries-change.js';
export type { AliasEntriesLimits } from './alias-entries-change.js';
export {
  ALIAS_ENTRIES_MAX_CHANGES,
  ALIAS_ENTRIES_OPERATION,
  ALIAS_ENTRY_DEFAULT_DETAIL,
  ALIAS_ENTRY_DETAIL_MAX_LENGTH,
  aliasEntriesIntentDigest,
  aliasEntriesIntentOf,
  assertEntryAddress,
  assertEntryDetail,
  parseAliasEntriesInput,
  parseAliasEntriesIntent,
} from './alias-entries-intent.js';
export type { AliasEntriesInput, AliasEntriesIntent, AliasEntryAddition } from './alias-entries-intent.js';
export { isAliasEntriesRequest, parseAliasEntriesResponse } from './alias-entries-request.js';
export type { AliasEntriesRequest } from './alias-entries-request.js';
export {
  aliasEntriesBeforeDigest,
  aliasEntriesFingerprint,
  aliasEntriesIdentityDigest,
  aliasEntriesSnapshotDigest,
  aliasEntriesStateOf,
  parseAliasEntriesState,
  parseAliasEntriesTarget,
  readAliasEntriesTarget,
} from './alias-entries-target.js';
export type { AliasEntriesState, AliasEntriesTarget } from './alias-entries-target.js';
export { isAliasEntriesRollbackVerified, isAliasEntriesVerified } from './alias-entries-verification.js';
export { ALIAS_USAGE_REVIEW_RULES, FIREWALL_RULES_PATH, aliasUsageDigest, aliasUsageOf, isUsedByEnabledRule } from './alias-usage.js';
export type { AliasRuleUse } from './alias-usage.js';
export { entryKeyOf, formatIpLiteral, ipLiteralsOverlap, isNetworkAligned, parseIpLiteral } from './ip-literal.js';
export type { IpLiteral } from './ip-literal.js';
