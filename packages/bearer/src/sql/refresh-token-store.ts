import { formatTimestamp, parseTimestamp } from "@tessera/core";
import { deleteInBatches, type Migration, portableDdl, type SqlDatabase } from "@tessera/sql";
import {
  type FoundRefreshToken,
  MAXIMUM_REFRESH_GRACE_MS,
  type NewRefreshTokenFamily,
  REVOKED_FAMILY_RETENTION_MS,
  type RefreshTokenFamily,
  type RefreshTokenStore,
  type RefreshTokenSuccessor,
} from "../refresh/refresh-token-store.js";

/**
 * Creates `refresh_token_families` (one row per sign-in, deleted with its user) and
 * `refresh_tokens` (each token of a family as a SHA-256 digest, deleted with its family). Its id
 * sorts after the users migration, whose table it references. The partial index finds the few
 * sealed successors the cleanup forgets without reading every token.
 */
export const refreshTokensMigration: Migration = {
  id: "0024_tessera_refresh_tokens",
  sql: portableDdl(`CREATE TABLE refresh_token_families (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_used_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT,
  user_agent TEXT,
  ip_address TEXT,
  auth_time INTEGER NOT NULL,
  factors TEXT NOT NULL
);
CREATE INDEX refresh_token_families_user_id ON refresh_token_families (user_id);
CREATE INDEX refresh_token_families_expires_at ON refresh_token_families (expires_at);
CREATE INDEX refresh_token_families_revoked_at ON refresh_token_families (revoked_at);
CREATE TABLE refresh_tokens (
  digest TEXT PRIMARY KEY,
  family_id INTEGER NOT NULL REFERENCES refresh_token_families(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  used_at TEXT,
  successor_sealed TEXT
);
CREATE INDEX refresh_tokens_family_id ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_sealed_used_at ON refresh_tokens (used_at)
  WHERE successor_sealed IS NOT NULL`),
};

const FAMILY_COLUMNS =
  "user_id, created_at, last_used_at, expires_at, user_agent, ip_address, auth_time, factors";
const INSERT_FAMILY = `INSERT INTO refresh_token_families (${FAMILY_COLUMNS})
VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
// The first token joins the family just inserted: on SQLite (D1 too, whose transactions are
// one batch that tells nothing between statements) by last_insert_rowid() in the same
// transaction, on PostgreSQL in the same statement.
const INSERT_FIRST_TOKEN_SQLITE =
  "INSERT INTO refresh_tokens (digest, family_id, created_at) VALUES (?, last_insert_rowid(), ?)";
const INSERT_FAMILY_AND_TOKEN_POSTGRES = `WITH family AS (${INSERT_FAMILY} RETURNING id)
INSERT INTO refresh_tokens (digest, family_id, created_at) SELECT ?, id, ? FROM family`;
const FAMILY_OF_TOKEN = "SELECT family_id FROM refresh_tokens WHERE digest = ?";

const FIND_TOKEN = `SELECT t.digest, t.family_id, t.created_at AS token_created_at, t.used_at,
  t.successor_sealed, f.id, f.user_id, f.created_at, f.last_used_at, f.expires_at, f.revoked_at,
  f.user_agent, f.ip_address, f.auth_time, f.factors
FROM refresh_tokens t JOIN refresh_token_families f ON f.id = t.family_id
WHERE t.digest = ?`;

// Using a token is four statements in one transaction, each conditional on the first: the
// compare-and-set marks the token with this call's own sealed successor (random, so unique),
// and the rest act only where that mark is, or where the successor it inserted is. The call
// won when its successor exists afterwards. On PostgreSQL a concurrent call waits on the row
// lock, then finds `used_at` set and changes nothing.
const USE_TOKEN = `UPDATE refresh_tokens SET used_at = ?, successor_sealed = ?
WHERE digest = ? AND used_at IS NULL AND family_id IN
  (SELECT id FROM refresh_token_families WHERE revoked_at IS NULL AND expires_at > ?)`;
const INSERT_SUCCESSOR = `INSERT INTO refresh_tokens (digest, family_id, created_at)
SELECT ?, family_id, ? FROM refresh_tokens WHERE digest = ? AND successor_sealed = ?`;
const TOUCH_FAMILY = `UPDATE refresh_token_families SET last_used_at = ?
WHERE id = (${FAMILY_OF_TOKEN})`;
const FORGET_OLDER_SUCCESSORS = `UPDATE refresh_tokens SET successor_sealed = NULL
WHERE family_id = (${FAMILY_OF_TOKEN}) AND digest <> ? AND successor_sealed IS NOT NULL`;
const TOKEN_EXISTS = "SELECT 1 AS found FROM refresh_tokens WHERE digest = ?";

const ENDED_FAMILY = "expires_at <= ? OR (revoked_at IS NOT NULL AND revoked_at <= ?)";

/**
 * Refresh token families in SQL (SQLite, PostgreSQL, D1), on a {@link SqlDatabase} that has run
 * {@link refreshTokensMigration}. Tokens are stored as digests only; a successor's plaintext
 * arrives sealed by the service. Using a token is an `UPDATE … WHERE used_at IS NULL` whose
 * effect decides everything after it, so of concurrent uses of one token exactly one wins, on
 * every engine. Times are the UTC timestamp text, whose order is chronological, so comparisons
 * stay in SQL.
 */
export class SqlRefreshTokenStore implements RefreshTokenStore {
  constructor(private readonly database: SqlDatabase) {}

  async createFamily(family: NewRefreshTokenFamily): Promise<number> {
    const createdAt = formatTimestamp(family.createdAt);
    const familyValues = [
      family.userId,
      createdAt,
      createdAt,
      formatTimestamp(family.expiresAt),
      family.userAgent,
      family.ipAddress,
      family.authTime,
      family.factors.join(","),
    ];
    if (this.database.dialect === "postgres") {
      await this.database.run(INSERT_FAMILY_AND_TOKEN_POSTGRES, [
        ...familyValues,
        family.tokenDigest,
        createdAt,
      ]);
    } else {
      await this.database.transaction(async (transaction) => {
        await transaction.run(INSERT_FAMILY, familyValues);
        await transaction.run(INSERT_FIRST_TOKEN_SQLITE, [family.tokenDigest, createdAt]);
      });
    }
    const row = await this.database.get<{ family_id: number }>(FAMILY_OF_TOKEN, [
      family.tokenDigest,
    ]);
    if (!row) throw new Error("the refresh token family was not found after its insert");
    return Number(row.family_id);
  }

  async findToken(digest: string): Promise<FoundRefreshToken | undefined> {
    const row = await this.database.get<FoundRow>(FIND_TOKEN, [digest]);
    if (!row) return undefined;
    return {
      token: {
        digest: row.digest,
        familyId: Number(row.family_id),
        createdAt: parseTimestamp(row.token_created_at),
        usedAt: row.used_at === null ? null : parseTimestamp(row.used_at),
        successorSealed: row.successor_sealed,
      },
      family: toFamily(row),
    };
  }

  async markUsed(digest: string, successor: RefreshTokenSuccessor, now: number): Promise<boolean> {
    const at = formatTimestamp(now);
    await this.database.transaction(async (transaction) => {
      await transaction.run(USE_TOKEN, [at, successor.sealed, digest, at]);
      await transaction.run(INSERT_SUCCESSOR, [successor.digest, at, digest, successor.sealed]);
      await transaction.run(TOUCH_FAMILY, [at, successor.digest]);
      await transaction.run(FORGET_OLDER_SUCCESSORS, [successor.digest, digest]);
    });
    return (await this.database.get(TOKEN_EXISTS, [successor.digest])) !== undefined;
  }

  async revokeFamily(familyId: number, now: number): Promise<boolean> {
    const result = await this.database.run(
      "UPDATE refresh_token_families SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
      [formatTimestamp(now), familyId],
    );
    return result.changes > 0;
  }

  async revokeUserFamilies(userId: number, now: number): Promise<number> {
    const result = await this.database.run(
      "UPDATE refresh_token_families SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
      [formatTimestamp(now), userId],
    );
    return result.changes;
  }

  async listFamilies(userId: number, now: number): Promise<RefreshTokenFamily[]> {
    const rows = await this.database.all<FamilyRow>(
      `SELECT id, ${FAMILY_COLUMNS}, revoked_at FROM refresh_token_families
       WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ?
       ORDER BY created_at DESC, id DESC`,
      [userId, formatTimestamp(now)],
    );
    return rows.map(toFamily);
  }

  /**
   * In batches of 1,000 rows, yielding between them (see `deleteInBatches`): the tokens of the
   * ended families first, so the count is of families on D1 too (whose count of a delete
   * includes the rows its cascade removed).
   */
  async deleteExpired(now: number): Promise<number> {
    const ended = [formatTimestamp(now), formatTimestamp(now - REVOKED_FAMILY_RETENTION_MS)];
    await deleteInBatches(this.database, {
      table: "refresh_tokens",
      rowKey: ["digest"],
      where: `family_id IN (SELECT id FROM refresh_token_families WHERE ${ENDED_FAMILY})`,
      params: ended,
    });
    const deleted = await deleteInBatches(this.database, {
      table: "refresh_token_families",
      rowKey: ["id"],
      where: ENDED_FAMILY,
      params: ended,
    });
    await this.database.run(
      `UPDATE refresh_tokens SET successor_sealed = NULL
       WHERE successor_sealed IS NOT NULL AND used_at <= ?`,
      [formatTimestamp(now - MAXIMUM_REFRESH_GRACE_MS)],
    );
    return deleted;
  }
}

interface FamilyRow {
  readonly id: number;
  readonly user_id: number;
  readonly created_at: string;
  readonly last_used_at: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
  readonly user_agent: string | null;
  readonly ip_address: string | null;
  readonly auth_time: number;
  readonly factors: string;
}

interface FoundRow extends FamilyRow {
  readonly digest: string;
  readonly family_id: number;
  readonly token_created_at: string;
  readonly used_at: string | null;
  readonly successor_sealed: string | null;
}

function toFamily(row: FamilyRow): RefreshTokenFamily {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    createdAt: parseTimestamp(row.created_at),
    lastUsedAt: parseTimestamp(row.last_used_at),
    expiresAt: parseTimestamp(row.expires_at),
    revokedAt: row.revoked_at === null ? null : parseTimestamp(row.revoked_at),
    userAgent: row.user_agent,
    ipAddress: row.ip_address,
    authTime: Number(row.auth_time),
    factors: row.factors === "" ? [] : row.factors.split(","),
  };
}
