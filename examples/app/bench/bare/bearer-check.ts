import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Database, Statement } from "better-sqlite3";
import { sqlTimestamp } from "./timestamp.js";

/** A user row as the app reads it (every column of `users` its store selects). */
export interface UserRow {
  readonly id: number;
  readonly email: string;
  readonly password_digest: string | null;
  readonly confirmed_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly name: string | null;
}

const USER_COLUMNS = "id, email, password_digest, confirmed_at, created_at, updated_at, name";
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAXIMUM_JWT_LENGTH = 4096;
const LAST_USED_WRITE_INTERVAL_MS = 3_600_000;

/**
 * Bearer authentication by hand: an HS256 JWT (signature, `alg`, `sub`/`iat`/`exp`, expiry)
 * then the user's row, or an API key (its SHA-256, one SELECT joining the user, and the
 * last-used stamp when an hour old, as the app does). No memory of verified tokens or users:
 * every request checks the signature and reads the database.
 */
export class BearerCheck {
  readonly #findUser: Statement<[number], UserRow>;
  readonly #findByKeyDigest: Statement<
    [string],
    UserRow & { _key_id: number; _key_last_used_at: string | null }
  >;
  readonly #touchKey: Statement<[string, string, number, string]>;

  constructor(
    database: Database,
    private readonly jwtKey: Buffer,
  ) {
    this.#findUser = database.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`);
    this.#findByKeyDigest = database.prepare(`SELECT ${USER_COLUMNS.split(", ")
      .map((column) => `users.${column}`)
      .join(", ")}, api_keys.id AS _key_id,
  api_keys.name AS _key_name, api_keys.last_used_at AS _key_last_used_at,
  api_keys.created_at AS _key_created_at
FROM api_keys JOIN users ON users.id = api_keys.user_id WHERE api_keys.digest = ?`);
    this.#touchKey = database.prepare(`UPDATE api_keys SET last_used_at = ?, updated_at = ?
       WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`);
  }

  /** The user the request's `Authorization: Bearer` names, or undefined (answer 401). */
  user(request: IncomingMessage, now: number): UserRow | undefined {
    const header = request.headers.authorization;
    if (header === undefined || !header.startsWith("Bearer ")) return undefined;
    const credential = header.slice(7);
    if (credential.includes(".")) {
      const subject = this.#verifyJwt(credential, now);
      return subject === undefined ? undefined : this.#findUser.get(subject);
    }
    return this.#apiKeyUser(credential, now);
  }

  #verifyJwt(token: string, now: number): number | undefined {
    if (token.length > MAXIMUM_JWT_LENGTH || !COMPACT_JWS.test(token)) return undefined;
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const expected = createHmac("sha256", this.jwtKey).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const protectedHeader = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
      if (protectedHeader?.alg !== "HS256") return undefined;
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      const { sub, iat, exp } = claims ?? {};
      if (typeof sub !== "string" || sub === "" || typeof iat !== "number") return undefined;
      if (typeof exp !== "number" || now >= exp * 1000) return undefined;
      const id = Number(sub);
      return Number.isSafeInteger(id) && id > 0 ? id : undefined;
    } catch {
      return undefined;
    }
  }

  #apiKeyUser(key: string, now: number): UserRow | undefined {
    const digest = createHash("sha256").update(key).digest("hex");
    const row = this.#findByKeyDigest.get(digest);
    if (row === undefined) return undefined;
    const staleAt = sqlTimestamp(now - LAST_USED_WRITE_INTERVAL_MS);
    if (row._key_last_used_at === null || row._key_last_used_at <= staleAt) {
      const usedAt = sqlTimestamp(now);
      this.#touchKey.run(usedAt, usedAt, row._key_id, staleAt);
    }
    return row;
  }
}
