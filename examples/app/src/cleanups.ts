import { type Clock, systemClock } from "@tessera/core";
import { SqlRateLimitStore } from "@tessera/ratelimit/sql";
import type { TrackedSessionStore } from "@tessera/session";
import { deleteExpiredTrackedSessions } from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";
import { deleteProcessedEvents } from "@tessera/webhooks";
import { SqlWebhookEventStore } from "@tessera/webhooks/sql";

const DAY_MS = 24 * 60 * 60 * 1000;

/** `WEBHOOK_RETENTION_DAYS` in milliseconds, or undefined when events are kept forever (0). */
export function webhookRetentionMs(config: { readonly webhookRetentionDays: number }) {
  return config.webhookRetentionDays * DAY_MS || undefined;
}

/** How often the cleanups run after the one at start: 10 minutes. */
export const CLEANUP_INTERVAL_MS = 600_000;

/**
 * What the app cleans up: expired device rows (when tracked sessions are on), ended windows,
 * and processed webhook events older than `webhookRetentionMs` (undefined keeps them forever).
 */
export interface CleanupTargets {
  readonly database: SqlDatabase;
  readonly trackedSessions: TrackedSessionStore | undefined;
  readonly webhookRetentionMs: number | undefined;
}

/**
 * One cleanup round: deletes expired tracked sessions, the counters of ended rate-limit windows
 * and old processed webhook events, each in batches of 1,000 rows with a yield between (the
 * stores' way), so requests keep being served meanwhile. Returns how many rows of each went.
 */
export async function runCleanups(
  targets: CleanupTargets,
  clock: Clock = systemClock,
): Promise<{ expiredSessions: number; endedRateLimitWindows: number; oldWebhookEvents: number }> {
  const expiredSessions = targets.trackedSessions
    ? await deleteExpiredTrackedSessions(targets.trackedSessions, clock())
    : 0;
  const endedRateLimitWindows = await new SqlRateLimitStore(targets.database).deleteEndedWindows(
    clock(),
  );
  const oldWebhookEvents =
    targets.webhookRetentionMs === undefined
      ? 0
      : await deleteProcessedEvents(new SqlWebhookEventStore(targets.database), {
          before: clock() - targets.webhookRetentionMs,
        });
  return { expiredSessions, endedRateLimitWindows, oldWebhookEvents };
}
