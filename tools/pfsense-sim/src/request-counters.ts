// Request counters for the control endpoint: every request to a route counts, faulted or not.

/** Per route + method request counters ("PATCH /api/v2/firewall/alias" → n). */
export class RequestCounters {
  readonly #counts = new Map<string, number>();

  increment(route: string, method: string): void {
    const key = `${method} ${route}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  get(route: string, method: string): number {
    return this.#counts.get(`${method.toUpperCase()} ${route}`) ?? 0;
  }

  snapshot(): Readonly<Record<string, number>> {
    return Object.freeze(Object.fromEntries([...this.#counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1))));
  }

  reset(): void {
    this.#counts.clear();
  }
}
