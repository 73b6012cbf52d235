/**
 * A bounded number of requests at a time, for the writes of many rules (the grid's bulk edits, the
 * spreadsheet import).
 * @module
 */

/** Runs `task` over `items`, `limit` at a time; resolves with the results in order. */
export async function runLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
