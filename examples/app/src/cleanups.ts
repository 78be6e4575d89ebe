import { auditCleanups, DEFAULT_AUDIT_RETENTION_DAYS } from "@tessera/accounts";
import { SqlAuditLog } from "@tessera/accounts/sql";
import { refreshTokenCleanups } from "@tessera/bearer";
import { SqlRefreshTokenStore } from "@tessera/bearer/sql";
import { type CleanupTask, type Clock, systemClock } from "@tessera/core";
import { outboundCleanups } from "@tessera/outbound";
import { SqlOutboundStore } from "@tessera/outbound/sql";
import { outboxCleanups } from "@tessera/outbox";
import { SqlOutbox } from "@tessera/outbox/sql";
import { failureThrottleCleanups, rateLimitCleanups } from "@tessera/ratelimit";
import { SqlFailureStreakStore, SqlRateLimitStore } from "@tessera/ratelimit/sql";
import { type TrackedSessionStore, trackedSessionCleanups } from "@tessera/session";
import type { SqlDatabase } from "@tessera/sql";
import { webhookCleanups } from "@tessera/webhooks";
import { SqlWebhookEventStore } from "@tessera/webhooks/sql";

const DAY_MS = 24 * 60 * 60 * 1000;

/** `WEBHOOK_RETENTION_DAYS` in milliseconds, or undefined when events are kept forever (0). */
export function webhookRetentionMs(config: { readonly webhookRetentionDays: number }) {
  return config.webhookRetentionDays * DAY_MS || undefined;
}

/**
 * `OUTBOUND_RETENTION_DAYS` in milliseconds, or undefined when outbound webhook messages are
 * kept forever (0).
 */
export function outboundRetentionMs(config: { readonly outboundRetentionDays: number }) {
  return config.outboundRetentionDays * DAY_MS || undefined;
}

/** How long a sent mail stays in the outbox (and the preview): 7 days. Failed ones stay. */
export const SENT_MAIL_RETENTION_MS = 7 * DAY_MS;

/** How often the cleanups run after the one at start: 10 minutes. */
export const CLEANUP_INTERVAL_MS = 600_000;

/**
 * What the app cleans up: expired device rows (when tracked sessions are on), ended windows,
 * processed webhook events older than `webhookRetentionMs`, and outbound webhook messages
 * older than `outboundRetentionMs` (undefined keeps them forever).
 */
export interface CleanupTargets {
  readonly database: SqlDatabase;
  readonly trackedSessions: TrackedSessionStore | undefined;
  readonly webhookRetentionMs: number | undefined;
  /** `AUDIT_RETENTION_DAYS` (default 365): 0 keeps the account audit events forever. */
  readonly auditRetentionDays?: number | undefined;
  readonly outboundRetentionMs: number | undefined;
}

/**
 * The packages' cleanup tasks this app runs: tracked sessions' (when on), ended refresh token
 * families, rate limiting's and
 * per-account throttling's, the account audit trail's (unless kept forever), webhook retention's (unless events are kept forever), the mail
 * outbox's (sent mails after {@link SENT_MAIL_RETENTION_MS}) and outbound webhooks' (unless
 * messages are kept forever). Each deletes in batches of 1,000 rows with a yield between (the
 * stores' way), so requests keep being served meanwhile.
 */
export function cleanupTasks(targets: CleanupTargets): CleanupTask[] {
  const { database, trackedSessions, webhookRetentionMs: retentionMs } = targets;
  const { outboundRetentionMs: messageRetentionMs } = targets;
  const auditRetentionDays = targets.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  return [
    ...(trackedSessions ? trackedSessionCleanups(trackedSessions) : []),
    ...refreshTokenCleanups(new SqlRefreshTokenStore(database)),
    ...rateLimitCleanups(new SqlRateLimitStore(database)),
    ...failureThrottleCleanups(new SqlFailureStreakStore(database)),
    ...(auditRetentionDays === 0
      ? []
      : auditCleanups(new SqlAuditLog(database), { retentionDays: auditRetentionDays })),
    ...(retentionMs === undefined
      ? []
      : webhookCleanups(new SqlWebhookEventStore(database), { retentionMs })),
    ...outboxCleanups(new SqlOutbox(database), { retentionMs: SENT_MAIL_RETENTION_MS }),
    ...(messageRetentionMs === undefined
      ? []
      : outboundCleanups(new SqlOutboundStore(database), { retentionMs: messageRetentionMs })),
  ];
}

/**
 * One cleanup round: runs every task of {@link cleanupTasks}, one after another, each at the
 * clock's time when it starts. Returns how many rows each deleted, by task name.
 */
export async function runCleanups(
  targets: CleanupTargets,
  clock: Clock = systemClock,
): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const task of cleanupTasks(targets)) removed[task.name] = (await task.run(clock())).removed;
  return removed;
}
