import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { z } from 'zod';
import { AdapterInputError } from './adapter-error.js';
import { parseAliasTarget } from './alias-target.js';
import { assertAliasDescription } from './assert-alias-description.js';
import { assertAliasName } from './assert-alias-name.js';
import { parseClosedObject } from './parse-closed-object.js';

/** The operation discriminator of the normalized intent (docs/DESIGN.md §5). */
export const ALIAS_DESCRIPTION_OPERATION = 'set_firewall_alias_description_v1';

/** The natural identity of an alias target: `{alias_name}` (docs/DESIGN.md §5). */
export interface AliasIdentity {
  readonly alias_name: string;
}

/**
 * The normalized intent that is digested, encrypted into the contract and, decrypted, fed to buildRequest:
 * `{operation, raw_target_hint: {alias_name}, new_description}` — no optional keys, no alternate form.
 */
export interface AliasDescriptionIntent {
  readonly operation: typeof ALIAS_DESCRIPTION_OPERATION;
  readonly raw_target_hint: AliasIdentity;
  readonly new_description: string;
}

/** The caller's typed input: exactly `{alias_name, description}`. */
export interface AliasDescriptionInput {
  readonly alias_name: string;
  readonly description: string;
}

const anyObject = z.record(z.string(), z.unknown());

/** Validates `{alias_name}` (an intent's raw_target_hint, or an identity) and returns a frozen copy. */
export function parseAliasIdentity(value: unknown, argument = 'raw_target_hint'): AliasIdentity {
  const v = parseClosedObject(value, ['alias_name'], anyObject, argument);
  return Object.freeze({ alias_name: assertAliasName(v.alias_name, `${argument}.alias_name`) });
}

/** Validates the caller's `{alias_name, description}` without looking at the appliance. */
export function parseAliasDescriptionInput(value: unknown, argument = 'input'): AliasDescriptionInput {
  const v = parseClosedObject(value, ['alias_name', 'description'], anyObject, argument);
  return Object.freeze({
    alias_name: assertAliasName(v.alias_name, 'alias_name'),
    description: assertAliasDescription(v.description, 'description'),
  });
}

/** Validates a (decrypted) normalized intent and returns a frozen copy. */
export function parseAliasDescriptionIntent(value: unknown, argument = 'intent'): AliasDescriptionIntent {
  const v = parseClosedObject(value, ['operation', 'raw_target_hint', 'new_description'], anyObject, argument);
  if (v.operation !== ALIAS_DESCRIPTION_OPERATION) {
    throw new AdapterInputError('MALFORMED', `${argument}.operation`, `must be "${ALIAS_DESCRIPTION_OPERATION}"`);
  }
  return Object.freeze({
    operation: ALIAS_DESCRIPTION_OPERATION,
    raw_target_hint: parseAliasIdentity(v.raw_target_hint, `${argument}.raw_target_hint`),
    new_description: assertAliasDescription(v.new_description, `${argument}.new_description`),
  });
}

/**
 * Builds the normalized intent from the caller's input and the target's current authoritative state (one
 * `readTarget` result). Refuses a target that is not the named alias, and a description equal to the current
 * one (a no-op must not become an executable intent, docs/DESIGN.md §5).
 */
export function normalizeAliasDescriptionIntent(input: unknown, current: unknown): AliasDescriptionIntent {
  const checked = parseAliasDescriptionInput(input);
  const target = parseAliasTarget(current, 'current');
  if (target.name !== checked.alias_name) {
    throw new AdapterInputError('TARGET_MISMATCH', 'current', 'is not the alias named by "alias_name"');
  }
  if (target.descr === checked.description) {
    throw new AdapterInputError('NO_OP', 'description', 'equals the current description (nothing to change)');
  }
  return Object.freeze({
    operation: ALIAS_DESCRIPTION_OPERATION,
    raw_target_hint: Object.freeze({ alias_name: checked.alias_name }),
    new_description: checked.description,
  });
}

/** digest(INTENT, normalized intent) — what the contract's intent_digest binds. */
export function aliasDescriptionIntentDigest(intent: unknown): string {
  return digest(DigestPurpose.INTENT, parseAliasDescriptionIntent(intent));
}
