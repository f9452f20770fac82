// Alias-entries pending requests as the server writes them (test-only): the alias with every rule that uses it,
// the change, and the execution intent whose facts the signer recomputes from them.
import {
  ALIAS_ENTRIES_OPERATION,
  ALIAS_ENTRIES_ROLLBACK_PLAN_VERSION,
  ALIAS_ENTRIES_SEMANTICS_VERSION,
  aliasEntriesFingerprint,
  aliasEntriesIntentDigest,
  aliasEntriesSnapshotDigest,
} from '@pfsense-mcp/adapters';
import type { AliasEntriesState, AliasRuleUse } from '@pfsense-mcp/adapters';
import {
  applianceBindingDigest,
  createPendingAuthorizationRequest,
  createPendingConfirmationRequest,
  createPendingReconciliationRequest,
  createPendingReleaseRequest,
  createPendingRollbackRequest,
  createPreparedExecutionIntentV1,
} from '@pfsense-mcp/authorization';
import type { PfTableState, SigningKey } from '@pfsense-mcp/authorization';
import { appliance } from './harness.js';

const HOUR = 3_600_000;

export function ruleUse(i: number, o: Partial<AliasRuleUse> = {}): AliasRuleUse {
  return {
    tracker: String(1000 + i),
    action: 'block',
    interface: ['wan'],
    direction: 'in',
    disabled: false,
    descr: `Block list ${i}`,
    ...o,
  };
}

/** A host alias of two entries used by `rules` filter rules (the first a pass rule unless given). */
export function blocklist(
  usage: readonly AliasRuleUse[] = [ruleUse(0, { action: 'pass', interface: ['lan', 'opt1'], descr: 'Allow partners' }), ruleUse(1)],
): AliasEntriesState {
  return {
    name: 'BLOCKLIST',
    type: 'host',
    descr: 'Blocked hosts',
    address: ['198.51.100.9', '192.0.2.1'],
    detail: ['scanner', 'old abuse'],
    usage,
  };
}

export interface EntriesChange {
  readonly add: readonly { readonly address: string; readonly detail: string }[];
  readonly remove: readonly string[];
}

export const BLOCK_AND_UNBLOCK: EntriesChange = { add: [{ address: '203.0.113.7', detail: 'ssh brute force' }], remove: ['198.51.100.9'] };

function intentOf(pre: AliasEntriesState, change: EntriesChange) {
  return { operation: ALIAS_ENTRIES_OPERATION, raw_target_hint: { alias_name: pre.name }, add: change.add, remove: change.remove };
}

export function entriesIntent(pre: AliasEntriesState, change: EntriesChange) {
  return createPreparedExecutionIntentV1({
    capability: 'ALIAS_ENTRIES_WRITE',
    endpoint_symbol: 'FIREWALL_ALIAS_ENTRIES_PATCH',
    method: 'PATCH',
    adapter_semantics_version: ALIAS_ENTRIES_SEMANTICS_VERSION,
    natural_target: { alias_name: pre.name },
    precondition_fingerprint: aliasEntriesFingerprint(pre),
    normalized_intent: intentOf(pre, change),
    rollback_snapshot_digest: aliasEntriesSnapshotDigest(pre),
    rollback_plan_version: ALIAS_ENTRIES_ROLLBACK_PLAN_VERSION,
    appliance_binding_digest: applianceBindingDigest(appliance),
  });
}

/**
 * An entries authorization request. `shown` is the pre-state the review carries (by default the one the intent
 * was computed from): another one is a server-signed request whose review does not match its own intent.
 */
export function entriesAuthorizationRequest(
  server: SigningKey,
  o: { pre?: AliasEntriesState; shown?: AliasEntriesState; change?: EntriesChange; operationId?: string } = {},
) {
  const pre = o.pre ?? blocklist();
  const change = o.change ?? BLOCK_AND_UNBLOCK;
  const now = Date.now();
  return createPendingAuthorizationRequest(
    {
      operationId: o.operationId ?? 'op-entries-1',
      stepId: 'alias-entries',
      riskClass: 'medium',
      executionIntent: entriesIntent(pre, change),
      appliance,
      review: { pre_state: o.shown ?? pre, add: change.add, remove: change.remove },
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}

export function entriesConfirmationRequest(server: SigningKey, contractId = 'contract-entries-1') {
  const pre = blocklist();
  const intent = entriesIntent(pre, BLOCK_AND_UNBLOCK);
  const now = Date.now();
  return createPendingConfirmationRequest(
    {
      contractId,
      operationId: 'op-entries-1',
      intentDigest: aliasEntriesIntentDigest(intent.payload.normalized_intent),
      targetFingerprint: intent.payload.precondition_fingerprint,
      executionIntent: intent,
      appliance,
      review: { pre_state: pre, ...BLOCK_AND_UNBLOCK },
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}

function contractFacts(pre: AliasEntriesState) {
  return {
    appliance,
    targetFingerprint: aliasEntriesFingerprint(pre),
    intentDigest: aliasEntriesIntentDigest(intentOf(pre, BLOCK_AND_UNBLOCK)),
  };
}

/**
 * A reconciliation request whose observed alias holds `observed` (null: no single alias could be observed) and whose
 * pf table was observed as `pfTable` (by default the table holds exactly the observed entries).
 */
export function entriesReconciliationRequest(server: SigningKey, observed: AliasEntriesState | null, pfTable: PfTableState | null = null) {
  const pre = blocklist();
  const now = Date.now();
  return createPendingReconciliationRequest(
    {
      contractId: 'contract-entries-1',
      operationId: 'op-entries-1',
      stateVersion: 4,
      origin: 'EXECUTING',
      observedFingerprint: observed === null ? null : aliasEntriesFingerprint(observed),
      observedLocator: 3,
      observedState: observed,
      review: { pre_state: pre, ...BLOCK_AND_UNBLOCK },
      configHistory: null,
      observedPfTable:
        pfTable ??
        (observed === null
          ? { status: 'UNREADABLE', entry_count: null, missing_count: null, extra_count: null, missing: [], extra: [] }
          : { status: 'READ', entry_count: observed.address.length, missing_count: 0, extra_count: 0, missing: [], extra: [] }),
      ...contractFacts(pre),
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}

export function entriesReleaseRequest(server: SigningKey) {
  const pre = blocklist();
  const now = Date.now();
  return createPendingReleaseRequest(
    {
      contractId: 'contract-entries-1',
      operationId: 'op-entries-1',
      stateVersion: 7,
      review: { pre_state: pre, ...BLOCK_AND_UNBLOCK },
      ...contractFacts(pre),
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}

/** The alias as BLOCK_AND_UNBLOCK left it (verified): 198.51.100.9 removed, 203.0.113.7 added. */
export function blocklistAfter(): AliasEntriesState {
  return { ...blocklist(), address: ['192.0.2.1', '203.0.113.7'], detail: ['old abuse', 'ssh brute force'] };
}

/** The rollback request of the verified BLOCK_AND_UNBLOCK; `verified` is the sealed fingerprint it carries. */
export function entriesRollbackRequest(server: SigningKey, verified = aliasEntriesFingerprint(blocklistAfter())) {
  const pre = blocklist();
  const now = Date.now();
  return createPendingRollbackRequest(
    {
      contractId: 'contract-entries-1',
      operationId: 'op-entries-1',
      stateVersion: 5,
      verifiedTargetFingerprint: verified,
      review: { pre_state: pre, ...BLOCK_AND_UNBLOCK },
      ...contractFacts(pre),
      issuedAt: now,
      expiresAt: now + HOUR,
    },
    server,
  );
}
