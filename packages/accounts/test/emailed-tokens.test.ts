import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authTokensMigration, SqlEmailedTokenStore, usersMigration } from "@tessera/accounts/sql";
import { sha256Hex } from "@tessera/crypto";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type {
  EmailedTokenPurpose,
  EmailedTokenStore,
} from "../src/email-link/emailed-token-store.js";
import {
  consumeEmailedToken,
  EMAILED_TOKEN_LIFETIME_MS,
  isEmailedTokenShape,
  issueEmailedToken,
  peekEmailedToken,
} from "../src/email-link/emailed-tokens.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-emailed-tokens-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 22, 10, 30, 0);
const MINUTE = 60_000;
const at = (ms: number) => () => ms;
const invalid = { ok: false, reason: "invalid" };

/** A real SQLite store with two users, and a log of the digests each store call received. */
async function tokenStore() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [usersMigration, authTokensMigration]);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    await database.run("INSERT INTO users (email, created_at, updated_at) VALUES (?, '', '')", [
      email,
    ]);
  }
  const sqlite = new SqlEmailedTokenStore(database);
  const calls: string[] = [];
  const store: EmailedTokenStore = {
    issue(token) {
      calls.push(`issue ${token.digest}`);
      return sqlite.issue(token);
    },
    consume(digest, purpose) {
      calls.push(`consume ${digest}`);
      return sqlite.consume(digest, purpose);
    },
    peek(digest, purpose) {
      calls.push(`peek ${digest}`);
      return sqlite.peek(digest, purpose);
    },
  };
  const rowCount = async () =>
    (await database.get<{ n: number }>("SELECT count(*) AS n FROM auth_tokens"))!.n;
  return { store, calls, rowCount };
}

describe("issueEmailedToken", () => {
  it("returns a fresh 43-character URL-safe token and hands the store only its digest", async () => {
    const { store, calls } = await tokenStore();
    const first = await issueEmailedToken(store, 1, "magic_link", at(T0));
    const second = await issueEmailedToken(store, 2, "magic_link", at(T0));
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(calls).toEqual([`issue ${sha256Hex(first)}`, `issue ${sha256Hex(second)}`]);
  });

  it("gives 15 minutes to sign-in and reset links and 24 hours to confirmations", () => {
    expect(EMAILED_TOKEN_LIFETIME_MS).toEqual({
      password_reset: 15 * MINUTE,
      magic_link: 15 * MINUTE,
      email_confirmation: 24 * 60 * MINUTE,
    });
  });
});

describe("consumeEmailedToken", () => {
  it("answers the owner once, then invalid", async () => {
    const { store, rowCount } = await tokenStore();
    const token = await issueEmailedToken(store, 2, "password_reset", at(T0));
    expect(await consumeEmailedToken(store, token, "password_reset", at(T0))).toEqual({
      ok: true,
      value: { userId: 2 },
    });
    expect(await rowCount()).toBe(0);
    expect(await consumeEmailedToken(store, token, "password_reset", at(T0))).toEqual(invalid);
  });

  for (const [purpose, lifetime] of [
    ["password_reset", 15 * MINUTE],
    ["magic_link", 15 * MINUTE],
    ["email_confirmation", 24 * 60 * MINUTE],
  ] as const) {
    it(`accepts a ${purpose} token until ${lifetime / MINUTE} minutes, not at that instant`, async () => {
      const { store, rowCount } = await tokenStore();
      const lastSecond = await issueEmailedToken(store, 1, purpose, at(T0));
      expect(
        await consumeEmailedToken(store, lastSecond, purpose, at(T0 + lifetime - 1000)),
      ).toEqual({ ok: true, value: { userId: 1 } });
      const expired = await issueEmailedToken(store, 1, purpose, at(T0));
      expect(await peekEmailedToken(store, expired, purpose, at(T0 + lifetime))).toEqual(invalid);
      expect(await consumeEmailedToken(store, expired, purpose, at(T0 + lifetime))).toEqual(
        invalid,
      );
      // An expired token that was tried is gone, not left behind.
      expect(await rowCount()).toBe(0);
    });
  }

  it("refuses a token for any purpose but its own, and leaves it usable for its own", async () => {
    const { store } = await tokenStore();
    const purposes: EmailedTokenPurpose[] = ["password_reset", "magic_link", "email_confirmation"];
    for (const purpose of purposes) {
      const token = await issueEmailedToken(store, 1, purpose, at(T0));
      for (const other of purposes.filter((candidate) => candidate !== purpose)) {
        expect(await peekEmailedToken(store, token, other, at(T0))).toEqual(invalid);
        expect(await consumeEmailedToken(store, token, other, at(T0))).toEqual(invalid);
      }
      expect((await consumeEmailedToken(store, token, purpose, at(T0))).ok).toBe(true);
    }
  });

  it("cancels the previous token of that user and purpose only", async () => {
    const { store } = await tokenStore();
    const previous = await issueEmailedToken(store, 1, "magic_link", at(T0));
    const reset = await issueEmailedToken(store, 1, "password_reset", at(T0));
    const bobs = await issueEmailedToken(store, 2, "magic_link", at(T0));
    const current = await issueEmailedToken(store, 1, "magic_link", at(T0 + MINUTE));

    expect(await consumeEmailedToken(store, previous, "magic_link", at(T0 + MINUTE))).toEqual(
      invalid,
    );
    for (const [token, purpose, userId] of [
      [current, "magic_link", 1],
      [reset, "password_reset", 1],
      [bobs, "magic_link", 2],
    ] as const) {
      expect(await consumeEmailedToken(store, token, purpose, at(T0 + MINUTE))).toEqual({
        ok: true,
        value: { userId },
      });
    }
  });

  it("refuses malformed tokens without asking the store", async () => {
    const { store, calls } = await tokenStore();
    const token = await issueEmailedToken(store, 1, "magic_link", at(T0));
    calls.length = 0;
    const malformed = [
      "",
      token.slice(1),
      `${token}A`,
      `${token.slice(1)}=`,
      `${token.slice(1)}+`,
      `${token.slice(1)}/`,
      ` ${token.slice(1)}`,
      `${token.slice(1)}é`,
      encodeURIComponent(token.replace(/./, "/")),
      sha256Hex(token),
    ];
    for (const text of malformed) {
      expect(isEmailedTokenShape(text)).toBe(false);
      expect(await consumeEmailedToken(store, text, "magic_link", at(T0))).toEqual(invalid);
      expect(await peekEmailedToken(store, text, "magic_link", at(T0))).toEqual(invalid);
    }
    expect(calls).toEqual([]);
    expect(isEmailedTokenShape(token)).toBe(true);
  });
});

describe("peekEmailedToken", () => {
  it("answers the owner as often as asked and leaves the token for its one use", async () => {
    const { store, rowCount } = await tokenStore();
    const token = await issueEmailedToken(store, 1, "email_confirmation", at(T0));
    for (let look = 0; look < 3; look++) {
      expect(await peekEmailedToken(store, token, "email_confirmation", at(T0))).toEqual({
        ok: true,
        value: { userId: 1 },
      });
    }
    expect(await rowCount()).toBe(1);
    expect((await consumeEmailedToken(store, token, "email_confirmation", at(T0))).ok).toBe(true);
    expect(await peekEmailedToken(store, token, "email_confirmation", at(T0))).toEqual(invalid);
  });
});
