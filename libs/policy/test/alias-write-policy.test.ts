import { describe, expect, it } from 'vitest';
import { WriteEndpoints } from '@pfsense-mcp/write-client';
import {
  ALIAS_ENTRIES_WRITE_POLICY_ENTRY,
  ALIAS_WRITE_POLICY,
  ALIAS_WRITE_POLICY_ENTRY,
  Capability,
  HTTP_METHODS,
  MutationPolicy,
} from '../src/index.js';

describe('ALIAS_WRITE_POLICY', () => {
  it('allows exactly the alias PATCH under ALIAS_WRITE, the method write-client sends it with', () => {
    expect(ALIAS_WRITE_POLICY_ENTRY).toEqual({
      capability: Capability.ALIAS_WRITE,
      endpointSymbol: 'FIREWALL_ALIAS_PATCH',
      method: 'PATCH',
    });
    expect(Object.isFrozen(ALIAS_WRITE_POLICY_ENTRY)).toBe(true);
    expect(WriteEndpoints.FIREWALL_ALIAS_PATCH.method).toBe(ALIAS_WRITE_POLICY_ENTRY.method);
    expect(ALIAS_WRITE_POLICY.size).toBe(1);
    for (const m of HTTP_METHODS) {
      expect(ALIAS_WRITE_POLICY.allows(Capability.ALIAS_WRITE, 'FIREWALL_ALIAS_PATCH', m)).toBe(m === 'PATCH');
    }
    expect(ALIAS_WRITE_POLICY.allows(Capability.ALIAS_WRITE, 'FIREWALL_ALIAS_PUT', 'PATCH')).toBe(false);
  });
});

describe('ALIAS_ENTRIES_WRITE_POLICY_ENTRY', () => {
  it('names the entries PATCH under ALIAS_ENTRIES_WRITE, with the method write-client sends it with', () => {
    expect(ALIAS_ENTRIES_WRITE_POLICY_ENTRY).toEqual({
      capability: Capability.ALIAS_ENTRIES_WRITE,
      endpointSymbol: 'FIREWALL_ALIAS_ENTRIES_PATCH',
      method: 'PATCH',
    });
    expect(Object.isFrozen(ALIAS_ENTRIES_WRITE_POLICY_ENTRY)).toBe(true);
    expect(WriteEndpoints.FIREWALL_ALIAS_ENTRIES_PATCH.method).toBe(ALIAS_ENTRIES_WRITE_POLICY_ENTRY.method);
    const both = MutationPolicy.of([ALIAS_WRITE_POLICY_ENTRY, ALIAS_ENTRIES_WRITE_POLICY_ENTRY]);
    expect(both.allows(Capability.ALIAS_ENTRIES_WRITE, 'FIREWALL_ALIAS_ENTRIES_PATCH', 'PATCH')).toBe(true);
    // Neither capability may use the other's endpoint: the pairing is the allow-list.
    expect(both.allows(Capability.ALIAS_ENTRIES_WRITE, 'FIREWALL_ALIAS_PATCH', 'PATCH')).toBe(false);
    expect(both.allows(Capability.ALIAS_WRITE, 'FIREWALL_ALIAS_ENTRIES_PATCH', 'PATCH')).toBe(false);
    // The description policy is unchanged: it does not allow the entries write.
    expect(ALIAS_WRITE_POLICY.allows(Capability.ALIAS_ENTRIES_WRITE, 'FIREWALL_ALIAS_ENTRIES_PATCH', 'PATCH')).toBe(false);
  });
});
