import { DESCRIPTION_A, REPLACEMENTS, SIBLING_ALIASES, simulatorData, ALIASES_PATH } from './lab-fixture.js';

/**
 * Every value no output may contain: the run's secrets (lab private keys, API keys, store master keys, added
 * as they appear) and every description the lab knows (A, each scenario's B and C, the siblings'). A
 * terminal line or report file that contains one is replaced by a refusal and counted.
 */
export class SentinelGuard {
  readonly #sentinels = new Set<string>();
  #found = 0;

  constructor() {
    this.add(DESCRIPTION_A);
    for (const r of Object.values(REPLACEMENTS)) {
      this.add(r.b);
      this.add(r.c);
    }
    const aliases = simulatorData()[ALIASES_PATH] as { name: string; descr: string }[];
    for (const a of aliases) if ((SIBLING_ALIASES as readonly string[]).includes(a.name)) this.add(a.descr);
  }

  add(secret: string): void {
    if (typeof secret === 'string' && secret.length >= 8) this.#sentinels.add(secret);
  }

  get sentinels(): number {
    return this.#sentinels.size;
  }

  get found(): number {
    return this.#found;
  }

  /** The text, or null (counted) if it contains a sentinel. */
  check(text: string): string | null {
    for (const s of this.#sentinels) {
      if (text.includes(s)) {
        this.#found += 1;
        return null;
      }
    }
    return text;
  }
}
