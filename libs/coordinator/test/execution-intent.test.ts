// The signed execution intent has one builder: the pending request / freshness path (from a read of the alias)
// and the resume path (from a contract's stored digests) must produce the same bytes, or a resume would be
// refused as another change (docs/DESIGN.md §6).
import { describe, expect, it } from 'vitest';
import { AliasDescriptionAdapter, parseAliasTarget } from '@pfsense-mcp/adapters';
import { executionIntentDigest } from '@pfsense-mcp/authorization';
import { canonicalBytes } from '@pfsense-mcp/canonical';
import { prepareAliasExecutionIntent } from '../src/index.js';
import { buildAliasExecutionIntent } from '../src/alias-execution-intent.js';

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
  return buildAliasExecutionIntent({
    aliasName: 'web_servers',
    newDescription: 'new',
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
