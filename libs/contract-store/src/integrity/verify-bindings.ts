import { assertObject } from '@pfsense-mcp/foundation';
import { BindingMismatchError } from '../store/contract-store-error.js';
import type { RecoveryContract } from '../model/recovery-contract.js';

/** The bindings an executor recomputes from the typed request and compares with the stored contract. */
export interface ContractBindings {
  readonly capability: string;
  readonly endpoint_symbol: string;
  readonly http_method: string;
  readonly target_identity_digest: string;
  /** The precondition fingerprint (pre-state). */
  readonly target_fingerprint: string;
  readonly intent_digest: string;
}

const BINDING_FIELDS = Object.freeze([
  'capability',
  'endpoint_symbol',
  'http_method',
  'target_identity_digest',
  'target_fingerprint',
  'intent_digest',
] as const);

/**
 * Exact comparison of every binding (no normalization, no case folding). Throws BindingMismatchError
 * naming the first differing field — the field name only, never either value.
 */
export function verifyBindings(contract: RecoveryContract, expected: ContractBindings): void {
  if (contract === null || typeof contract !== 'object') throw new TypeError('verifyBindings: "contract" must be a RecoveryContract');
  assertObject(expected, 'verifyBindings: "expected"');
  for (const field of BINDING_FIELDS) {
    const want = (expected as unknown as Record<string, unknown>)[field];
    if (typeof want !== 'string') throw new TypeError(`verifyBindings: "expected.${field}" must be a string`);
    if (contract[field] !== want) throw new BindingMismatchError(field);
  }
}
