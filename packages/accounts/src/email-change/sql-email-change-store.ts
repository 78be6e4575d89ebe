import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { EmailChangeStore, NewEmailChange, PendingEmailChange } from "./email-change-store.js";

/**
 * Creates `email_changes`: one pending email change per user, its token kept only as a SHA-256
 * digest, deleted with its user. The new address is not unique here: two users may ask for the
 * same one, and the `users` index decides who gets it when a link is used.
 */
export const emailChangesMigration: Migration = {
  id: "0016_tessera_email_changes",
  sql: portableDdl(`CREATE TABLE email_changes (
  user_id INTEGER NOT NULL PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  new_email TEXT NOT NULL,
  digest TEXT NOT NULL UNIQUE,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
)`),
};

// One upsert: a new request overwrites the pending one in place, so no moment has two live links.
const REQUEST = `INSERT INTO email_changes (user_id, new_email, digest, expires_at, created_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET
  new_email = excluded.new_email, digest = excluded.digest,
  expires_at = excluded.expires_at, created_at = excluded.created_at`;

// One statement finds and removes the row: of any number of racing confirmations, on one
// connection or several, only one gets it back.
const CONSUME =
  "DELETE FROM email_changes WHERE digest = ? RETURNING user_id, new_email, expires_at";

const PEEK = "SELECT user_id, new_email, expires_at FROM email_changes WHERE digest = ?";

interface ChangeRow {
  user_id: number;
  new_email: string;
  expires_at: string;
}

/**
 * The {@link EmailChangeStore} on a {@link SqlDatabase} that has run
 * {@link emailChangesMigration}. Each method is one statement. Expiry is kept in whole seconds
 * (rounded down, so a link never lives longer than its lifetime).
 */
export class SqlEmailChangeStore implements EmailChangeStore {
  constructor(private readonly database: SqlDatabase) {}

  async request(change: NewEmailChange): Promise<void> {
    await this.database.run(REQUEST, [
      change.userId,
      change.newEmail,
      change.digest,
      formatTimestamp(change.expiresAt),
      formatTimestamp(change.requestedAt),
    ]);
  }

  async consume(digest: string): Promise<PendingEmailChange | undefined> {
    return toPending(await this.database.get<ChangeRow>(CONSUME, [digest]));
  }

  async peek(digest: string): Promise<PendingEmailChange | undefined> {
    return toPending(await this.database.get<ChangeRow>(PEEK, [digest]));
  }
}

function toPending(row: ChangeRow | undefined): PendingEmailChange | undefined {
  return (
    row && {
      userId: Number(row.user_id),
      newEmail: row.new_email,
      expiresAt: parseTimestamp(row.expires_at),
    }
  );
}
