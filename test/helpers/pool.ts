/**
 * Runs `work` on every item, at most `limit` at a time (independent asks to a server, without
 * flooding it); resolves when all are done, or rejects with the first failure.
 */
export async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
