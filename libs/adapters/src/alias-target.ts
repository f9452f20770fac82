import { isWellFormed } from '@pfsense-mcp/canonical';
import { ALIAS_NAME_CHARSET, ALIAS_NAME_MAX_LENGTH } from '@pfsense-mcp/foundation';
import { z } from 'zod';
import { parseClosedObject, projectKeys } from './parse-closed-object.js';

/** Ordinary alias types this capability accepts (pfrest FirewallAlias `type` choices; docs/DESIGN.md §5). */
export const ALIAS_TYPES = Object.freeze(['host', 'network', 'port'] as const);
export type AliasType = (typeof ALIAS_TYPES)[number];

/** URL-type aliases (pfSense's url, url_ports, urltable, urltable_ports): their content is fetched, refused. */
export const URL_ALIAS_TYPES = Object.freeze(['url', 'url_ports', 'urltable', 'urltable_ports'] as const);

/**
 * The semantic fields of an alias, in fingerprint order (docs/DESIGN.md §5):
 *   name    — proves the natural target;
 *   type    — refuses a mutation after semantic retagging;
 *   descr   — the expected pre-state; detects concurrent description edits;
 *   address — policy-affecting members, ordered;
 *   detail  — member details, ordered and positionally tied to address.
 * The numeric `id` is a transient locator, excluded from fingerprint and snapshot.
 */
export const ALIAS_SEMANTIC_FIELDS = Object.freeze(['name', 'type', 'descr', 'address', 'detail'] as const);
export const ALIAS_TARGET_FIELDS = Object.freeze(['id', ...ALIAS_SEMANTIC_FIELDS] as const);

/**
 * Bounds on appliance data (not on caller input): generous, but finite. Deliberately above what a change may
 * be requested for (the authorization library's alias bound, 20,000 members): an alias this adapter reads
 * but a request cannot carry is refused by the coordinator with an audit row, not as an unreadable target.
 */
const MAX_DESCR_LENGTH = 8192;
const MAX_MEMBER_LENGTH = 1024;
const MAX_MEMBERS = 100_000;

/** Canonical-encoding limits of one alias snapshot (fingerprint, snapshot digest): its member count, 64 MiB. */
export const SNAPSHOT_CANONICAL_LIMITS = Object.freeze({ maxArrayLength: MAX_MEMBERS, maxBytes: 64 * 1024 * 1024 });

const applianceString = (max: number) => z.string().max(max).refine(isWellFormed);
const members = z.array(applianceString(MAX_MEMBER_LENGTH)).max(MAX_MEMBERS);

const semanticShape = {
  name: applianceString(ALIAS_NAME_MAX_LENGTH).regex(ALIAS_NAME_CHARSET),
  type: z.enum(ALIAS_TYPES),
  descr: applianceString(MAX_DESCR_LENGTH),
  address: members,
  detail: members,
};

const sameCardinality = (v: { address: readonly string[]; detail: readonly string[] }): boolean => v.address.length === v.detail.length;

/** {name, type, descr, address[], detail[]} — the fingerprint object and the rollback snapshot. */
export const AliasSemanticSchema = z.strictObject(semanticShape).refine(sameCardinality, { path: ['detail'] });

/** An alias as one authoritative read returns it: the semantic fields plus the locator `id`. */
export const AliasTargetSchema = z
  .strictObject({ id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), ...semanticShape })
  .refine(sameCardinality, { path: ['detail'] });

export interface AliasSnapshot {
  readonly name: string;
  readonly type: AliasType;
  readonly descr: string;
  readonly address: readonly string[];
  readonly detail: readonly string[];
}

export interface AliasTarget extends AliasSnapshot {
  readonly id: number;
}

function freezeSemantic(v: AliasSnapshot): AliasSnapshot {
  return Object.freeze({
    name: v.name,
    type: v.type,
    descr: v.descr,
    address: Object.freeze([...v.address]),
    detail: Object.freeze([...v.detail]),
  });
}

/** Validates a full read object (id + semantic fields, nothing else) and returns a frozen copy. */
export function parseAliasTarget(value: unknown, argument = 'target'): AliasTarget {
  const v = parseClosedObject(value, ALIAS_TARGET_FIELDS, AliasTargetSchema, argument);
  return Object.freeze({ id: v.id, ...freezeSemantic(v) });
}

/** Validates exactly the five semantic fields (a snapshot) and returns a frozen copy. */
export function parseAliasSnapshot(value: unknown, argument = 'snapshot'): AliasSnapshot {
  return freezeSemantic(parseClosedObject(value, ALIAS_SEMANTIC_FIELDS, AliasSemanticSchema, argument));
}

/**
 * The five semantic fields projected out of an alias object (a target with its id, or a snapshot), then
 * validated closed. Missing fields stay missing and are refused.
 */
export function aliasSnapshotOf(target: unknown, argument = 'target'): AliasSnapshot {
  return parseAliasSnapshot(projectKeys(target, ALIAS_SEMANTIC_FIELDS), argument);
}
