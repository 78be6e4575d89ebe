import type { AuditEntry, AuditEvent } from "./audit-events.js";

/** Which events a listing reads, newest first. */
export interface AuditQuery {
  /** Only the events about this user. */
  readonly userId?: number | undefined;
  /** Only the events of this type. */
  readonly type?: string | undefined;
  /** Keyset paging: only events whose id is below this one. */
  readonly after?: number | undefined;
  /** Events skipped first (default 0); `after` costs the same at any depth, this does not. */
  readonly offset?: number | undefined;
  readonly limit: number;
}

/**
 * The append-only trail of account events. There is no way to change or delete one event:
 * only the retention deletes, by age (`deleteOlderThan`).
 */
export interface AuditLog {
  /** Appends one event recorded at `at` (epoch ms). */
  append(entry: AuditEntry, at: number): Promise<void>;
  /** The events `query` selects, newest first. */
  list(query: AuditQuery): Promise<AuditEvent[]>;
  /** Deletes the events recorded before `before`; returns how many. */
  deleteOlderThan(before: number): Promise<number>;
}
