import type { Capability } from './capability.js';
import { assertRecord, HTTP_METHODS, isHttpMethod, MUTATING_HTTP_METHODS } from '@pfsense-mcp/foundation';
import type { HttpMethod } from '@pfsense-mcp/foundation';
import { isCapability } from './is-capability.js';
import { PolicyRefusalError } from './policy-refusal-error.js';
import { WRITE_CAPABILITIES } from './read-capabilities.js';

export interface MutationPolicyEntry {
  readonly capability: Capability;
  readonly endpointSymbol: string;
  readonly method: HttpMethod;
}

/** Endpoint symbols are identifiers chosen by write-client (e.g. FIREWALL_ALIAS_PATCH), never paths or URLs. */
const ENDPOINT_SYMBOL = /^[A-Za-z][A-Za-z0-9_]{0,127}$/;

export function isEndpointSymbol(value: unknown): value is string {
  return typeof value === 'string' && ENDPOINT_SYMBOL.test(value);
}

const ENTRY_KEYS = ['capability', 'endpointSymbol', 'method'];

function keyOf(capability: string, endpointSymbol: string, method: string): string {
  // The three parts cannot contain a space (validated), so the join is unambiguous.
  return `${capability} ${endpointSymbol} ${method}`;
}

function checkArgs(fn: string, capability: unknown, endpointSymbol: unknown, method: unknown): void {
  if (!isCapability(capability)) throw new TypeError(`MutationPolicy.${fn}: "capability" must be a Capability`);
  if (!isEndpointSymbol(endpointSymbol)) {
    throw new TypeError(`MutationPolicy.${fn}: "endpointSymbol" must match ${ENDPOINT_SYMBOL.source}`);
  }
  if (!isHttpMethod(method)) throw new TypeError(`MutationPolicy.${fn}: "method" must be one of ${HTTP_METHODS.join(', ')}`);
}

/**
 * The exact, immutable allow-list of mutations (docs/DESIGN.md §2, §4 step 2). No wildcards, no prefixes,
 * no case folding: a triple is allowed only if it was listed verbatim. The default is empty.
 */
export class MutationPolicy {
  readonly #keys: ReadonlySet<string>;
  readonly #entries: readonly MutationPolicyEntry[];

  private constructor(entries: readonly MutationPolicyEntry[]) {
    this.#entries = Object.freeze(entries.map((e) => Object.freeze({ ...e })));
    this.#keys = new Set(this.#entries.map((e) => keyOf(e.capability, e.endpointSymbol, e.method)));
    Object.freeze(this);
  }

  /** The default policy: refuses every mutation. */
  static empty(): MutationPolicy {
    return new MutationPolicy([]);
  }

  /**
   * Builds a policy from explicit entries. Refuses (TypeError naming the entry): a READ capability,
   * GET, an unknown capability or method, a malformed symbol, extra keys, and duplicates (a duplicate is
   * a configuration mistake, not a no-op).
   */
  static of(entries: readonly MutationPolicyEntry[]): MutationPolicy {
    if (!Array.isArray(entries)) throw new TypeError('MutationPolicy.of: "entries" must be an array');
    if (entries.length > 1024) throw new TypeError('MutationPolicy.of: "entries" must have at most 1024 items');
    const seen = new Set<string>();
    const copy: MutationPolicyEntry[] = [];
    entries.forEach((raw: unknown, i) => {
      const at = `MutationPolicy.of: "entries[${i}]`;
      assertRecord(raw, `${at}"`);
      const keys = Object.keys(raw);
      if (keys.length !== ENTRY_KEYS.length || !ENTRY_KEYS.every((k) => keys.includes(k))) {
        throw new TypeError(`${at}" must have exactly the keys ${ENTRY_KEYS.join(', ')}`);
      }
      const { capability, endpointSymbol, method } = raw as Record<string, unknown>;
      if (!isCapability(capability) || !WRITE_CAPABILITIES.has(capability)) {
        throw new TypeError(`${at}.capability" must be a write Capability`);
      }
      if (!isEndpointSymbol(endpointSymbol)) throw new TypeError(`${at}.endpointSymbol" must match ${ENDPOINT_SYMBOL.source}`);
      if (!isHttpMethod(method) || !MUTATING_HTTP_METHODS.includes(method)) {
        throw new TypeError(`${at}.method" must be one of ${MUTATING_HTTP_METHODS.join(', ')}`);
      }
      const key = keyOf(capability, endpointSymbol, method);
      if (seen.has(key)) throw new TypeError(`${at}" duplicates an earlier entry`);
      seen.add(key);
      copy.push({ capability, endpointSymbol, method });
    });
    return new MutationPolicy(copy);
  }

  /** True only for a triple listed verbatim. Arguments are validated (TypeError naming the argument). */
  allows(capability: Capability, endpointSymbol: string, method: HttpMethod): boolean {
    checkArgs('allows', capability, endpointSymbol, method);
    return this.#keys.has(keyOf(capability, endpointSymbol, method));
  }

  /** Returns normally only for a listed triple; throws PolicyRefusalError for every other well-formed one. */
  authorize(capability: Capability, endpointSymbol: string, method: HttpMethod): void {
    checkArgs('authorize', capability, endpointSymbol, method);
    if (!this.#keys.has(keyOf(capability, endpointSymbol, method))) {
      throw new PolicyRefusalError(capability, endpointSymbol, method);
    }
  }

  /** The listed entries (frozen copies), in the order given. */
  entries(): readonly MutationPolicyEntry[] {
    return this.#entries;
  }

  get size(): number {
    return this.#entries.length;
  }
}
