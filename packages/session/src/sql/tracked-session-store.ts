import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { deleteInBatches, type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type {
  NewTrackedSession,
  TrackedSession,
  TrackedSessionStore,
} from "../tracked-session-store.js";

/**
 * Creates `user_sessions` (tracked sessions): one row per sign-in, its token stored only as
 * a SHA-256 digest, deleted with its user. Its id sorts after the users migration, whose table
 * it references; the `user_id` index serves the device list, the owner-scoped deletes and the
 * cascade.
 */
export const userSessionsMigration: Migration = {
  id: "0005_tessera_user_sessions",
  sql: portableDdl(`CREATE TABLE user_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  digest TEXT NOT NULL UNIQUE,
  ip_address TEXT,
  browser TEXT NOT NULL,
  user_agent TEXT,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX user_sessions_user_id ON user_sessions (user_id)`),
};

/**
 * Indexes `user_sessions.expires_at`, so the cleanup of expired rows reads only those rows
 * instead of the whole table. A migration of its own: applied ones are never edited.
 */
export const userSessionsExpiryIndexMigration: Migration = {
  id: "0005_tessera_user_sessions_expires_at",
  sql: "CREATE INDEX user_sessions_expires_at ON user_sessions (expires_at)",
};

/**
 * Adds `user_sessions.factors`: what signed each session in (`password,totp`), so the device
 * list can say it. Rows from before it have none.
 */
export const userSessionsFactorsMigration: Migration = {
  id: "0010_tessera_user_sessions_factors",
  sql: "ALTER TABLE user_sessions ADD COLUMN factors TEXT NOT NULL DEFAULT ''",
};

// Every read names these columns, so a digest can never slip into a record.
const COLUMNS =
  "id, user_id, ip_address, browser, user_agent, last_seen_at, expires_at, created_at, factors";

interface SessionRow {
  id: number;
  user_id: number;
  ip_address: string | null;
  browser: string;
  user_agent: string | null;
  last_seen_at: string;
  expires_at: string;
  created_at: string;
  factors: string;
}

function toTrackedSession(row: SessionRow): TrackedSession {
  return {
    id: row.id,
    userId: row.user_id,
    ipAddress: row.ip_address,
    browser: row.browser,
    userAgent: row.user_agent,
    lastSeenAt: parseTimestamp(row.last_seen_at),
    expiresAt: parseTimestamp(row.expires_at),
    createdAt: parseTimestamp(row.created_at),
    factors: row.factors === "" ? [] : row.factors.split(","),
  };
}

/**
 * Tracked sessions in SQLite, on a {@link SqlDatabase} that has run
 * {@link userSessionsMigration}, {@link userSessionsExpiryIndexMigration} and
 * {@link userSessionsFactorsMigration}. Each method is
 * one statement (the cleanup: batches of them); the owner is part of every lookup and delete,
 * and the hourly last-seen write is one conditional update. Times are the UTC timestamp text,
 * whose order is chronological, so comparisons stay in SQL.
 */
export class SqlTrackedSessionStore implements TrackedSessionStore {
  constructor(private readonly database: SqlDatabase) {}

  async create(session: NewTrackedSession): Promise<TrackedSession> {
    const createdAt = formatTimestamp(session.createdAt);
    const row = await this.database.get<SessionRow>(
      `INSERT INTO user_sessions
         (user_id, digest, ip_address, browser, user_agent, last_seen_at, expires_at, created_at, updated_at, factors)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       RETURNING ${COLUMNS}`,
      [
        session.userId,
        session.digest,
        session.ipAddress,
        session.browser,
        session.userAgent,
        createdAt,
        formatTimestamp(session.expiresAt),
        createdAt,
        createdAt,
        (session.factors ?? []).join(","),
      ],
    );
    return toTrackedSession(row!);
  }

  async findByDigest(userId: number, digest: string): Promise<TrackedSession | undefined> {
    const row = await this.database.get<SessionRow>(
      `SELECT ${COLUMNS} FROM user_sessions WHERE digest = ? AND user_id = ?`,
      [digest, userId],
    );
    return row && toTrackedSession(row);
  }

  async listForUser(userId: number, now: number): Promise<TrackedSession[]> {
    const rows = await this.database.all<SessionRow>(
      `SELECT ${COLUMNS} FROM user_sessions WHERE user_id = ? AND expires_at > ?
       ORDER BY last_seen_at DESC, id DESC`,
      [userId, formatTimestamp(now)],
    );
    return rows.map(toTrackedSession);
  }

  async touchLastSeen(id: number, seenAt: number, staleAt: number): Promise<boolean> {
    const seenAtText = formatTimestamp(seenAt);
    const result = await this.database.run(
      "UPDATE user_sessions SET last_seen_at = ?, updated_at = ? WHERE id = ? AND last_seen_at <= ?",
      [seenAtText, seenAtText, id, formatTimestamp(staleAt)],
    );
    return result.changes > 0;
  }

  async deleteForUser(userId: number, id: number): Promise<boolean> {
    const result = await this.database.run(
      "DELETE FROM user_sessions WHERE id = ? AND user_id = ?",
      [id, userId],
    );
    return result.changes > 0;
  }

  async deleteOthersForUser(userId: number, keepId: number | undefined): Promise<number> {
    // `IS DISTINCT FROM NULL` holds for every row, so without a session to keep all of them go.
    const result = await this.database.run(
      "DELETE FROM user_sessions WHERE user_id = ? AND id IS DISTINCT FROM ?",
      [userId, keepId ?? null],
    );
    return result.changes;
  }

  /** In batches of 1,000 rows, yielding between them (see `deleteInBatches`). */
  deleteExpired(now: number): Promise<number> {
    return deleteInBatches(this.database, {
      table: "user_sessions",
      rowKey: ["id"],
      where: "expires_at <= ?",
      params: [formatTimestamp(now)],
    });
  }
}
