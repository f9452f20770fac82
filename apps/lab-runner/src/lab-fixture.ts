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
});

export const ALIASES_PATH = '/api/v2/firewall/aliases';
export const ALIAS_PATH = '/api/v2/firewall/alias';
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
