import { describe, expect, it } from 'vitest';
import { nearestName } from '../src/index.js';

describe('nearestName', () => {
  it('names the closest known name, the first of equals in the given order', () => {
    expect(nearestName('descr', ['description', 'descr_x', 'type'])).toBe('descr_x');
    expect(nearestName('ab', ['ax', 'xb'])).toBe('ax');
    expect(nearestName('anything', [])).toBeNull();
  });

  it('counts a swap of two neighbours as one edit', () => {
    expect(nearestName('pfsense_get_firewall_rlues', ['pfsense_get_firewall_rules', 'pfsense_get_firewall_aliases'])).toBe(
      'pfsense_get_firewall_rules',
    );
  });

  it('with typoOnly, answers only a name within a third of the typed length', () => {
    expect(nearestName('pfsense_get_firewal_rules', ['pfsense_get_firewall_rules'], { typoOnly: true })).toBe('pfsense_get_firewall_rules');
    expect(nearestName('rules', ['pfsense_get_firewall_rules'], { typoOnly: true })).toBeNull();
    expect(nearestName('rules', ['pfsense_get_firewall_rules'])).toBe('pfsense_get_firewall_rules');
  });
});
