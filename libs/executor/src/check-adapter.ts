import type { CapabilityAdapter } from '@pfsense-mcp/adapters';
import { isCapability, isEndpointSymbol, isHttpMethod } from '@pfsense-mcp/policy';
import type { Capability, HttpMethod } from '@pfsense-mcp/policy';

/** Any capability adapter, as the executor sees it (type parameters erased: it trusts no adapter type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCapabilityAdapter = CapabilityAdapter<any, any, any, any, any>;

const DESCRIPTOR_FIELDS = ['endpointSymbol', 'httpMethod', 'capability', 'semanticsVersion', 'rollbackPlanVersion'] as const;
const METHODS = [
  'readTarget',
  'naturalIdentity',
  'identityOfTarget',
  'identityDigest',
  'fingerprint',
  'transportLocator',
  'snapshotOf',
  'resolveTransportTarget',
  'parseIntent',
  'intentDigest',
  'snapshotDigest',
  'buildRequest',
  'isRequestModel',
  'parseResponse',
  'isSemanticallyVerified',
  'buildRollbackRequest',
  'isRollbackVerified',
] as const;

type Method = (typeof METHODS)[number];
type Fn = (...args: never[]) => unknown;

/**
 * The adapter as one executor call uses it: descriptor values read once, functions captured once. An
 * adapter must be a frozen object whose descriptors are plain data properties (no getters) and whose
 * methods are own functions — so nothing it returns later can differ from what was checked here.
 */
export interface CheckedAdapter {
  readonly capability: Capability;
  readonly endpointSymbol: string;
  readonly httpMethod: HttpMethod;
  readonly semanticsVersion: string;
  readonly rollbackPlanVersion: string;
  readonly fn: Readonly<Record<Method, Fn>>;
}

const TOKEN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$/;

/** Returns the checked adapter, or null when `adapter` is not a well-formed sealed adapter object. */
export function checkAdapter(adapter: unknown): CheckedAdapter | null {
  if (adapter === null || typeof adapter !== 'object' || Array.isArray(adapter) || !Object.isFrozen(adapter)) return null;
  const values: Record<string, unknown> = {};
  for (const key of DESCRIPTOR_FIELDS) {
    const d = Object.getOwnPropertyDescriptor(adapter, key);
    if (d === undefined || !('value' in d) || typeof d.value !== 'string') return null;
    values[key] = d.value;
  }
  const fn: Partial<Record<Method, Fn>> = {};
  for (const key of METHODS) {
    const d = Object.getOwnPropertyDescriptor(adapter, key);
    if (d === undefined || !('value' in d) || typeof d.value !== 'function') return null;
    fn[key] = d.value as Fn;
  }
  if (!isCapability(values.capability) || !isEndpointSymbol(values.endpointSymbol) || !isHttpMethod(values.httpMethod)) return null;
  if (!TOKEN.test(values.semanticsVersion as string) || !TOKEN.test(values.rollbackPlanVersion as string)) return null;
  return Object.freeze({
    capability: values.capability,
    endpointSymbol: values.endpointSymbol,
    httpMethod: values.httpMethod,
    semanticsVersion: values.semanticsVersion as string,
    rollbackPlanVersion: values.rollbackPlanVersion as string,
    fn: Object.freeze(fn as Record<Method, Fn>),
  });
}
