/**
 * `work` applied to every item, at most `limit` at once, results in the items' order. A slow item holds one slot
 * only: the others keep going through the remaining slots (a fleet read: one hanging appliance never stalls the rest).
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('mapBounded: "limit" must be a positive integer');
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
