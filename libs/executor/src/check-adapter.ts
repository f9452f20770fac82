import type { CapabilityAdapter, TargetReader } from '@pfsense-mcp/adapters';
import { isCapability, isEndpointSymbol, isHttpMethod } from '@pfsense-mcp/policy';
import type { Capability, HttpMethod } from '@pfsense-mcp/policy';

/** Any capability adapter, as the executor sees it (type parameters erased: it trusts no adapter type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCapabilityAdapter = CapabilityAdapter<any, any, any, any, any>;

const DESCRIPTOR_FIELDS = ['endpointSymbol', 'httpMethod', 'capability', 'semanticsVersion', 'rollbackPlanVersion'] as const;

/**
 * An adapter's functions as the executor calls them: every argument is what the executor holds (`unknown`
 * until the adapter's own functions have checked it) and every result is `unknown` until the executor checks
 * it. Parameters are never narrower than `unknown`, so no call needs a cast.
 */
export interface AdapterFunctions {
  readonly readTarget: (reader: TargetReader, identity: unknown) => unknown;
  readonly naturalIdentity: (hint: unknown) => unknown;
  readonly identityOfTarget: (target: unknown) => unknown;
  readonly identityDigest: (identity: unknown) => unknown;
  readonly fingerprint: (target: unknown) => unknown;
  readonly transportLocator: (target: unknown) => unknown;
  readonly snapshotOf: (target: unknown) => unknown;
  readonly resolveTransportTarget: (target: unknown) => unknown;
  readonly parseIntent: (raw: unknown) => unknown;
  readonly intentDigest: (intent: unknown) => unknown;
  readonly snapshotDigest: (snapshot: unknown) => unknown;
  readonly buildRequest: (intent: unknown, resolved: unknown) => unknown;
  readonly isRequestModel: (request: unknown) => unknown;
  readonly parseResponse: (view: unknown, request: unknown) => unknown;
  readonly isSemanticallyVerified: (pre: unknown, post: unknown, intent: unknown) => unknown;
  readonly buildRollbackRequest: (snapshot: unknown, resolved: unknown) => unknown;
  readonly isRollbackVerified: (snapshot: unknown, post: unknown) => unknown;
}

type Method = keyof AdapterFunctions;
// Every function the executor calls, in check order; the mapped type makes a missing or extra name a type error.
const METHOD_NAMES: { readonly [K in Method]: true } = {
  readTarget: true,
  naturalIdentity: true,
  identityOfTarget: true,
  identityDigest: true,
  fingerprint: true,
  transportLocator: true,
  snapshotOf: true,
  resolveTransportTarget: true,
  parseIntent: true,
  intentDigest: true,
  snapshotDigest: true,
  buildRequest: true,
  isRequestModel: true,
  parseResponse: true,
  isSemanticallyVerified: true,
  buildRollbackRequest: true,
  isRollbackVerified: true,
};
const METHODS = Object.freeze(Object.keys(METHOD_NAMES) as Method[]);

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
  readonly fn: AdapterFunctions;
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
  const fn: Record<string, unknown> = {};
  for (const key of METHODS) {
    const d = Object.getOwnPropertyDescriptor(adapter, key);
    if (d === undefined || !('value' in d) || typeof d.value !== 'function') return null;
    fn[key] = d.value;
  }
  if (!isCapability(values.capability) || !isEndpointSymbol(values.endpointSymbol) || !isHttpMethod(values.httpMethod)) return null;
  if (!TOKEN.test(values.semanticsVersion as string) || !TOKEN.test(values.rollbackPlanVersion as string)) return null;
  return Object.freeze({
    capability: values.capability,
    endpointSymbol: values.endpointSymbol,
    httpMethod: values.httpMethod,
    semanticsVersion: values.semanticsVersion as string,
    rollbackPlanVersion: values.rollbackPlanVersion as string,
    // Every METHODS name was checked above to be an own function; their arguments are unknown to the adapter too.
    fn: Object.freeze(fn) as unknown as AdapterFunctions,
  });
}
