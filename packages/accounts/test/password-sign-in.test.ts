import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqlUserStore, usersMigration } from "@tessera/accounts/sql";
import { hashPassword } from "@tessera/password";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { findUserByPassword } from "../src/password-sign-in.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-password-sign-in-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const PASSWORD = "correct horse battery";

/** A user whose stored digest was written with `iterations`, as another app may have left it. */
async function userWithDigestOf(iterations: number) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, [usersMigration]);
  const users = new SqlUserStore(database);
  const digest = await hashPassword(PASSWORD, { iterations });
  const created = await users.create(
    { email: "ada@example.com", passwordDigest: digest },
    Date.UTC(2026, 0, 1),
  );
  if (!created.ok) throw new Error("the email is free");
  const storedDigest = async () =>
    (await database.get<{ password_digest: string }>("SELECT password_digest FROM users"))!
      .password_digest;
  return { users, digest, storedDigest };
}

describe("findUserByPassword at the default 100000 iterations", () => {
  it("keeps a Django digest of 260000 iterations unchanged in the database", async () => {
    const { users, digest, storedDigest } = await userWithDigestOf(260_000);
    expect(await findUserByPassword(users, "ada@example.com", PASSWORD)).toMatchObject({
      email: "ada@example.com",
    });
    expect(await storedDigest()).toBe(digest);
  });

  it("replaces a digest of fewer iterations with one of 100000", async () => {
    const { users, storedDigest } = await userWithDigestOf(30_000);
    expect(await findUserByPassword(users, "ada@example.com", PASSWORD)).toBeDefined();
    expect(await storedDigest()).toMatch(/^pbkdf2_sha256\$100000\$/);
  });
});
