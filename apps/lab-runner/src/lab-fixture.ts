import type { ScenarioId } from './scenario-definition.js';

/** The candidate alias every scenario changes (a synthetic LAB_* alias; docs/DESIGN.md §7) and its siblings. */
export const CANDIDATE_ALIAS = 'LAB_CANDIDATE';
export const SIBLING_ALIASES = Object.freeze(['LAB_SIBLING_HOSTS', 'LAB_SIBLING_PORTS'] as const);

/** The original description A (the simulator's start data). Never printed or reported. */
export const DESCRIPTION_A = 'lab candidate: original description A (sentinel 7c1e)';

/**
 * The replacement descriptions B (the subject's change) and C (the orchestration's conflicting change),
 * constants keyed by scenario id (docs/DESIGN.md §7: never parameters). Never printed or reported.
 */
export const REPLACEMENTS: Readonly<Record<ScenarioId, { readonly b: string; readonly c: string }>> = Object.freeze({
  ordinary: Object.freeze({ b: 'lab ordinary: replacement B (sentinel 41aa)', c: 'lab ordinary: conflict C (sentinel 41ab)' }),
  'd1-stale-before-forward': Object.freeze({ b: 'lab d1: replacement B (sentinel 52ba)', c: 'lab d1: conflict C (sentinel 52bb)' }),
  'd3-conflict-after-verified': Object.freeze({ b: 'lab d3: replacement B (sentinel 63ca)', c: 'lab d3: conflict C (sentinel 63cb)' }),
  'e-forward-response-lost': Object.freeze({
    b: 'lab e-forward: replacement B (sentinel 74da)',
    c: 'lab e-forward: conflict C (sentinel 74db)',
  }),
  'e-rollback-response-lost': Object.freeze({
    b: 'lab e-rollback: replacement B (sentinel 85ea)',
    c: 'lab e-rollback: conflict C (sentinel 85eb)',
  }),
  'g-restart-executing': Object.freeze({
    b: 'lab g-executing: replacement B (sentinel 96fa)',
    c: 'lab g-executing: conflict C (sentinel 96fb)',
  }),
  'g-restart-after-verified': Object.freeze({
    b: 'lab g-verified: replacement B (sentinel a70a)',
    c: 'lab g-verified: conflict C (sentinel a70b)',
  }),
  'g-restart-rolling-back': Object.freeze({
    b: 'lab g-rolling-back: replacement B (sentinel b81a)',
    c: 'lab g-rolling-back: conflict C (sentinel b81b)',
  }),
  // The entries scenarios change entries, not the description; C is the foreign description change that
  // entries-foreign-pending leaves pending (and takes back), B is never written.
  'entries-ordinary': Object.freeze({ b: 'lab entries: unused B (sentinel c93a)', c: 'lab entries: unused C (sentinel c93b)' }),
  'entries-stale-before-forward': Object.freeze({
    b: 'lab entries-stale: unused B (sentinel d04a)',
    c: 'lab entries-stale: unused C (sentinel d04b)',
  }),
  'entries-foreign-pending': Object.freeze({
    b: 'lab entries-pending: unused B (sentinel e15a)',
    c: 'lab entries-pending: foreign C (sentinel e15b)',
  }),
  'entries-forward-response-lost': Object.freeze({
    b: 'lab entries-lost: unused B (sentinel f26a)',
    c: 'lab entries-lost: unused C (sentinel f26b)',
  }),
  'entries-table-stale': Object.freeze({
    b: 'lab entries-table: unused B (sentinel 037a)',
    c: 'lab entries-table: unused C (sentinel 037b)',
  }),
  'entries-restart-executing': Object.freeze({
    b: 'lab entries-restart: unused B (sentinel 148a)',
    c: 'lab entries-restart: unused C (sentinel 148b)',
  }),
  'entries-rollback-after-verified': Object.freeze({
    b: 'lab entries-rollback: unused B (sentinel 259a)',
    c: 'lab entries-rollback: unused C (sentinel 259b)',
  }),
});

/**
 * The entries scenarios' addresses (documentation ranges, RFC 5737), constants keyed by scenario id like B and C:
 * `block` is the subject's entry, `other` the one someone else adds (entries-stale-before-forward). Addresses are
 * not secret; the report still names them only through the change's digests and counts.
 */
export const BLOCKS: Readonly<Record<ScenarioId, { readonly block: string; readonly other: string } | null>> = Object.freeze({
  ordinary: null,
  'd1-stale-before-forward': null,
  'd3-conflict-after-verified': null,
  'e-forward-response-lost': null,
  'e-rollback-response-lost': null,
  'g-restart-executing': null,
  'g-restart-after-verified': null,
  'g-restart-rolling-back': null,
  'entries-ordinary': Object.freeze({ block: '203.0.113.71', other: '198.51.100.71' }),
  'entries-stale-before-forward': Object.freeze({ block: '203.0.113.72', other: '198.51.100.72' }),
  'entries-foreign-pending': Object.freeze({ block: '203.0.113.73', other: '198.51.100.73' }),
  'entries-forward-response-lost': Object.freeze({ block: '203.0.113.74', other: '198.51.100.74' }),
  'entries-table-stale': Object.freeze({ block: '203.0.113.75', other: '198.51.100.75' }),
  'entries-restart-executing': Object.freeze({ block: '203.0.113.76', other: '198.51.100.76' }),
  'entries-rollback-after-verified': Object.freeze({ block: '203.0.113.77', other: '198.51.100.77' }),
});
/** The detail every lab entry is written with (a fixed text: pfrest would otherwise pad a missing one with a date). */
export const BLOCK_DETAIL = 'lab block';

export const ALIASES_PATH = '/api/v2/firewall/aliases';
export const ALIAS_PATH = '/api/v2/firewall/alias';
export const RULES_PATH = '/api/v2/firewall/rules';
/** pf's tables as pfrest reads them (the entries scenarios compare the candidate's before and after). */
export const TABLES_PATH = '/api/v2/diagnostics/tables';
export const STATUS_PATH = '/api/v2/status/system';
/** What is pending (not yet applied) on the appliance: preflight requires nothing. */
export const APPLY_PATH = '/api/v2/firewall/apply';
export const RESTAPI_VERSION_PATH = '/api/v2/system/restapi/version';
/** The simulated appliance's id (the appliance binding reads it fresh). */
export const LAB_NETGATE_ID = 'a1b2c3d4e5f6a7b8';

/** The simulator's start data for every scenario: the candidate between its two siblings (ids 0..2). */
export function simulatorData(): Record<string, unknown> {
  return {
    [ALIASES_PATH]: [
      {
        name: SIBLING_ALIASES[0],
        type: 'host',
        descr: 'lab sibling hosts (sentinel c92a)',
        address: ['10.90.0.1', '10.90.0.2'],
        detail: ['one', 'two'],
      },
      { name: CANDIDATE_ALIAS, type: 'host', descr: DESCRIPTION_A, address: ['10.91.0.1'], detail: ['candidate'] },
      {
        name: SIBLING_ALIASES[1],
        type: 'port',
        descr: 'lab sibling ports (sentinel c92b)',
        address: ['8080', '8443'],
        detail: ['alt-http', 'alt-https'],
      },
    ],
    [STATUS_PATH]: { platform: 'pfSense lab simulator', netgate_id: LAB_NETGATE_ID },
    // One enabled block rule uses the candidate, so pf has a table for it: blocking an address is an entry
    // added to that table (the entries capability refuses an alias no enabled rule uses).
    [RULES_PATH]: [
      {
        tracker: 1_770_000_001,
        type: 'block',
        interface: ['WAN'],
        ipprotocol: 'inet',
        direction: 'in',
        source: CANDIDATE_ALIAS,
        destination: 'any',
        disabled: false,
        descr: 'lab: drop the candidate',
      },
    ],
    [TABLES_PATH]: [{ name: CANDIDATE_ALIAS, entries: ['10.91.0.1'] }],
  };
}

/**
 * The lab's own fixed rate limits. The product defaults (one PREPARED contract per target, a 60 s cooldown
 * after an outcome) would refuse D1's orchestration contract on a target whose subject is PREPARED, and make
 * every scenario wait a minute between its contracts. These allow a handful of contracts per target at once
 * and no cooldown; in-flight stays 1 (one executor call at a time), as in the product.
 */
export const LAB_RATE_LIMITS = Object.freeze({
  maxGlobalInFlight: 1,
  maxInFlightPerCapability: 1,
  maxOutstandingPreparedPerTarget: 4,
  targetCooldownMs: 0,
  reconciliationLockoutThreshold: 3,
  windowMs: 3_600_000,
  maxPreparesPerTargetPerWindow: 20,
  maxPreparesPerCapabilityPerWindow: 20,
});

/** The TLS mode of the simulator's loopback transport (part of the appliance binding). */
export const LAB_TLS_MODE = 'http-loopback';
