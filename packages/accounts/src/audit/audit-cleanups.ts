import type { CleanupTask } from "@tessera/core";
import type { AuditLog } from "./audit-log.js";

/** How long the trail keeps an event by default: 365 days. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/**
 * The audit trail's retention as a {@link CleanupTask}: `old-audit-events` deletes the events
 * recorded more than `retentionDays` (default 365) before the run's time.
 */
export function auditCleanups(
  log: AuditLog,
  options: { readonly retentionDays?: number | undefined } = {},
): CleanupTask[] {
  const days = options.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  if (!Number.isInteger(days) || days < 1) {
    throw new RangeError("retentionDays must be a whole number of days, at least 1");
  }
  return [
    {
      name: "old-audit-events",
      run: async (now) => ({ removed: await log.deleteOlderThan(now - days * 86_400_000) }),
    },
  ];
}
