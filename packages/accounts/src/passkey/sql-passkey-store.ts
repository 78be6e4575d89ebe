import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { NewPasskey, Passkey, PasskeyChallengeScope, PasskeyStore } from "./passkey-store.js";

/**
 * Creates `passkeys` (public keys and counters, a credential id used once across all users) and
 * `passkey_challenges` (SHA-256 digests only), both deleted with their user.
 */
export const passkeysMigration: Migration = {
  id: "0010_tessera_passkeys",
  sql: portableDdl(`CREATE TABLE passkeys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id TEXT NOT NULL UNIQUE,
  public_key TEXT NOT NULL,
  counter INTEGER NOT NULL DEFAULT 0,
  transports TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX passkeys_user_id ON passkeys (user_id);
CREATE TABLE passkey_challenges (
  digest TEXT NOT NULL PRIMARY KEY,
  purpose TEXT NOT NULL,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  mfa_token_digest TEXT,
  expires_at TEXT NOT NULL
);
CREATE INDEX passkey_challenges_expires_at ON passkey_challenges (expires_at)`),
};

const PASSKEY_COLUMNS =
  "id, user_id, credential_id, public_key, counter, transports, name, created_at, last_used_at";
// The guard against a cloned authenticator: of racing sign-ins with one counter value, only
// the first moves it on, and a counter that went back never does.
const USE_PASSKEY = `UPDATE passkeys SET counter = ?, last_used_at = ?
WHERE credential_id = ? AND (counter < ? OR (counter = 0 AND ? = 0))`;

interface PasskeyRow {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * The {@link PasskeyStore} of `@tessera/accounts` on a {@link SqlDatabase} that has run
 * {@link passkeysMigration}. Every check-and-change is one statement, ownership part of it.
 */
export class SqlPasskeyStore implements PasskeyStore {
  constructor(private readonly database: SqlDatabase) {}

  async createPasskey(passkey: NewPasskey): Promise<Passkey | undefined> {
    const row = await this.database.get<PasskeyRow>(
      `INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, name, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (credential_id) DO NOTHING RETURNING ${PASSKEY_COLUMNS}`,
      [
        passkey.userId,
        passkey.credentialId,
        passkey.publicKey,
        passkey.counter,
        passkey.transports.join(","),
        passkey.name,
        formatTimestamp(passkey.createdAt),
      ],
    );
    return row && toPasskey(row);
  }

  async listPasskeys(userId: number): Promise<Passkey[]> {
    const rows = await this.database.all<PasskeyRow>(
      `SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE user_id = ? ORDER BY id`,
      [userId],
    );
    return rows.map(toPasskey);
  }

  async countPasskeys(userId: number): Promise<number> {
    const row = await this.database.get<{ count: number | string }>(
      "SELECT COUNT(*) AS count FROM passkeys WHERE user_id = ?",
      [userId],
    );
    return Number(row?.count ?? 0);
  }

  async findPasskey(credentialId: string): Promise<Passkey | undefined> {
    const row = await this.database.get<PasskeyRow>(
      `SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = ?`,
      [credentialId],
    );
    return row && toPasskey(row);
  }

  async renamePasskey(userId: number, id: number, name: string): Promise<boolean> {
    const result = await this.database.run(
      "UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ?",
      [name, id, userId],
    );
    return result.changes > 0;
  }

  async deletePasskey(userId: number, id: number): Promise<boolean> {
    const result = await this.database.run("DELETE FROM passkeys WHERE id = ? AND user_id = ?", [
      id,
      userId,
    ]);
    return result.changes > 0;
  }

  async usePasskey(credentialId: string, counter: number, at: number): Promise<boolean> {
    const result = await this.database.run(USE_PASSKEY, [
      counter,
      formatTimestamp(at),
      credentialId,
      counter,
      counter,
    ]);
    return result.changes === 1;
  }

  async createChallenge(
    digest: string,
    scope: PasskeyChallengeScope,
    expiresAt: number,
    at: number,
  ): Promise<void> {
    await this.database.run("DELETE FROM passkey_challenges WHERE expires_at <= ?", [
      formatTimestamp(at),
    ]);
    await this.database.run(
      `INSERT INTO passkey_challenges (digest, purpose, user_id, mfa_token_digest, expires_at)
VALUES (?, ?, ?, ?, ?)`,
      [
        digest,
        scope.purpose,
        scope.purpose === "sign_in" ? null : scope.userId,
        scope.purpose === "second_factor" ? scope.mfaTokenDigest : null,
        formatTimestamp(expiresAt),
      ],
    );
  }

  async consumeChallenge(
    digest: string,
    scope: PasskeyChallengeScope,
  ): Promise<number | undefined> {
    // The scope is part of the one statement: a challenge of another purpose or user stays.
    const [condition, parameters] =
      scope.purpose === "sign_in"
        ? ["user_id IS NULL", []]
        : scope.purpose === "registration"
          ? ["user_id = ? AND mfa_token_digest IS NULL", [scope.userId]]
          : ["user_id = ? AND mfa_token_digest = ?", [scope.userId, scope.mfaTokenDigest]];
    const row = await this.database.get<{ expires_at: string }>(
      `DELETE FROM passkey_challenges WHERE digest = ? AND purpose = ? AND ${condition}
RETURNING expires_at`,
      [digest, scope.purpose, ...parameters],
    );
    return row && parseTimestamp(row.expires_at);
  }
}

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports === "" ? [] : row.transports.split(","),
    name: row.name,
    createdAt: parseTimestamp(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : parseTimestamp(row.last_used_at),
  };
}
