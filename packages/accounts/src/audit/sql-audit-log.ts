import { deleteInBatches, type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { AuditDetail, AuditEntry, AuditEvent } from "./audit-events.js";
import type { AuditLog, AuditQuery } from "./audit-log.js";

/**
 * Creates `audit_events`. `user_id` has no foreign key: the trail of a deleted user, their
 * `user.deleted` first, stays until the retention removes it. Indexed for a user's events
 * newest first, a type's, and the retention's scan by age.
 */
export const auditEventsMigration: Migration = {
  id: "0020_tessera_audit_events",
  sql: portableDdl(`CREATE TABLE audit_events (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  type TEXT NOT NULL,
  user_id INTEGER,
  actor_id INTEGER,
  ip TEXT,
  user_agent TEXT,
  details TEXT NOT NULL
);
CREATE INDEX audit_events_user_id ON audit_events (user_id, id);
CREATE INDEX audit_events_type ON audit_events (type, id);
CREATE INDEX audit_events_at ON audit_events (at)`),
};

interface AuditRow {
  id: number;
  at: number;
  type: string;
  user_id: number | null;
  actor_id: number | null;
  ip: string | null;
  user_agent: string | null;
  details: string;
}

/** The audit trail in SQL (SQLite, PostgreSQL, D1): one insert per event, nothing updated. */
export class SqlAuditLog implements AuditLog {
  constructor(private readonly database: SqlDatabase) {}

  async append(entry: AuditEntry, at: number): Promise<void> {
    await this.database.run(
      `INSERT INTO audit_events (at, type, user_id, actor_id, ip, user_agent, details)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        at,
        entry.type,
        entry.userId,
        entry.actorId,
        entry.ip,
        entry.userAgent,
        JSON.stringify(entry.details),
      ],
    );
  }

  async list(query: AuditQuery): Promise<AuditEvent[]> {
    const conditions: string[] = [];
    const params: (string | number)[] = [];
    if (query.userId !== undefined) {
      conditions.push("user_id = ?");
      params.push(query.userId);
    }
    if (query.type !== undefined) {
      conditions.push("type = ?");
      params.push(query.type);
    }
    if (query.after !== undefined) {
      conditions.push("id < ?");
      params.push(query.after);
    }
    const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
    const rows = await this.database.all<AuditRow>(
      `SELECT id, at, type, user_id, actor_id, ip, user_agent, details FROM audit_events
       ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [...params, query.limit, query.offset ?? 0],
    );
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      type: row.type,
      userId: row.user_id,
      actorId: row.actor_id,
      ip: row.ip,
      userAgent: row.user_agent,
      details: JSON.parse(row.details) as Record<string, AuditDetail>,
    }));
  }

  /** Deletes the events recorded before `before`, in batches (see `deleteInBatches`). */
  deleteOlderThan(before: number): Promise<number> {
    return deleteInBatches(this.database, {
      table: "audit_events",
      rowKey: ["id"],
      where: "at < ?",
      params: [before],
    });
  }
}
