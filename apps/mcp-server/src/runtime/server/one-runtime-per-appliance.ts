import type { WriteFacade } from '@pfsense-mcp/coordinator';
import { ToolCallError, ToolErrorCode } from '../../tools/tool-error-code.js';

/** The code pfsense_list_appliances gives two inventory entries found to be one appliance. */
export const SAME_APPLIANCE = 'SAME_APPLIANCE';

/**
 * Two inventory entries that are one appliance (two URLs, one pfSense) would give it two stores, two reservations
 * and two rate windows — the single-writer guarantees gone (docs/DESIGN.md §8). Each write appliance's own id
 * (WriteRuntime.readApplianceId) is read when the server starts, in the background, and again before each change
 * until it is known; two write appliances reporting the same id both take no write from then on. Which one was
 * first is not guessed: both are refused, and the operator fixes the inventory.
 */
export class OneRuntimePerAppliance {
  readonly #ids = new Map<string, string>();
  readonly #refused = new Set<string>();
  readonly #onRefused: (name: string) => void;

  constructor(onRefused: (name: string) => void) {
    this.#onRefused = onRefused;
  }

  /** Reads `name`'s id once known, and refuses it (and the other entry) when another write appliance has it. */
  async admit(name: string, readId: () => Promise<string>): Promise<void> {
    if (!this.#ids.has(name) && !this.#refused.has(name)) {
      // A failed read says nothing about identity; the change's own binding read fails the same way.
      const id = await readId().catch(() => null);
      if (id !== null && !this.#ids.has(name)) {
        // One synchronous step from the check to the record: two first calls cannot both pass.
        for (const [other, otherId] of this.#ids) if (otherId === id) this.#refuse(other);
        if ([...this.#ids.values()].includes(id) || this.#refused.has(name)) this.#refuse(name);
        this.#ids.set(name, id);
      }
    }
    if (this.#refused.has(name)) {
      throw new ToolCallError(ToolErrorCode.INVALID_INPUT, {
        detail: `appliance: writes are not enabled on ${name} (${SAME_APPLIANCE}: another inventory entry is the same appliance)`,
      });
    }
  }

  /** The facade whose every change is admitted first; the operations view and counts read the local store only. */
  guard(name: string, facade: WriteFacade, readId: () => Promise<string>): WriteFacade {
    return Object.freeze({
      requestChange: async (capability: string, input: unknown) => {
        await this.admit(name, readId);
        return facade.requestChange(capability, input);
      },
      listWriteOperations: (query: Parameters<WriteFacade['listWriteOperations']>[0]) => facade.listWriteOperations(query),
      artifactCounts: () => facade.artifactCounts(),
    });
  }

  #refuse(name: string): void {
    if (this.#refused.has(name)) return;
    this.#refused.add(name);
    this.#onRefused(name);
  }
}
