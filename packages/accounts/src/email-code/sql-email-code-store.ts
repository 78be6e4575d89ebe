import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { EmailCodeRecord, EmailCodeStore } from "./email-code-store.js";

/**
 * Creates `email_codes`: one emailed sign-in code per user, kept only as a keyed digest, with
 * the wrong codes typed against it; deleted with its user.
 */
export const emailCodesMigration: Migration = {
  id: "0012_tessera_email_codes",
  sql: portableDdl(`CREATE TABLE email_codes (
  user_id INTEGER NOT NULL PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  digest TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
)`),
};

// One upsert: a new code replaces the last and starts its failures at zero.
const ISSUE = `INSERT INTO email_codes (user_id, digest, failures, expires_at, created_at)
VALUES (?, ?, 0, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET
  digest = excluded.digest, failures = 0, expires_at = excluded.expires_at, created_at = excluded.created_at`;
const FIND = "SELECT digest, failures, expires_at FROM email_codes WHERE user_id = ?";
// The cap is in the WHERE: racing attempts each move the count on by one, and those that find it
// at the cap (or the code expired) change nothing and get no row.
const COUNT_ATTEMPT = `UPDATE email_codes SET failures = failures + 1
WHERE user_id = ? AND failures < ? AND expires_at > ?
RETURNING digest, failures, expires_at`;
const CONSUME = "DELETE FROM email_codes WHERE user_id = ? AND digest = ? RETURNING user_id";

interface CodeRow {
  digest: string;
  failures: number;
  expires_at: string;
}

/**
 * The {@link EmailCodeStore} on a {@link SqlDatabase} that has run {@link emailCodesMigration}.
 * Each method is one statement. Expiry is kept in whole seconds (rounded down).
 */
export class SqlEmailCodeStore implements EmailCodeStore {
  constructor(private readonly database: SqlDatabase) {}

  async issue(userId: number, digest: string, expiresAt: number, issuedAt: number) {
    await this.database.run(ISSUE, [
      userId,
      digest,
      formatTimestamp(expiresAt),
      formatTimestamp(issuedAt),
    ]);
  }

  async find(userId: number): Promise<EmailCodeRecord | undefined> {
    return toRecord(await this.database.get<CodeRow>(FIND, [userId]));
  }

  async countAttempt(
    userId: number,
    maximum: number,
    at: number,
  ): Promise<EmailCodeRecord | undefined> {
    return toRecord(
      await this.database.get<CodeRow>(COUNT_ATTEMPT, [userId, maximum, formatTimestamp(at)]),
    );
  }

  async consume(userId: number, digest: string): Promise<boolean> {
    return (await this.database.all(CONSUME, [userId, digest])).length === 1;
  }
}

function toRecord(row: CodeRow | undefined): EmailCodeRecord | undefined {
  return (
    row && {
      digest: row.digest,
      failures: Number(row.failures),
      expiresAt: parseTimestamp(row.expires_at),
    }
  );
}
