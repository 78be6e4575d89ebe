import type { CleanupTask } from "@tessera/core";
import type { RefreshTokenStore } from "./refresh-token-store.js";

/**
 * The cleanup of refresh tokens as a {@link CleanupTask}: `expired-refresh-tokens` deletes the
 * families ended at the run's time (expired, or revoked a day before) with their tokens, and
 * forgets the sealed successors whose grace is over. Run it outside requests, at start and then
 * periodically, beside the other cleanups.
 */
export function refreshTokenCleanups(store: RefreshTokenStore): CleanupTask[] {
  return [
    {
      name: "expired-refresh-tokens",
      run: async (now) => ({ removed: await store.deleteExpired(now) }),
    },
  ];
}
