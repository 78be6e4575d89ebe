import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type {
  EmailedTokenPurpose,
  EmailedTokenRecord,
  EmailedTokenStore,
  NewEmailedToken,
} from "./emailed-token-store.js";

/**
 * Creates `auth_tokens` (emailed tokens, docs/security.md): tokens stored only as SHA-256 digests, deleted
 * with their user. `UNIQUE (user_id, purpose)` makes "one live token per purpose" a database
 * fact; its index also serves the cascade from `users`.
 */
export const authTokensMigration: Migration = {
  id: "0003_tessera_auth_tokens",
  sql: portableDdl(`CREATE TABLE auth_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('password_reset', 'magic_link', 'email_confirmation')),
  digest TEXT NOT NULL UNIQUE,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (user_id, purpose)
)`),
};

// Issuing is one upsert: the user's previous token of the purpose is overwritten in place, so
// no moment exists with two live tokens, and racing requests leave exactly one (the last).
// The row is the (user, purpose) slot: created_at is its first issue, updated_at the latest.
const ISSUE = `INSERT INTO auth_tokens (user_id, purpose, digest, expires_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (user_id, purpose) DO UPDATE SET
  digest = excluded.digest, expires_at = excluded.expires_at, updated_at = excluded.updated_at`;

// One statement finds and removes the row: of any number of racing requests, on one connection
// or several, only one gets it back.
const CONSUME =
  "DELETE FROM auth_tokens WHERE digest = ? AND purpose = ? RETURNING user_id, expires_at";

const PEEK = "SELECT user_id, expires_at FROM auth_tokens WHERE digest = ? AND purpose = ?";

interface TokenRow {
  user_id: number;
  expires_at: string;
}

/**
 * The {@link EmailedTokenStore} of `@tessera/accounts` on a {@link SqlDatabase} that has run
 * {@link authTokensMigration}. Each method is one statement. Expiry is kept at the
 * one-second resolution of stored times (rounded down, so a token never lives longer than its lifetime).
 */
export class SqlEmailedTokenStore implements EmailedTokenStore {
  constructor(private readonly database: SqlDatabase) {}

  async issue(token: NewEmailedToken): Promise<void> {
    const issuedAt = formatTimestamp(token.issuedAt);
    await this.database.run(ISSUE, [
      token.userId,
      token.purpose,
      token.digest,
      formatTimestamp(token.expiresAt),
      issuedAt,
      issuedAt,
    ]);
  }

  async consume(
    digest: string,
    purpose: EmailedTokenPurpose,
  ): Promise<EmailedTokenRecord | undefined> {
    return toRecord(await this.database.get<TokenRow>(CONSUME, [digest, purpose]));
  }

  async peek(
    digest: string,
    purpose: EmailedTokenPurpose,
  ): Promise<EmailedTokenRecord | undefined> {
    return toRecord(await this.database.get<TokenRow>(PEEK, [digest, purpose]));
  }
}

function toRecord(row: TokenRow | undefined): EmailedTokenRecord | undefined {
  return row && { userId: row.user_id, expiresAt: parseTimestamp(row.expires_at) };
}
