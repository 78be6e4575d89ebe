import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import type { ApiKeyRecord, ApiKeyStore, NewApiKey } from "../api-key-store.js";

/**
 * Creates `api_keys`: keys stored only as SHA-256 digests, deleted with their user. Its id
 * sorts after the users migration, whose table it references.
 */
export const apiKeysMigration: Migration = {
  id: "0002_tessera_api_keys",
  sql: portableDdl(`CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  digest TEXT NOT NULL UNIQUE,
  last_used_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX api_keys_user_id ON api_keys (user_id)`),
};

// Every read names these columns, so a digest can never slip into a record.
const RECORD_COLUMNS = "id, user_id, name, last_used_at, created_at";
// Every request with a key runs this: one text, built once, so the prepared-statement lookup
// by text does not hash a freshly concatenated string each time.
const FIND_BY_DIGEST = `SELECT ${RECORD_COLUMNS} FROM api_keys WHERE digest = ?`;

/**
 * API keys in SQLite. Ownership is part of the delete statement itself, and the once-an-hour
 * `last_used_at` write is one conditional update, so concurrent requests write it once.
 */
export class SqlApiKeyStore implements ApiKeyStore {
  constructor(private readonly database: SqlDatabase) {}

  async create(key: NewApiKey): Promise<ApiKeyRecord> {
    const createdAt = formatTimestamp(key.createdAt);
    const row = await this.database.get<ApiKeyRow>(
      `INSERT INTO api_keys (user_id, name, digest, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       RETURNING ${RECORD_COLUMNS}`,
      [key.userId, key.name, key.digest, createdAt, createdAt],
    );
    return toRecord(row!);
  }

  async listForUser(userId: number): Promise<ApiKeyRecord[]> {
    const rows = await this.database.all<ApiKeyRow>(
      `SELECT ${RECORD_COLUMNS} FROM api_keys WHERE user_id = ? ORDER BY id DESC`,
      [userId],
    );
    return rows.map(toRecord);
  }

  async deleteForUser(userId: number, id: number): Promise<boolean> {
    const result = await this.database.run("DELETE FROM api_keys WHERE id = ? AND user_id = ?", [
      id,
      userId,
    ]);
    return result.changes > 0;
  }

  async findByDigest(digest: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.database.get<ApiKeyRow>(FIND_BY_DIGEST, [digest]);
    return row && toRecord(row);
  }

  async touchLastUsed(id: number, usedAt: number, staleAt: number): Promise<boolean> {
    const usedAtText = formatTimestamp(usedAt);
    // The text form sorts chronologically, so the comparison can stay in SQL.
    const result = await this.database.run(
      `UPDATE api_keys SET last_used_at = ?, updated_at = ?
       WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
      [usedAtText, usedAtText, id, formatTimestamp(staleAt)],
    );
    return result.changes > 0;
  }
}

interface ApiKeyRow {
  readonly id: number;
  readonly user_id: number;
  readonly name: string;
  readonly last_used_at: string | null;
  readonly created_at: string;
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    lastUsedAt: row.last_used_at === null ? null : parseTimestamp(row.last_used_at),
    createdAt: parseTimestamp(row.created_at),
  };
}
