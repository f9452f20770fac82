import type { CapabilityAdapter } from '@pfsense-mcp/adapters';
import type { WriteReview, WriteState } from '@pfsense-mcp/authorization';

/**
 * A capability as the coordinator drives it: the adapters' CapabilityAdapter port (docs/DESIGN.md §4), with
 * its snapshot and review typed as the pending-request formats of libs/authorization carry them (the alias
 * state and review: the one format the signer shows today). Targets, identities and intents stay opaque here:
 * only the adapter's own functions look inside them.
 */
export type WriteCapability = CapabilityAdapter<unknown, unknown, unknown, WriteState, object, object, WriteReview>;

/**
 * The closed, frozen set of capabilities one composition root builds the write path with (docs/DESIGN.md §6):
 * an adapter per capability name, nothing added later. A capability not in it is refused before any read.
 */
export class CapabilityRegistry {
  readonly #byName: ReadonlyMap<string, WriteCapability>;

  private constructor(byName: ReadonlyMap<string, WriteCapability>) {
    this.#byName = byName;
    Object.freeze(this);
  }

  /** The registry of these adapters: each a frozen object, one per capability, at least one. */
  static of(adapters: readonly WriteCapability[]): CapabilityRegistry {
    if (!Array.isArray(adapters) || adapters.length === 0)
      throw new TypeError('CapabilityRegistry.of: "adapters" must be a non-empty array');
    const byName = new Map<string, WriteCapability>();
    for (const a of adapters) {
      if (a === null || typeof a !== 'object' || !Object.isFrozen(a))
        throw new TypeError('CapabilityRegistry.of: every adapter must be a frozen object');
      if (typeof a.capability !== 'string' || byName.has(a.capability)) {
        throw new TypeError('CapabilityRegistry.of: every adapter must name its own capability, once');
      }
      byName.set(a.capability, a);
    }
    return new CapabilityRegistry(byName);
  }

  /** The adapter of this capability, or null (unknown, or not a string). */
  get(capability: unknown): WriteCapability | null {
    return typeof capability === 'string' ? (this.#byName.get(capability) ?? null) : null;
  }

  /** The capability names, in registration order. */
  names(): readonly string[] {
    return Object.freeze([...this.#byName.keys()]);
  }
}
