/**
 * The item lists a model's projection built (frozen, as `project` returns them), and which model's: each item is
 * then that model's output by construction — every allow-listed key, each value fitted to its kind or null — so
 * the output-schema twin (`conformsToOutputSchema`) need not walk them again before the reply (docs/DESIGN.md §8).
 * A prefix cut from such a list (truncateReadResult) is one too. Any other list is walked item by item.
 */
const projectedBy = new WeakMap<readonly unknown[], object>();

/** Notes that `items` (frozen) is what `model`'s projection made. */
export function markProjected(items: readonly unknown[], model: object): void {
  if (Object.isFrozen(items)) projectedBy.set(items, model);
}

/** Notes that `prefix` (frozen) holds the first items of `items`, in order. */
export function markProjectedPrefix(items: readonly unknown[], prefix: readonly unknown[]): void {
  const model = projectedBy.get(items);
  if (model !== undefined) markProjected(prefix, model);
}

/** True when `items` is a list `model`'s projection made (or a prefix of one). */
export function isProjectedBy(items: readonly unknown[], model: object): boolean {
  return projectedBy.get(items) === model;
}
