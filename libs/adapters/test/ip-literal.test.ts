import { describe, expect, it } from 'vitest';
import { entryKeyOf, formatIpLiteral, ipLiteralsOverlap, isNetworkAligned, parseIpLiteral } from '../src/index.js';
import type { IpLiteral } from '../src/index.js';

function ip(text: string): IpLiteral {
  const parsed = parseIpLiteral(text);
  expect(parsed, text).not.toBeNull();
  return parsed as IpLiteral;
}

describe('parseIpLiteral / formatIpLiteral', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['198.51.100.0/24', '198.51.100.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['::', '::'],
    ['::1', '::1'],
    ['1:0:1:0:1:0:1:0', '1:0:1:0:1:0:1:0'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
  ])('%s → %s', (text, canonical) => {
    expect(formatIpLiteral(ip(text))).toBe(canonical);
  });

  it.each([
    'example.com',
    '10.0.0.1-10.0.0.9',
    'BLOCKLIST',
    '010.0.0.1',
    '256.0.0.1',
    '10.0.0',
    '10.0.0.1/33',
    '10.0.0.1/08',
    '2001:db8::/129',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    ':1::',
    '',
    ' 10.0.0.1',
    '10.0.0.1/24/1',
  ])('refuses %j', (text) => {
    expect(parseIpLiteral(text)).toBeNull();
  });

  it('knows a network address from a host inside a prefix', () => {
    expect(isNetworkAligned(ip('10.0.0.0/8'))).toBe(true);
    expect(isNetworkAligned(ip('10.0.0.1/8'))).toBe(false);
    expect(isNetworkAligned(ip('2001:db8::1/64'))).toBe(false);
    expect(isNetworkAligned(ip('2001:db8::1'))).toBe(true);
  });
});

describe('entryKeyOf: one key for an entry and its pf table line', () => {
  it('drops a full-length prefix and respells IPv6, so alias and table compare', () => {
    expect(entryKeyOf('203.0.113.7/32')).toBe('203.0.113.7');
    expect(entryKeyOf('   203.0.113.7')).toBe('203.0.113.7');
    expect(entryKeyOf('2001:DB8:0::1/128')).toBe('2001:db8::1');
    expect(entryKeyOf('198.51.100.0/24')).toBe('198.51.100.0/24');
    expect(entryKeyOf('example.com')).toBeNull();
  });
});

describe('ipLiteralsOverlap', () => {
  it('is true when one contains the other, false across families or disjoint networks', () => {
    expect(ipLiteralsOverlap(ip('10.0.0.0/8'), ip('10.20.30.40'))).toBe(true);
    expect(ipLiteralsOverlap(ip('10.20.30.40'), ip('10.0.0.0/8'))).toBe(true);
    expect(ipLiteralsOverlap(ip('10.0.0.0/8'), ip('11.0.0.0/8'))).toBe(false);
    expect(ipLiteralsOverlap(ip('0.0.0.0/0'), ip('2001:db8::1'))).toBe(false);
    expect(ipLiteralsOverlap(ip('2001:db8::/32'), ip('2001:db8:1::/48'))).toBe(true);
  });
});
