// The signed execution intent has one builder: the pending request / freshness path (from a read of the alias)
// and the resume path (from a contract's stored digests) must produce the same bytes, or a resume would be
// refused as another change (docs/DESIGN.md §6).
import { describe, expect, it } from 'vitest';
import { AliasDescriptionAdapter, parseAliasTarget } from '@pfsense-mcp/adapters';
import { executionIntentDigest } from '@pfsense-mcp/authorization';
import { DigestPurpose, canonicalBytes, digest } from '@pfsense-mcp/canonical';
import { attemptStepId, operationIdOf, prepareExecutionIntent } from '../src/index.js';
import { buildExecutionIntent } from '../src/execution-intent.js';

const A = AliasDescriptionAdapter;
const prepareAliasExecutionIntent = (t: unknown, i: unknown, binding: string) => prepareExecutionIntent(A, t, i, binding);

const BINDING = 'b'.repeat(64);
const target = parseAliasTarget({
  id: 3,
  name: 'web_servers',
  type: 'host',
  descr: 'old',
  address: ['10.0.0.1', '10.0.0.2'],
  detail: ['a', 'b'],
});
const intent = { operation: 'set_firewall_alias_description_v1', raw_target_hint: { alias_name: 'web_servers' }, new_description: 'new' };

/** What the resume path has: the contract's bindings, which the store keeps instead of the target. */
function fromContractFields(t: typeof target, bindingDigest: string) {
  return buildExecutionIntent(A, {
    intent: A.intentOfInput({ alias_name: 'web_servers', description: 'new' }),
    preconditionFingerprint: AliasDescriptionAdapter.fingerprint(t),
    rollbackSnapshotDigest: AliasDescriptionAdapter.snapshotDigest(AliasDescriptionAdapter.snapshotOf(t)),
    applianceBindingDigest: bindingDigest,
  });
}

describe('the one execution-intent builder', () => {
  it('the request, the freshness rebuild and the resume from a contract produce identical bytes', () => {
    const requested = prepareAliasExecutionIntent(target, intent, BINDING);
    const fresh = prepareAliasExecutionIntent(parseAliasTarget({ ...target }), intent, BINDING);
    const resumed = fromContractFields(target, BINDING);
    const bytes = Buffer.from(canonicalBytes(requested.executionIntent)).toString('hex');
    expect(Buffer.from(canonicalBytes(fresh.executionIntent)).toString('hex')).toBe(bytes);
    expect(Buffer.from(canonicalBytes(resumed)).toString('hex')).toBe(bytes);
    expect(executionIntentDigest(resumed)).toBe(requested.executionIntentDigest);
    expect(requested.executionIntent.payload.method).toBe(AliasDescriptionAdapter.httpMethod);
  });

  it('a changed target or another appliance is another intent', () => {
    const requested = prepareAliasExecutionIntent(target, intent, BINDING);
    const changed = parseAliasTarget({ ...target, address: ['10.0.0.1'], detail: ['a'] });
    expect(executionIntentDigest(fromContractFields(changed, BINDING))).not.toBe(requested.executionIntentDigest);
    expect(executionIntentDigest(fromContractFields(target, 'c'.repeat(64)))).not.toBe(requested.executionIntentDigest);
  });

  it('the review pre-state is a frozen copy with its own arrays', () => {
    const { review } = prepareAliasExecutionIntent(target, intent, BINDING);
    expect(Object.isFrozen(review.pre_state)).toBe(true);
    expect(review.pre_state).toEqual({
      name: 'web_servers',
      type: 'host',
      descr: 'old',
      address: ['10.0.0.1', '10.0.0.2'],
      detail: ['a', 'b'],
    });
    expect(review.pre_state.address).not.toBe(target.address);
  });
});

describe('the operation id and step id (the same bytes as before the driver served capabilities)', () => {
  it('derives the id from the binding digest and the wire input, exactly as the alias-specific formula did', () => {
    const legacy = `op-${digest(DigestPurpose.INTENT, {
      kind: 'pfsense-mcp/operation',
      version: 1,
      payload: { appliance_binding_digest: BINDING, alias_name: 'web_servers', description: 'new' },
    })}`;
    expect(operationIdOf(BINDING, A.parseInput({ alias_name: 'web_servers', description: 'new' }))).toBe(legacy);
    expect(operationIdOf(BINDING, A.inputOfIntent(A.parseIntent(intent)))).toBe(legacy);
    expect(attemptStepId(A.stepPrefix, 2)).toBe('alias-description.attempt-2');
  });
});
