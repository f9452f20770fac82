import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { Capability } from '@pfsense-mcp/policy';
import type { AliasIdentity } from './alias-description-intent.js';
import { parseAliasIdentity } from './alias-description-intent.js';
import { SNAPSHOT_CANONICAL_LIMITS, aliasSnapshotOf, parseAliasSnapshot } from './alias-target.js';

/**
 * digest(TARGET_FINGERPRINT, {name, type, descr, address[], detail[]}) of an alias object (a read target
 * with its id, or a snapshot): the five fields are projected, validated closed, and digested in canonical
 * form. Arrays keep their order (address/detail positions correspond); the id never enters.
 */
export function aliasTargetFingerprint(target: unknown): string {
  return digest(DigestPurpose.TARGET_FINGERPRINT, aliasSnapshotOf(target), SNAPSHOT_CANONICAL_LIMITS);
}

/** digest(TARGET_IDENTITY, {capability: ALIAS_WRITE, alias_name}) of `{alias_name}`. */
export function aliasTargetIdentityDigest(identity: unknown): string {
  const { alias_name }: AliasIdentity = parseAliasIdentity(identity, 'identity');
  return digest(DigestPurpose.TARGET_IDENTITY, { capability: Capability.ALIAS_WRITE, alias_name });
}

/** digest(SNAPSHOT, snapshot) of exactly the five semantic fields. */
export function aliasSnapshotDigest(snapshot: unknown): string {
  return digest(DigestPurpose.SNAPSHOT, parseAliasSnapshot(snapshot), SNAPSHOT_CANONICAL_LIMITS);
}
