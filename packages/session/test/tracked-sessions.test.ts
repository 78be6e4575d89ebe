import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomToken, sha256Hex } from "@tessera/crypto";
import {
  SqlTrackedSessionStore,
  userSessionsFactorsMigration,
  userSessionsMigration,
} from "@tessera/session/sql";
import { applyMigrations, portableDdl } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { freshPostgresDatabase } from "../../../test/support/postgres.js";
import type { Session } from "../src/session.js";
import { MemoryTrackedSessionStore } from "../src/tracked-session-memory-store.js";
import type { TrackedSessionStore } from "../src/tracked-session-store.js";
import {
  checkTrackedSession,
  deleteExpiredTrackedSessions,
  endCurrentTrackedSession,
  endOtherTrackedSessions,
  endTrackedSession,
  LAST_SEEN_WRITE_INTERVAL_MS,
  listTrackedSessions,
  MAXIMUM_USER_AGENT_LENGTH,
  startTrackedSession,
  TRACKED_SESSION_VALUE,
} from "../src/tracked-sessions.js";
import { browserRequest, cookiePair, T0, testSessions } from "./fixtures.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-tracked-sessions-"));
const databases: { close(): void }[] = [];
afterAll(() => {
  for (const database of databases) database.close();
  rmSync(folder, { recursive: true, force: true });
});

const HOUR = LAST_SEEN_WRITE_INTERVAL_MS;
const TWO_WEEKS = 1_209_600_000;
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const ADA = 1;
const BOB = 2;

// The users table belongs to @tessera/accounts; this is the least of it the foreign key needs.
const usersMigration = {
  id: "0001_tessera_users",
  sql: portableDdl(
    "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL)",
  ),
};

let files = 0;
const stores: [string, () => Promise<TrackedSessionStore>][] = [
  ["memory", async () => new MemoryTrackedSessionStore()],
  [
    "SQLite file",
    async () => {
      const database = openSqliteFile(join(folder, `sessions-${++files}.db`));
      databases.push(database);
      await applyMigrations(database, [
        usersMigration,
        userSessionsMigration,
        userSessionsFactorsMigration,
      ]);
      await database.run("INSERT INTO users (email) VALUES (?), (?)", ["ada@x.test", "bob@x.test"]);
      return new SqlTrackedSessionStore(database);
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const database = await freshPostgresDatabase();
      await applyMigrations(database, [
        usersMigration,
        userSessionsMigration,
        userSessionsFactorsMigration,
      ]);
      await database.run("INSERT INTO users (email) VALUES (?), (?)", ["ada@x.test", "bob@x.test"]);
      return new SqlTrackedSessionStore(database);
    },
  ],
];

/**
 * The store, with a count of the last-seen writes it made and of those it was asked for.
 * `holdReads(n)` makes lookups wait until n of them have read, so n requests all see the row
 * before any of them writes: the worst interleaving of concurrent requests, made certain.
 */
function counting(store: TrackedSessionStore) {
  const counts = { asked: 0, written: 0 };
  let gate: { waiting: number; open: Promise<void>; release: () => void } | undefined;
  const counted: TrackedSessionStore = {
    create: (session) => store.create(session),
    async findByDigest(userId, digest) {
      const row = await store.findByDigest(userId, digest);
      if (gate) {
        const held = gate;
        if (--held.waiting === 0) held.release();
        await held.open;
      }
      return row;
    },
    listForUser: (userId, now) => store.listForUser(userId, now),
    async touchLastSeen(id, seenAt, staleAt) {
      counts.asked++;
      const wrote = await store.touchLastSeen(id, seenAt, staleAt);
      if (wrote) counts.written++;
      return wrote;
    },
    deleteForUser: (userId, id) => store.deleteForUser(userId, id),
    deleteOthersForUser: (userId, keepId) => store.deleteOthersForUser(userId, keepId),
    deleteExpired: (now) => store.deleteExpired(now),
  };
  const holdReads = (count: number) => {
    let release = () => {};
    const open = new Promise<void>((resolve) => {
      release = resolve;
    });
    gate = { waiting: count, open, release };
  };
  return { store: counted, counts, holdReads };
}

describe.each(stores)("tracked sessions (%s store)", (_name, openStore) => {
  async function setUp() {
    const { sessions, clock } = testSessions();
    const { store, counts, holdReads } = counting(await openStore());

    /** A browser: a cookie jar of one cookie, and a request that reads and commits it. */
    function browser(cookie?: string) {
      const jar = {
        cookie,
        async visit<T>(handle: (session: Session) => Promise<T>): Promise<T> {
          const session = await sessions.read(browserRequest("http://app.test/", jar.cookie));
          const result = await handle(session);
          const setCookie = await sessions.setCookie(session);
          if (setCookie !== undefined) {
            jar.cookie = setCookie.includes("Max-Age=0") ? undefined : cookiePair(setCookie);
          }
          return result;
        },
        signIn(
          userId: number,
          userAgent: string | null = FIREFOX,
          ipAddress = "203.0.113.7",
          factors?: readonly string[],
        ) {
          return jar.visit(async (session) => {
            session.signIn(userId);
            return startTrackedSession(store, session, {
              ipAddress,
              userAgent,
              clock,
              ...(factors ? { factors } : {}),
            });
          });
        },
        check: () => jar.visit((session) => checkTrackedSession(store, session, clock)),
        token: () => jar.visit(async (session) => session.get(TRACKED_SESSION_VALUE)),
      };
      return jar;
    }
    const lastSeen = async (userId: number) =>
      (await listTrackedSessions(store, userId, clock)).map((row) => row.lastSeenAt);
    return { store, counts, holdReads, clock, browser, lastSeen };
  }

  it("records one row per sign-in: browser, address, factors, and the cookie sign-in's expiry", async () => {
    const { store, clock, browser } = await setUp();
    const laptop = browser();
    const started = await laptop.signIn(ADA, FIREFOX, "203.0.113.7");
    clock.set(T0 + 60_000);
    const desktop = browser();
    await desktop.signIn(ADA, CHROME, "2001:db8::1", ["password", "totp"]);
    expect(await listTrackedSessions(store, ADA, clock)).toEqual([
      {
        id: started.id + 1,
        userId: ADA,
        ipAddress: "2001:db8::1",
        browser: "Chrome 120 on Windows",
        userAgent: CHROME,
        lastSeenAt: T0 + 60_000,
        expiresAt: T0 + 60_000 + TWO_WEEKS,
        createdAt: T0 + 60_000,
        factors: ["password", "totp"],
      },
      {
        id: started.id,
        userId: ADA,
        ipAddress: "203.0.113.7",
        browser: "Firefox 128 on Linux",
        userAgent: FIREFOX,
        lastSeenAt: T0,
        expiresAt: T0 + TWO_WEEKS,
        createdAt: T0,
        factors: [],
      },
    ]);
    expect(started).toEqual((await listTrackedSessions(store, ADA, clock))[1]);
  });

  it("keeps a fresh 256-bit token in the cookie and finds the row by its digest alone", async () => {
    const { store, browser } = await setUp();
    const first = browser();
    const second = browser();
    const row = await first.signIn(ADA);
    await second.signIn(ADA);
    const token = await first.token();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await second.token()).not.toBe(token);
    expect(await store.findByDigest(ADA, sha256Hex(token!))).toEqual(row);
    expect(await store.findByDigest(ADA, token!)).toBeUndefined();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(sha256Hex(token!));
  });

  it("gives the current row on every check, and nothing to a visitor", async () => {
    const { browser } = await setUp();
    const device = browser();
    const row = await device.signIn(ADA);
    expect(await device.check()).toEqual({ ok: true, value: row });
    const visitor = browser();
    expect(await visitor.check()).toEqual({ ok: false, reason: "not-signed-in" });
    expect(visitor.cookie).toBeUndefined();
  });

  it("signs a device out at its next check once its row is deleted, and only that device", async () => {
    const { store, browser } = await setUp();
    const phone = browser();
    const laptop = browser();
    const phoneRow = await phone.signIn(ADA);
    const laptopRow = await laptop.signIn(ADA);

    expect(await endTrackedSession(store, ADA, phoneRow.id)).toBe(true);
    expect(await laptop.check()).toEqual({ ok: true, value: laptopRow });
    expect(await phone.check()).toEqual({ ok: false, reason: "ended" });
    expect(phone.cookie).toBeUndefined();
    expect(await phone.visit(async (session) => session.userId)).toBeUndefined();
    expect(await endTrackedSession(store, ADA, phoneRow.id)).toBe(false);
  });

  it("stops a copied cookie as soon as its row is deleted", async () => {
    const { store, browser } = await setUp();
    const owner = browser();
    const row = await owner.signIn(ADA);
    const thief = browser(owner.cookie);
    expect(await thief.check()).toEqual({ ok: true, value: row });

    expect(await endOtherTrackedSessions(store, ADA)).toBe(1);
    expect(await thief.check()).toEqual({ ok: false, reason: "ended" });
    expect(await owner.check()).toEqual({ ok: false, reason: "ended" });
  });

  it("writes the last-seen time at most once an hour, asking the store only when it is due", async () => {
    const { counts, clock, browser, lastSeen } = await setUp();
    const device = browser();
    await device.signIn(ADA);

    for (const offset of [1000, 59 * 60_000, HOUR - 1000]) {
      clock.set(T0 + offset);
      expect((await device.check()).ok).toBe(true);
    }
    expect(await lastSeen(ADA)).toEqual([T0]);
    expect(counts).toEqual({ asked: 0, written: 0 });

    clock.set(T0 + HOUR);
    expect((await device.check()).ok).toBe(true);
    expect(await lastSeen(ADA)).toEqual([T0 + HOUR]);

    clock.set(T0 + 2 * HOUR - 1000);
    expect((await device.check()).ok).toBe(true);
    clock.set(T0 + 3 * HOUR + 1500);
    expect((await device.check()).ok).toBe(true);
    expect(await lastSeen(ADA)).toEqual([T0 + 3 * HOUR + 1000]);
    expect(counts).toEqual({ asked: 2, written: 2 });
  });

  it("writes the last-seen time once however many requests of one device race for it", async () => {
    const { counts, holdReads, clock, browser, lastSeen } = await setUp();
    const device = browser();
    const row = await device.signIn(ADA);
    const copies = Array.from({ length: 20 }, () => browser(device.cookie));
    clock.set(T0 + 2 * HOUR);
    holdReads(copies.length);
    const checks = await Promise.all(copies.map((copy) => copy.check()));
    expect(checks.every((check) => check.ok && check.value.id === row.id)).toBe(true);
    expect(counts).toEqual({ asked: 20, written: 1 });
    expect(await lastSeen(ADA)).toEqual([T0 + 2 * HOUR]);
  });

  it("refuses an expired row even while the cookie lives, deletes it, and signs out", async () => {
    const { store, clock, browser } = await setUp();
    // A row that ends before its cookie, as one left by a shorter session lifetime would.
    const device = browser();
    const token = randomToken();
    await device.visit(async (session) => {
      session.signIn(ADA);
      session.set(TRACKED_SESSION_VALUE, token);
    });
    const row = await store.create({
      userId: ADA,
      digest: sha256Hex(token),
      ipAddress: null,
      browser: "curl",
      userAgent: "curl/8.5.0",
      expiresAt: T0 + HOUR,
      createdAt: T0,
    });
    clock.set(T0 + HOUR - 1000);
    expect(await device.check()).toEqual({ ok: true, value: row });
    clock.set(T0 + HOUR);
    expect(await device.check()).toEqual({ ok: false, reason: "expired" });
    expect(device.cookie).toBeUndefined();
    expect(await store.findByDigest(ADA, sha256Hex(token))).toBeUndefined();
  });

  it("lists only live sessions, and cleans up the expired ones of every user", async () => {
    const { store, clock, browser } = await setUp();
    await browser().signIn(ADA);
    await browser().signIn(BOB);
    clock.set(T0 + 3 * HOUR);
    const later = await browser().signIn(ADA);

    clock.set(T0 + TWO_WEEKS - 1000);
    expect(await listTrackedSessions(store, ADA, clock)).toHaveLength(2);
    expect(await deleteExpiredTrackedSessions(store, clock())).toBe(0);

    clock.set(T0 + TWO_WEEKS);
    expect(await listTrackedSessions(store, ADA, clock)).toEqual([later]);
    expect(await listTrackedSessions(store, BOB, clock)).toEqual([]);
    expect(await deleteExpiredTrackedSessions(store, clock())).toBe(2);
    clock.set(T0);
    expect(await listTrackedSessions(store, ADA, clock)).toEqual([later]);
    expect(await listTrackedSessions(store, BOB, clock)).toEqual([]);
  });

  it("never touches another user's session: ending it is false and the row stays", async () => {
    const { store, clock, browser } = await setUp();
    const adas = browser();
    const bobs = browser();
    const adaRow = await adas.signIn(ADA);
    const bobRow = await bobs.signIn(BOB);
    const bobToken = await bobs.token();

    expect(await endTrackedSession(store, ADA, bobRow.id)).toBe(false);
    expect(await store.findByDigest(ADA, sha256Hex(bobToken!))).toBeUndefined();
    expect(await endOtherTrackedSessions(store, ADA, adaRow.id)).toBe(0);
    expect(await listTrackedSessions(store, BOB, clock)).toEqual([bobRow]);
    expect(await bobs.check()).toEqual({ ok: true, value: bobRow });
  });

  it("ends every other session of the user, keeping the current one", async () => {
    const { store, clock, browser } = await setUp();
    const current = browser();
    const others = [browser(), browser(), browser()];
    const currentRow = await current.signIn(ADA);
    for (const other of others) await other.signIn(ADA);
    const bobs = browser();
    await bobs.signIn(BOB);

    expect(await endOtherTrackedSessions(store, ADA, currentRow.id)).toBe(3);
    expect(await listTrackedSessions(store, ADA, clock)).toEqual([currentRow]);
    expect(await current.check()).toEqual({ ok: true, value: currentRow });
    for (const other of others) expect((await other.check()).ok).toBe(false);
    expect((await bobs.check()).ok).toBe(true);
    expect(await endOtherTrackedSessions(store, ADA, currentRow.id)).toBe(0);
  });

  it("signs out a sign-in that has no token: with tracked sessions on, each needs a row", async () => {
    const { browser } = await setUp();
    const device = browser();
    await device.visit(async (session) => session.signIn(ADA));
    expect(await device.check()).toEqual({ ok: false, reason: "untracked" });
    expect(device.cookie).toBeUndefined();
  });

  it("ends this browser's own session at logout: row deleted, session signed out", async () => {
    const { store, clock, browser } = await setUp();
    const leaving = browser();
    const staying = browser();
    await leaving.signIn(ADA);
    const stayingRow = await staying.signIn(ADA);
    expect(await leaving.visit((session) => endCurrentTrackedSession(store, session))).toBe(true);
    expect(leaving.cookie).toBeUndefined();
    expect(await listTrackedSessions(store, ADA, clock)).toEqual([stayingRow]);
    expect(await browser().visit((session) => endCurrentTrackedSession(store, session))).toBe(
      false,
    );
  });

  it("keeps no empty address or agent, and cuts a long agent", async () => {
    const { browser } = await setUp();
    const anonymous = await browser().signIn(ADA, "   ", "");
    expect(anonymous).toMatchObject({
      ipAddress: null,
      userAgent: null,
      browser: "Unknown browser",
    });
    const long = `${FIREFOX} ${"x".repeat(1000)}`;
    const cut = await browser().signIn(ADA, long);
    expect(cut.userAgent).toBe(long.slice(0, MAXIMUM_USER_AGENT_LENGTH));
    expect(cut.browser).toBe("Firefox 128 on Linux");
  });

  it("refuses to start without a signed-in session", async () => {
    const { store, clock, browser } = await setUp();
    await browser().visit(async (session) => {
      await expect(
        startTrackedSession(store, session, { ipAddress: null, userAgent: null, clock }),
      ).rejects.toThrow(TypeError);
      expect(session.get(TRACKED_SESSION_VALUE)).toBeUndefined();
    });
  });
});
