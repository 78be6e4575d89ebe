import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqlUserStore, userMigrations } from "@tessera/accounts/sql";
import { hashPassword } from "@tessera/password";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { findUserByPassword } from "../src/password/password-sign-in.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-password-sign-in-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const PASSWORD = "correct horse battery";

/** A user whose stored digest was written with `iterations`, as another app may have left it. */
async function userWithDigestOf(iterations: number) {
  const database = openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  await applyMigrations(database, userMigrations);
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

describe("findUserByPassword on a runtime that caps native PBKDF2", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("refuses a digest above the runtime's limits like a wrong password, and says why on stderr", async () => {
    const { users, digest, storedDigest } = await userWithDigestOf(3000);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const limits = {
      iterations: 1000,
      maximumNativeIterations: 1000,
      maximumFallbackIterations: 2000,
    };
    expect(
      await findUserByPassword(users, "ada@example.com", PASSWORD, { passwords: limits }),
    ).toBeUndefined();
    expect(logged.mock.calls).toEqual([
      [
        "Cannot verify the password of user 1: its digest has 3000 iterations, above the 2000 this runtime verifies; the sign-in was refused as a wrong password. Raise maximumFallbackIterations, or have the user reset the password.",
      ],
    ]);
    expect(await storedDigest()).toBe(digest);
    // Within the pure-JS budget the same digest verifies, and nothing is logged.
    logged.mockClear();
    expect(
      await findUserByPassword(users, "ada@example.com", PASSWORD, {
        passwords: { ...limits, maximumFallbackIterations: 3000 },
      }),
    ).toMatchObject({ email: "ada@example.com" });
    expect(logged).not.toHaveBeenCalled();
  });
});
