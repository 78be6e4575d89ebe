/**
 * Runs `task` for every item, at most `limit` at a time, in order of the list; resolves once
 * all have settled, and then rejects with the first error if any task threw (the others still
 * ran: one broken item must not strand the rest of a claimed batch).
 */
export async function forEachBounded<Item>(
  items: readonly Item[],
  limit: number,
  task: (item: Item) => Promise<void>,
): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as Item;
      try {
        await task(item);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}
