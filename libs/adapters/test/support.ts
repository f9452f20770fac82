import type { AliasTarget, TargetReader } from '../src/index.js';

export const LAN: AliasTarget = {
  id: 0,
  name: 'LAN_SERVERS',
  type: 'host',
  descr: 'Servers',
  address: ['10.0.0.1', '10.0.0.2'],
  detail: ['a', 'b'],
};
export const WEB: AliasTarget = {
  id: 1,
  name: 'WEB_PORTS',
  type: 'port',
  descr: 'HTTP and HTTPS',
  address: ['80', '443'],
  detail: ['http', 'https'],
};
export const OFFICE: AliasTarget = { id: 2, name: 'Office_Nets', type: 'network', descr: '', address: ['10.1.0.0/24'], detail: ['LAN'] };
export const ALIASES: readonly AliasTarget[] = Object.freeze([LAN, WEB, OFFICE]);

/** An alias-shaped test object that may deliberately break the AliasTarget type. */
export function as(value: unknown): AliasTarget {
  return value as AliasTarget;
}

/** A reader over fixed items that records every path it was asked for. */
export function fakeReader(items: readonly unknown[]): TargetReader & { readonly paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    readAllPages: async (path: string) => {
      paths.push(path);
      return structuredClone(items) as readonly unknown[];
    },
  };
}

export function intentFor(aliasName: string, description: string) {
  return { operation: 'set_firewall_alias_description_v1', raw_target_hint: { alias_name: aliasName }, new_description: description };
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}
