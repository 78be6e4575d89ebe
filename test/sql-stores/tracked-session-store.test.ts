import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Hex } from "@tessera/crypto";
import {
  createSessionCookies,
  type Session,
  startTrackedSession,
  TRACKED_SESSION_VALUE,
} from "@tessera/session";
import {
  SqlTrackedSessionStore,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "@tessera/session/sql";
import { applyMigrations, isUniqueViolation } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "tessera-user-sessions-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const HOUR = 3_600_000;
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

// The users table belongs to @tessera/accounts; this is the least of it the foreign key needs.
const usersMigration = {
  id: "0001_tessera_users",
  sql: "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL)",
};

interface UserSessionRow {
  id: number;
  user_id: number;
  digest: string;
  ip_address: string | null;
  browser: string;
  user_agent: string | null;
  last_seen_at: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

const cookies = createSessionCookies({
  appName: "tessera",
  secrets: { current: "s".repeat(32) },
  clock: () => T0,
});

let files = 0;
async function setUp() {
  const database = openSqliteFile(join(folder, `sessions-${++files}.db`));
  // Given in the wrong order on purpose: ids decide the order, so user_sessions follows users.
  expect(
    await applyMigrations(database, [
      userSessionsFactorsMigration,
      userSessionsMigration,
      usersMigration,
    ]),
  ).toEqual([
    "0001_tessera_users",
    "0005_tessera_user_sessions",
    "0010_tessera_user_sessions_factors",
  ]);
  await database.run("INSERT INTO users (email) VALUES (?), (?)", ["ada@x.test", "bob@x.test"]);
  const store = new SqlTrackedSessionStore(database);
  /** Signs `userId` in on a fresh cookie session and records it; gives the cookie's token. */
  const signIn = async (userId: number, userAgent: string | null = FIREFOX) => {
    const session: Session = await cookies.read(new Request("http://app.test/login"));
    session.signIn(userId);
    const tracked = await startTrackedSession(store, session, {
      ipAddress: "198.51.100.4",
      userAgent,
      clock: () => T0,
    });
    return { tracked, token: session.get(TRACKED_SESSION_VALUE)! };
  };
  const rows = () => database.all<UserSessionRow>("SELECT * FROM user_sessions ORDER BY id");
  return { database, store, signIn, rows };
}

describe("SqlTrackedSessionStore", () => {
  it("creates user_sessions with an index on user_id", async () => {
    const { database } = await setUp();
    const indexes = await database.all<{ name: string }>("PRAGMA index_list(user_sessions)");
    expect(indexes.map((index) => index.name)).toContain("user_sessions_user_id");
    const columns = await database.all<{ name: string; notnull: number }>(
      "PRAGMA table_info(user_sessions)",
    );
    expect(columns.map(({ name, notnull }) => [name, notnull])).toEqual([
      ["id", 0],
      ["user_id", 1],
      ["digest", 1],
      ["ip_address", 0],
      ["browser", 1],
      ["user_agent", 0],
      ["last_seen_at", 1],
      ["expires_at", 1],
      ["created_at", 1],
      ["updated_at", 1],
      ["factors", 1],
    ]);
    database.close();
  });

  it("stores the token's digest and never the token, and returns rows without either", async () => {
    const { database, signIn, rows } = await setUp();
    const { tracked, token } = await signIn(1);
    expect(await rows()).toEqual([
      {
        id: tracked.id,
        user_id: 1,
        digest: sha256Hex(token),
        ip_address: "198.51.100.4",
        browser: "Firefox 128 on Linux",
        user_agent: FIREFOX,
        last_seen_at: "2025-01-01 08:00:00",
        expires_at: "2025-01-15 08:00:00",
        created_at: "2025-01-01 08:00:00",
        updated_at: "2025-01-01 08:00:00",
        factors: "",
      },
    ]);
    expect(JSON.stringify(await rows())).not.toContain(token);
    expect(Object.keys(tracked).sort()).toEqual([
      "browser",
      "createdAt",
      "expiresAt",
      "factors",
      "id",
      "ipAddress",
      "lastSeenAt",
      "userAgent",
      "userId",
    ]);
    database.close();
  });

  it("refuses a second row with the same digest", async () => {
    const { database, store } = await setUp();
    const session = {
      userId: 1,
      digest: sha256Hex("x"),
      ipAddress: null,
      browser: "curl",
      userAgent: null,
      expiresAt: T0 + HOUR,
      createdAt: T0,
    };
    await store.create(session);
    const error = await store.create({ ...session, userId: 2 }).catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    database.close();
  });

  it("scopes every lookup and delete by owner in the statement itself", async () => {
    const { database, store, signIn, rows } = await setUp();
    const { tracked, token } = await signIn(1);
    expect(await store.findByDigest(2, sha256Hex(token))).toBeUndefined();
    expect(await store.deleteForUser(2, tracked.id)).toBe(false);
    expect(await store.deleteOthersForUser(2, undefined)).toBe(0);
    expect(await rows()).toHaveLength(1);
    expect(await store.deleteForUser(1, tracked.id)).toBe(true);
    expect(await rows()).toEqual([]);
    database.close();
  });

  it("deletes all of a user's sessions when none is kept, and no one else's", async () => {
    const { database, store, signIn, rows } = await setUp();
    await signIn(1);
    await signIn(1);
    const { tracked: bobs } = await signIn(2);
    expect(await store.deleteOthersForUser(1, undefined)).toBe(2);
    expect((await rows()).map((row) => row.id)).toEqual([bobs.id]);
    database.close();
  });

  it("deletes a user's sessions with the user", async () => {
    const { database, signIn, rows } = await setUp();
    await signIn(1);
    await signIn(1);
    await signIn(2);
    await database.run("DELETE FROM users WHERE id = ?", [1]);
    expect((await rows()).map((row) => row.user_id)).toEqual([2]);
    database.close();
  });

  it("moves last_seen_at only when it is at or before the stale time, with updated_at", async () => {
    const { database, store, signIn, rows } = await setUp();
    const { tracked } = await signIn(1);
    expect(await store.touchLastSeen(tracked.id, T0 + HOUR - 1000, T0 - 1000)).toBe(false);
    expect(await store.touchLastSeen(tracked.id, T0 + HOUR, T0)).toBe(true);
    expect(await rows()).toMatchObject([
      {
        last_seen_at: "2025-01-01 09:00:00",
        updated_at: "2025-01-01 09:00:00",
        created_at: "2025-01-01 08:00:00",
      },
    ]);
    database.close();
  });

  it("writes last_seen_at once however many requests race for it, on two connections", async () => {
    const { database, store, signIn } = await setUp();
    const { tracked } = await signIn(1);
    const second = openSqliteFile(join(folder, `sessions-${files}.db`));
    const other = new SqlTrackedSessionStore(second);
    const writes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? store : other).touchLastSeen(tracked.id, T0 + 2 * HOUR, T0 + HOUR),
      ),
    );
    expect(writes.filter(Boolean)).toHaveLength(1);
    second.close();
    database.close();
  });

  it("lists a user's live sessions, most recently seen first, and deletes expired ones", async () => {
    const { database, store, signIn } = await setUp();
    const { tracked: first } = await signIn(1);
    const { tracked: second } = await signIn(1);
    await store.touchLastSeen(first.id, T0 + 2 * HOUR, T0 + HOUR);
    const shortLived = await store.create({
      userId: 1,
      digest: sha256Hex("short"),
      ipAddress: null,
      browser: "curl",
      userAgent: "curl/8.5.0",
      expiresAt: T0 + 3 * HOUR,
      createdAt: T0 + HOUR,
    });
    const ids = async (now: number) => (await store.listForUser(1, now)).map((row) => row.id);
    expect(await ids(T0 + 3 * HOUR - 1000)).toEqual([first.id, shortLived.id, second.id]);
    expect(await ids(T0 + 3 * HOUR)).toEqual([first.id, second.id]);
    expect(await store.deleteExpired(T0 + 3 * HOUR - 1000)).toBe(0);
    expect(await store.deleteExpired(T0 + 3 * HOUR)).toBe(1);
    expect(await ids(T0)).toEqual([first.id, second.id]);
    database.close();
  });
});
