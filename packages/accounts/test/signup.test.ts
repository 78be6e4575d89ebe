import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqlUserStore, userMigrations } from "@tessera/accounts/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { nameColumn } from "../src/profile/operator-columns.js";
import { signUp } from "../src/users/signup.js";
import { userJson } from "../src/users/user.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-accounts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const passwords = { iterations: 1000 };
const clock = () => Date.UTC(2026, 10, 22, 10, 30, 0);

async function userStore() {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [
    ...userMigrations,
    { id: "0100_users_name", sql: "ALTER TABLE users ADD COLUMN name TEXT" },
  ]);
  return { database, users: new SqlUserStore(database, ["name"]) };
}

describe("signUp", () => {
  it("creates a user with a normalized email, a pbkdf2 digest and UTC timestamps", async () => {
    const { users, database } = await userStore();
    const result = await signUp(
      { users, clock, passwords, operatorColumns: [nameColumn] },
      { email: "  Ada@Example.COM ", password: "correct horse", name: "  Ada Lovelace " },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(userJson(result.user, [nameColumn])).toEqual({
      id: 1,
      email: "ada@example.com",
      created_at: "2026-11-22 10:30:00",
      updated_at: "2026-11-22 10:30:00",
      name: "Ada Lovelace",
    });
    const row = await database.get<{ password_digest: string; confirmed_at: null }>(
      "SELECT password_digest, confirmed_at FROM users WHERE id = 1",
    );
    expect(row?.password_digest).toMatch(
      /^pbkdf2_sha256\$1000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9+/]{43}=$/,
    );
    expect(row?.confirmed_at).toBeNull();
  });

  it("reports every failing field at once", async () => {
    const { users } = await userStore();
    const result = await signUp(
      { users, passwords, operatorColumns: [nameColumn] },
      { email: "not an email", password: "short", name: "x".repeat(101) },
    );
    expect(result).toEqual({
      ok: false,
      fields: {
        email: ["is invalid"],
        password: ["is too short (minimum is 8 characters)"],
        name: ["is too long (maximum is 100 characters)"],
      },
    });
  });

  it("says can't be blank for blank email and password, and too long for 129 characters", async () => {
    const { users } = await userStore();
    expect(await signUp({ users, passwords }, { email: "   ", password: "" })).toEqual({
      ok: false,
      fields: { email: ["can't be blank"], password: ["can't be blank"] },
    });
    expect(
      await signUp({ users, passwords }, { email: "a@b.co", password: "p".repeat(129) }),
    ).toEqual({
      ok: false,
      fields: { password: ["is too long (maximum is 128 characters)"] },
    });
  });

  it("refuses an email taken in another case or width, with the other fields' messages too", async () => {
    const { users } = await userStore();
    await signUp({ users, passwords }, { email: "grace@example.com", password: "password1" });
    expect(
      await signUp({ users, passwords }, { email: "GRACE@EXAMPLE.COM", password: "password1" }),
    ).toEqual({
      ok: false,
      fields: { email: ["has already been taken"] },
    });
    expect(
      await signUp({ users, passwords }, { email: "ｇｒａｃｅ@example.com", password: "x" }),
    ).toEqual({
      ok: false,
      fields: {
        email: ["has already been taken"],
        password: ["is too short (minimum is 8 characters)"],
      },
    });
  });

  it("lets exactly one of two simultaneous sign-ups with one email win", async () => {
    const { users } = await userStore();
    const results = await Promise.all(
      ["race@example.com", "Race@Example.com"].map((email) =>
        signUp({ users, passwords }, { email, password: "password1" }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toEqual({
      ok: false,
      fields: { email: ["has already been taken"] },
    });
  });

  it("stores an empty or blank name as null and ignores columns not accepted at sign-up", async () => {
    const { users } = await userStore();
    const result = await signUp(
      { users, passwords, operatorColumns: [nameColumn] },
      { email: "n@example.com", password: "password1", name: "   " },
    );
    expect(result.ok && result.user.columns).toEqual({ name: null });
    const typed = await signUp(
      { users, passwords, operatorColumns: [nameColumn] },
      { email: "m@example.com", password: "password1", name: 42 },
    );
    expect(typed).toEqual({ ok: false, fields: { name: ["must be a string"] } });
  });
});
