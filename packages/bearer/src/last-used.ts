/** `last_used_at` is written at most this often: one hour, in milliseconds. */
export const LAST_USED_WRITE_INTERVAL_MS = 3_600_000;

/**
 * Records a key's use at `now` through `touch` when the `lastUsedAt` just read is null or at
 * least {@link LAST_USED_WRITE_INTERVAL_MS} old, so most requests write nothing. `touch` gets
 * `now` and the stale bound: the store's conditional UPDATE (`… WHERE last_used_at IS NULL OR
 * last_used_at <= staleAt`) still decides, so concurrent requests write at most once. For API
 * keys and any key of the same kind (an organization's).
 */
export async function touchWhenStale(
  lastUsedAt: number | null,
  now: number,
  touch: (usedAt: number, staleAt: number) => Promise<unknown>,
): Promise<void> {
  const staleAt = now - LAST_USED_WRITE_INTERVAL_MS;
  if (lastUsedAt === null || lastUsedAt <= staleAt) await touch(now, staleAt);
}
