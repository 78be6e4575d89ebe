import type { ApiKeyHolder } from "@tessera/bearer";
import { fail, formatTimestamp, ok, parseTimestamp, type Result } from "@tessera/core";
import {
  isUniqueViolation,
  type Migration,
  portableDdl,
  type SqlDatabase,
  type SqlValue,
} from "@tessera/sql";
import type { OperatorColumnValue } from "../profile/operator-columns.js";
import type { User, UserRole } from "./user.js";
import type {
  NewUser,
  PasswordUpdateOptions,
  UserAdministration,
  UserSearch,
  UserStore,
} from "./user-store.js";

/** Creates `users`. Emails are stored normalized, so a plain unique index enforces uniqueness. */
export const usersMigration: Migration = {
  id: "0001_tessera_users",
  sql: portableDdl(`CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL,
  password_digest TEXT NOT NULL DEFAULT '',
  confirmed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX index_users_on_email ON users (email)`),
};

/**
 * Adds `users.credentials_changed_at`: when a password change last signed out earlier sign-ins
 * (null until one does). Tokens and sessions signed in before it are refused.
 */
export const usersCredentialsChangedAtMigration: Migration = {
  id: "0015_tessera_users_credentials_changed_at",
  sql: "ALTER TABLE users ADD COLUMN credentials_changed_at TEXT",
};

/**
 * Adds the platform role (`role`, `user` or `admin`) and an operator's ban (`banned_at`,
 * `banned_until`, null for a ban until lifted, and `ban_reason`) to `users`.
 */
export const usersAdministrationMigration: Migration = {
  id: "0022_tessera_users_administration",
  sql: `ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'user';
ALTER TABLE users ADD COLUMN banned_at TEXT;
ALTER TABLE users ADD COLUMN banned_until TEXT;
ALTER TABLE users ADD COLUMN ban_reason TEXT`,
};

/**
 * Adds `users.impersonations_ended_at`: when an operator last stopped impersonating (null until
 * they do). Tokens acting for a user that the operator was given before it are refused.
 */
export const usersImpersonationsMigration: Migration = {
  id: "0023_tessera_users_impersonations",
  sql: "ALTER TABLE users ADD COLUMN impersonations_ended_at TEXT",
};

/**
 * Every migration of `users`, in order: what a database that keeps users needs (with
 * `SqlUserStore`), when it does not apply all of `accountMigrations`.
 */
export const userMigrations: readonly Migration[] = [
  usersMigration,
  usersCredentialsChangedAtMigration,
  usersAdministrationMigration,
  usersImpersonationsMigration,
];

/** A user's row joined with the key it holds, whose columns cannot clash with an operator's. */
interface KeyHolderRow extends UserRow {
  _key_id: number;
  _key_name: string;
  _key_last_used_at: string | null;
  _key_created_at: string;
}

interface UserRow {
  id: number;
  email: string;
  password_digest: string;
  confirmed_at: string | null;
  credentials_changed_at: string | null;
  created_at: string;
  updated_at: string;
  role: string;
  banned_at: string | null;
  banned_until: string | null;
  ban_reason: string | null;
  impersonations_ended_at: string | null;
  [column: string]: SqlValue;
}

const COLUMN_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Users in SQLite. `operatorColumns` names the columns the operator added to `users` (for
 * example `name`); only those are written and read back, so input keys never become SQL.
 */
export class SqlUserStore implements UserStore, UserAdministration {
  readonly #operatorColumns: readonly string[];
  /** The columns a user is read from: those it has, not whatever else the table grew. */
  readonly #selected: string;
  // Built once: every bearer check runs the first, and a statement is found by its text.
  readonly #findById: string;
  readonly #findByEmail: string;
  readonly #findByApiKeyDigest: string;
  /** The columns `searchUsers` looks in: the email, and the `name` operator column if any. */
  readonly #searchable: readonly string[];

  constructor(
    private readonly database: SqlDatabase,
    operatorColumns: readonly string[] = [],
  ) {
    for (const column of operatorColumns) {
      if (!COLUMN_NAME.test(column)) throw new RangeError(`invalid column name ${column}`);
    }
    this.#operatorColumns = operatorColumns;
    this.#selected = [
      "id",
      "email",
      "password_digest",
      "confirmed_at",
      "credentials_changed_at",
      "created_at",
      "updated_at",
      "role",
      "banned_at",
      "banned_until",
      "ban_reason",
      "impersonations_ended_at",
      ...operatorColumns,
    ].join(", ");
    this.#searchable = operatorColumns.includes("name") ? ["email", "name"] : ["email"];
    this.#findById = `SELECT ${this.#selected} FROM users WHERE id = ?`;
    this.#findByEmail = `SELECT ${this.#selected} FROM users WHERE email = ?`;
    // Operator column names start with a letter, so the key's `_key_` aliases never clash.
    const userColumns = this.#selected
      .split(", ")
      .map((column) => `users.${column}`)
      .join(", ");
    this.#findByApiKeyDigest = `SELECT ${userColumns}, api_keys.id AS _key_id,
  api_keys.name AS _key_name, api_keys.last_used_at AS _key_last_used_at,
  api_keys.created_at AS _key_created_at
FROM api_keys JOIN users ON users.id = api_keys.user_id WHERE api_keys.digest = ?`;
  }

  async create(user: NewUser, now: number): Promise<Result<User, "email-taken">> {
    const timestamp = formatTimestamp(now);
    const columns = [
      "email",
      "password_digest",
      "confirmed_at",
      "created_at",
      "updated_at",
      ...this.#operatorColumns,
    ];
    const values: SqlValue[] = [
      user.email,
      user.passwordDigest,
      user.confirmedAt == null ? null : formatTimestamp(user.confirmedAt),
      timestamp,
      timestamp,
      ...this.#operatorColumns.map((column) => toSqlValue(user.columns?.[column] ?? null)),
    ];
    try {
      const row = await this.database.get<UserRow>(
        `INSERT INTO users (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING ${this.#selected}`,
        values,
      );
      return ok(this.#toUser(row!));
    } catch (error) {
      if (isUniqueViolation(error)) return fail("email-taken");
      throw error;
    }
  }

  async findById(id: number): Promise<User | undefined> {
    const row = await this.database.get<UserRow>(this.#findById, [id]);
    return row && this.#toUser(row);
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const row = await this.database.get<UserRow>(this.#findByEmail, [email]);
    return row && this.#toUser(row);
  }

  /**
   * The API key with this SHA-256 digest and its user, in one statement: what a bearer check
   * with a key needs, for one query instead of two. Needs `@tessera/bearer`'s `api_keys` table
   * in the same database (`accountMigrations` creates both).
   */
  async findByApiKeyDigest(digest: string): Promise<ApiKeyHolder<User> | undefined> {
    const row = await this.database.get<KeyHolderRow>(this.#findByApiKeyDigest, [digest]);
    if (!row) return undefined;
    return {
      user: this.#toUser(row),
      key: {
        id: row._key_id,
        userId: row.id,
        name: row._key_name,
        lastUsedAt: row._key_last_used_at === null ? null : parseTimestamp(row._key_last_used_at),
        createdAt: parseTimestamp(row._key_created_at),
      },
    };
  }

  async delete(id: number): Promise<boolean> {
    return (await this.database.run("DELETE FROM users WHERE id = ?", [id])).changes > 0;
  }

  async updatePasswordDigest(
    id: number,
    passwordDigest: string,
    now: number,
    options: PasswordUpdateOptions = {},
  ): Promise<void> {
    const timestamp = formatTimestamp(now);
    const ending = options.endSignIns ? ", credentials_changed_at = ?" : "";
    await this.database.run(
      `UPDATE users SET password_digest = ?, updated_at = ?${ending} WHERE id = ?`,
      options.endSignIns
        ? [passwordDigest, timestamp, timestamp, id]
        : [passwordDigest, timestamp, id],
    );
  }

  async confirm(id: number, now: number): Promise<void> {
    const timestamp = formatTimestamp(now);
    await this.database.run(
      "UPDATE users SET confirmed_at = ?, updated_at = ? WHERE id = ? AND confirmed_at IS NULL",
      [timestamp, timestamp, id],
    );
  }

  async changeEmail(
    id: number,
    email: string,
    now: number,
  ): Promise<Result<User, "email-taken" | "not-found">> {
    const timestamp = formatTimestamp(now);
    try {
      const row = await this.database.get<UserRow>(
        `UPDATE users SET email = ?, confirmed_at = ?, updated_at = ? WHERE id = ? RETURNING ${this.#selected}`,
        [email, timestamp, timestamp, id],
      );
      return row ? ok(this.#toUser(row)) : fail("not-found");
    } catch (error) {
      if (isUniqueViolation(error)) return fail("email-taken");
      throw error;
    }
  }

  async updateColumns(
    id: number,
    columns: Readonly<Record<string, OperatorColumnValue>>,
    now: number,
  ): Promise<User | undefined> {
    // Only the operator's own columns, whose names were checked: input keys never become SQL.
    const names = this.#operatorColumns.filter((column) => Object.hasOwn(columns, column));
    const assignments = [...names.map((column) => `${column} = ?`), "updated_at = ?"];
    const row = await this.database.get<UserRow>(
      `UPDATE users SET ${assignments.join(", ")} WHERE id = ? RETURNING ${this.#selected}`,
      [...names.map((column) => toSqlValue(columns[column] ?? null)), formatTimestamp(now), id],
    );
    return row && this.#toUser(row);
  }

  async setRole(id: number, role: UserRole, now: number): Promise<boolean> {
    const result = await this.database.run(
      "UPDATE users SET role = ?, updated_at = ? WHERE id = ?",
      [role, formatTimestamp(now), id],
    );
    return result.changes > 0;
  }

  async ban(
    id: number,
    ban: { readonly reason: string; readonly until: number | null },
    now: number,
  ): Promise<User | undefined> {
    const timestamp = formatTimestamp(now);
    const until = ban.until === null ? null : formatTimestamp(ban.until);
    const row = await this.database.get<UserRow>(
      `UPDATE users SET banned_at = ?, banned_until = ?, ban_reason = ?, credentials_changed_at = ?,
       updated_at = ? WHERE id = ? RETURNING ${this.#selected}`,
      [timestamp, until, ban.reason, timestamp, timestamp, id],
    );
    return row && this.#toUser(row);
  }

  async endSignIns(id: number, now: number): Promise<boolean> {
    const timestamp = formatTimestamp(now);
    const result = await this.database.run(
      "UPDATE users SET credentials_changed_at = ?, updated_at = ? WHERE id = ?",
      [timestamp, timestamp, id],
    );
    return result.changes > 0;
  }

  async endImpersonations(id: number, now: number): Promise<boolean> {
    const timestamp = formatTimestamp(now);
    const result = await this.database.run(
      "UPDATE users SET impersonations_ended_at = ?, updated_at = ? WHERE id = ?",
      [timestamp, timestamp, id],
    );
    return result.changes > 0;
  }

  async unban(id: number, now: number): Promise<User | undefined> {
    const row = await this.database.get<UserRow>(
      `UPDATE users SET banned_at = NULL, banned_until = NULL, ban_reason = NULL, updated_at = ?
       WHERE id = ? RETURNING ${this.#selected}`,
      [formatTimestamp(now), id],
    );
    return row && this.#toUser(row);
  }

  async searchUsers(search: UserSearch): Promise<User[]> {
    const conditions: string[] = [];
    const params: SqlValue[] = [];
    const query = search.query?.trim().toLowerCase() ?? "";
    if (query !== "") {
      // LIKE's own characters in the query are matched as themselves.
      const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
      conditions.push(
        `(${this.#searchable.map((column) => `lower(${column}) LIKE ? ESCAPE '\\'`).join(" OR ")})`,
      );
      params.push(...this.#searchable.map(() => pattern));
    }
    if (search.after !== undefined) {
      conditions.push("id < ?");
      params.push(search.after);
    }
    const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
    const rows = await this.database.all<UserRow>(
      `SELECT ${this.#selected} FROM users ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [...params, search.limit, search.offset ?? 0],
    );
    return rows.map((row) => this.#toUser(row));
  }

  #toUser(row: UserRow): User {
    const columns: Record<string, OperatorColumnValue> = {};
    for (const column of this.#operatorColumns) columns[column] = fromSqlValue(row[column]);
    return {
      id: row.id,
      email: row.email,
      passwordDigest: row.password_digest,
      confirmedAt: row.confirmed_at === null ? null : parseTimestamp(row.confirmed_at),
      credentialsChangedAt:
        row.credentials_changed_at === null ? null : parseTimestamp(row.credentials_changed_at),
      createdAt: parseTimestamp(row.created_at),
      updatedAt: parseTimestamp(row.updated_at),
      columns,
      role: row.role === "admin" ? "admin" : "user",
      ban:
        row.banned_at === null
          ? null
          : {
              reason: row.ban_reason ?? "",
              at: parseTimestamp(row.banned_at),
              until: row.banned_until === null ? null : parseTimestamp(row.banned_until),
            },
      impersonationsEndedAt:
        row.impersonations_ended_at === null ? null : parseTimestamp(row.impersonations_ended_at),
    };
  }
}

function toSqlValue(value: OperatorColumnValue): SqlValue {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

function fromSqlValue(value: SqlValue | undefined): OperatorColumnValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) return null;
  return value;
}
