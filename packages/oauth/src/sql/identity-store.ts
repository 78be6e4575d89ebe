import { fail, formatTimestamp, ok, parseTimestamp, type Result } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { Identity, IdentityStore, NewIdentity } from "../identity-store.js";

/**
 * Creates `identities` (sign-in providers): links to provider accounts, deleted with their user.
 * `UNIQUE (provider, subject)` makes "one user per provider account" a database fact, also
 * under concurrent sign-ins.
 */
export const identitiesMigration: Migration = {
  id: "0006_tessera_identities",
  sql: portableDdl(`CREATE TABLE identities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  subject TEXT NOT NULL,
  email TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (provider, subject)
);
CREATE INDEX identities_user_id ON identities (user_id)`),
};

// One statement: a pair linked already, also by a racing request, returns no row instead of
// raising, and leaves the existing link as it is.
const LINK = `INSERT INTO identities (user_id, provider, subject, email, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (provider, subject) DO NOTHING
RETURNING id, user_id, provider, subject, email, created_at, updated_at`;

interface IdentityRow {
  id: number;
  user_id: number;
  provider: string;
  subject: string;
  email: string | null;
  created_at: string;
  updated_at: string;
}

function toIdentity(row: IdentityRow): Identity {
  return {
    id: row.id,
    userId: row.user_id,
    provider: row.provider,
    subject: row.subject,
    email: row.email,
    createdAt: parseTimestamp(row.created_at),
    updatedAt: parseTimestamp(row.updated_at),
  };
}

/**
 * The {@link IdentityStore} of `@tessera/oauth` on a {@link SqlDatabase} that has run
 * {@link identitiesMigration}. Each method is one statement; lists are scoped by owner in the
 * query itself.
 */
export class SqlIdentityStore implements IdentityStore {
  constructor(private readonly database: SqlDatabase) {}

  async findUserId(provider: string, subject: string): Promise<number | undefined> {
    const row = await this.database.get<{ user_id: number }>(
      "SELECT user_id FROM identities WHERE provider = ? AND subject = ?",
      [provider, subject],
    );
    return row?.user_id;
  }

  async link(identity: NewIdentity, now: number): Promise<Result<Identity, "already-linked">> {
    const timestamp = formatTimestamp(now);
    const row = await this.database.get<IdentityRow>(LINK, [
      identity.userId,
      identity.provider,
      identity.subject,
      identity.email,
      timestamp,
      timestamp,
    ]);
    return row ? ok(toIdentity(row)) : fail("already-linked");
  }

  async listForUser(userId: number): Promise<Identity[]> {
    const rows = await this.database.all<IdentityRow>(
      `SELECT id, user_id, provider, subject, email, created_at, updated_at
       FROM identities WHERE user_id = ? ORDER BY id`,
      [userId],
    );
    return rows.map(toIdentity);
  }
}
