// AuditedContracts folds authenticated, canonical audit bodies into each contract's latest audited state.
import { canonicalBytes } from '@pfsense-mcp/canonical';
import { describe, expect, it } from 'vitest';
import { AuditedContracts } from '../src/audit/audited-contracts.js';
import { AuditChainError } from '../src/store/contract-store-error.js';

const body = (fields: Record<string, string | number | null>) =>
  canonicalBytes({
    at: 1,
    authority_key_id: null,
    capability: 'ALIAS_WRITE',
    contract_id: 'c-1',
    endpoint_symbol: null,
    event: 'PREPARE',
    evidence_digest: null,
    from_state: 'PREPARING',
    http_method: null,
    intent_digest: null,
    kind: 'transition',
    operation_id: 'op-1',
    outcome_class: null,
    state_version: 2,
    target_identity_digest: null,
    to_state: 'PREPARED',
    ...fields,
  });

describe('AuditedContracts', () => {
  it('keeps the latest state version and state of each contract, in audit order', () => {
    const a = new AuditedContracts();
    a.add(1, 'c-1', body({ kind: 'create', state_version: 1, to_state: 'PREPARING' }));
    a.add(2, 'c-2', body({ contract_id: 'c-2', state_version: 1, to_state: 'PREPARING' }));
    a.add(3, 'c-1', body({ state_version: 12, to_state: 'ROLLED_BACK' }));
    expect(a.firstUntaken()).toBe('c-1');
    expect(a.take('c-1')).toEqual({ stateVersion: 12, state: 'ROLLED_BACK' });
    expect(a.take('c-1')).toBeUndefined();
    expect(a.firstUntaken()).toBe('c-2');
    expect(a.take('c-2')).toEqual({ stateVersion: 1, state: 'PREPARING' });
    expect(a.firstUntaken()).toBeNull();
  });

  it('skips refusal and restore-accepted rows, which change no contract', () => {
    const a = new AuditedContracts();
    a.add(1, 'c-1', body({ kind: 'refusal', state_version: null, to_state: null, from_state: null }));
    a.add(2, '', body({ kind: 'restore-accepted', contract_id: '', state_version: null, to_state: null, from_state: null }));
    expect(a.firstUntaken()).toBeNull();
  });

  it('is not fooled by a field value that spells a key or a kind', () => {
    const a = new AuditedContracts();
    a.add(1, 'c-1', body({ event: '"kind":"refusal"', operation_id: '"state_version":9', to_state: 'PREPARED' }));
    expect(a.take('c-1')).toEqual({ stateVersion: 2, state: 'PREPARED' });
  });

  it('reports a body without kind, state_version or to_state as a broken chain at that sequence', () => {
    const a = new AuditedContracts();
    for (const [sequence, bytes] of [
      [7, canonicalBytes({ state_version: 1, to_state: 'PREPARED' })],
      [8, body({ state_version: null })],
      [9, body({ to_state: null })],
    ] as const) {
      let error: unknown;
      try {
        a.add(sequence, 'c-1', bytes);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AuditChainError);
      expect((error as AuditChainError).firstBrokenSequence).toBe(sequence);
    }
  });
});
