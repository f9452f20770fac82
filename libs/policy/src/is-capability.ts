import { ReadOnlySet } from '@pfsense-mcp/foundation';
import { Capability } from './capability.js';

/** Every capability, sorted by name. */
export const CAPABILITIES: readonly Capability[] = Object.freeze(Object.values(Capability));

const CAPABILITY_SET: ReadonlySet<string> = new ReadOnlySet<string>(CAPABILITIES);

/** Exact, case-sensitive membership; inherited keys such as "toString" are not capabilities. */
export function isCapability(value: unknown): value is Capability {
  return typeof value === 'string' && CAPABILITY_SET.has(value);
}

export function assertCapability(value: unknown, name: string): Capability {
  if (!isCapability(value)) throw new TypeError(`${name} must be a Capability`);
  return value;
}
