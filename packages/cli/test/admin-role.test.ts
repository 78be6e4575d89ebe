// `tessera admin grant|revoke <email>` run as the command runs (in process), on SQLite files made
// by `generate accounts` and `migrate`, and on the test run's PostgreSQL.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostgresSchema, postgresUrl } from "../../../test/support/postgres.js";
import { ACCOUNT_MIGRATIONS } from "./support/app-migration.js";
import { tessera } from "./support/tessera-process.js";

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), "tessera-admin-"));
});
afterEach(() => {
  rmSync(app, { recursive: true, force: true });
});

const CREATED = "2026-01-01 00:00:00";

/** The account migrations generated and applied to `data/app.db`, leaving out `skip`'s file. */
async function migratedApp(skip?: string): Promise<void> {
  expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
  if (skip) {
    const file = ACCOUNT_MIGRATIONS.find((name) => name.endsWith(skip));
    expect(file, skip).toBeDefined();
    rmSync(join(app, "migrations", `${file}.sql`));
  }
  expect((await tessera(["migrate"], app)).status).toBe(0);
}

/** Runs `sql` on the app's SQLite file; the rows it returns. */
function sqlite(sql: string, params: unknown[] = []): unknown[] {
  const database = new Database(join(app, "data/app.db"));
  try {
    const statement = database.prepare(sql);
    if (statement.reader) return statement.all(...params);
    statement.run(...params);
    return [];
  } finally {
    database.close();
  }
}

/** Adds a user with `email`, its address confirmed or not; its id. */
function addUser(email: string, confirmed: boolean): number {
  const [row] = sqlite(
    "INSERT INTO users (email, confirmed_at, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
    [email, confirmed ? CREATED : null, CREATED, CREATED],
  ) as [{ id: number }];
  return row.id;
}

function roleOf(email: string): unknown {
  return (sqlite("SELECT role FROM users WHERE email = ?", [email])[0] as { role: string }).role;
}

function auditRows(): unknown[] {
  return sqlite(
    "SELECT type, user_id, actor_id, ip, user_agent, details FROM audit_events ORDER BY id",
  );
}

/** The row `user.role_changed` appends for `userId`. */
function roleChanged(userId: number, role: "admin" | "user") {
  return {
    type: "user.role_changed",
    user_id: userId,
    actor_id: null,
    ip: null,
    user_agent: null,
    details: JSON.stringify({ role }),
  };
}

describe("tessera admin on SQLite", () => {
  it("grants the role to a confirmed account by its normalized address, and records it", async () => {
    await migratedApp();
    const ada = addUser("ada@example.com", true);
    addUser("bob@example.com", true);
    const run = await tessera(["admin", "grant", " Ada@EXAMPLE.com "], app);
    expect(run).toEqual({
      status: 0,
      stdout: "data/app.db: ada@example.com is an admin now\n",
      stderr: "",
    });
    expect(roleOf("ada@example.com")).toBe("admin");
    expect(roleOf("bob@example.com")).toBe("user");
    expect(auditRows()).toEqual([roleChanged(ada, "admin")]);
  });

  it("says an admin is one already, and records nothing more", async () => {
    await migratedApp();
    const ada = addUser("ada@example.com", true);
    expect((await tessera(["admin", "grant", "ada@example.com"], app)).status).toBe(0);
    const again = await tessera(["admin", "grant", "ada@example.com"], app);
    expect(again).toEqual({
      status: 0,
      stdout: "data/app.db: ada@example.com is an admin already\n",
      stderr: "",
    });
    expect(roleOf("ada@example.com")).toBe("admin");
    expect(auditRows()).toEqual([roleChanged(ada, "admin")]);
  });

  it("revokes the role, once, and records it", async () => {
    await migratedApp();
    const ada = addUser("ada@example.com", true);
    expect((await tessera(["admin", "grant", "ada@example.com"], app)).status).toBe(0);
    const revoked = await tessera(["admin", "revoke", "ADA@example.com"], app);
    expect(revoked).toEqual({
      status: 0,
      stdout: "data/app.db: ada@example.com is no longer an admin\n",
      stderr: "",
    });
    expect(roleOf("ada@example.com")).toBe("user");
    const again = await tessera(["admin", "revoke", "ada@example.com"], app);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe("data/app.db: ada@example.com is not an admin (nothing to revoke)\n");
    expect(auditRows()).toEqual([roleChanged(ada, "admin"), roleChanged(ada, "user")]);
  });

  it("notes a revoked address that ADMIN_EMAILS still lists", async () => {
    await migratedApp();
    addUser("ada@example.com", true);
    await tessera(["admin", "grant", "ada@example.com"], app);
    const run = await tessera(["admin", "revoke", "ada@example.com", "--json"], app, {
      ADMIN_EMAILS: "root@example.com, Ada@example.com",
    });
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      email: "ada@example.com",
      role: "user",
      changed: true,
      notes: [
        "ADMIN_EMAILS lists ada@example.com: an app started with that setting still treats the account as an admin",
      ],
    });
  });

  it("prints one JSON object with --json, for a change and for a refusal", async () => {
    await migratedApp();
    addUser("ada@example.com", true);
    const granted = await tessera(["admin", "grant", "ada@example.com", "--json"], app);
    expect(granted.status).toBe(0);
    expect(JSON.parse(granted.stdout)).toEqual({
      ok: true,
      email: "ada@example.com",
      role: "admin",
      changed: true,
    });
    const again = await tessera(["admin", "grant", "ada@example.com", "--json"], app);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, changed: false });
    const refused = await tessera(["admin", "revoke", "nobody@example.com", "--json"], app);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({
      ok: false,
      error: "no account has the address `nobody@example.com`",
      hint: "check the address, and that --database, DATABASE_URL or DATABASE_PATH names the app's database",
    });
  });

  it("refuses an address no account has, changing nothing", async () => {
    await migratedApp();
    addUser("ada@example.com", true);
    const run = await tessera(["admin", "grant", "nobody@example.com"], app);
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: no account has the address `nobody@example.com`\n" +
        "hint: check the address, and that --database, DATABASE_URL or DATABASE_PATH names the app's database\n",
    });
    expect(auditRows()).toEqual([]);
  });

  it("refuses to grant an unconfirmed address, and revokes one", async () => {
    await migratedApp();
    const bob = addUser("bob@example.com", false);
    const run = await tessera(["admin", "grant", "bob@example.com"], app);
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: the address `bob@example.com` is not confirmed\n" +
        "hint: an unconfirmed address could be anyone's sign-up: grant once its owner has followed the confirmation link\n",
    });
    expect(roleOf("bob@example.com")).toBe("user");
    expect(auditRows()).toEqual([]);
    // An admin whose address became unconfirmed (a changed address, set by hand) can lose it.
    sqlite("UPDATE users SET role = 'admin' WHERE id = ?", [bob]);
    expect((await tessera(["admin", "revoke", "bob@example.com"], app)).status).toBe(0);
    expect(roleOf("bob@example.com")).toBe("user");
    expect(auditRows()).toEqual([roleChanged(bob, "user")]);
  });

  it("refuses a database without users.role, or without users, telling how to migrate it", async () => {
    await migratedApp("_tessera_users_administration");
    addUser("ada@example.com", true);
    const run = await tessera(["admin", "grant", "ada@example.com"], app);
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: the database has no `users.role` column yet\n" +
        "hint: start the app, which applies its migrations (or run them: `tessera migrate`), then run this command again\n",
    });

    new Database(join(app, "empty.db")).close();
    const empty = await tessera(
      ["admin", "revoke", "ada@example.com", "--json", "--database", "empty.db"],
      app,
    );
    expect(empty.status).toBe(1);
    expect(JSON.parse(empty.stdout)).toEqual({
      ok: false,
      error: "the database has no `users` table",
      hint: "check that --database, DATABASE_URL or DATABASE_PATH names the app's database, and that its migrations have run (start the app, or run `tessera migrate`)",
    });
  });

  it("refuses a SQLite file that does not exist, and creates none", async () => {
    const run = await tessera(["admin", "grant", "ada@example.com"], app, {
      DATABASE_PATH: "data/typo.db",
    });
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: cannot use the database: there is no SQLite file `data/typo.db`\n" +
        "hint: check the path of the SQLite file\n",
    });
    expect(existsSync(join(app, "data"))).toBe(false);
  });

  it("refuses what is not an address, and a missing or extra argument as a usage error", async () => {
    const notAnAddress = await tessera(["admin", "grant", "ada"], app);
    expect(notAnAddress.status).toBe(1);
    expect(notAnAddress.stderr).toBe(
      "error: `ada` is not an email address\nhint: write the account's address, e.g. `tessera admin grant ada@example.com`\n",
    );
    expect(await tessera(["admin", "grant"], app)).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "error: no email address given\nhint: write the account's address, e.g. `tessera admin grant ada@example.com` (makes the account an admin)\n",
    });
    expect(await tessera(["admin", "revoke", "a@example.com", "b@example.com"], app)).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "error: unexpected `b@example.com`\nhint: `tessera admin revoke` takes one email address\n",
    });
    const unknown = await tessera(["admin", "promote", "a@example.com"], app);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown command `admin promote`\n/);
    expect((await tessera(["admin", "grant", "a@example.com", "--status"], app)).stderr).toBe(
      "error: --status applies to `tessera migrate` only\nhint: run `tessera migrate --status` to see the migrations\n",
    );
  });
});

describe("tessera admin on PostgreSQL", () => {
  it("grants and revokes in a schema of the server, recording each change", async () => {
    const schema = await createPostgresSchema();
    try {
      expect((await tessera(["generate", "accounts", "--dialect", "postgres"], app)).status).toBe(
        0,
      );
      const env = { DATABASE_URL: schema.url };
      expect((await tessera(["migrate"], app, env)).status).toBe(0);
      const ada = await schema.database.get<{ id: number }>(
        "INSERT INTO users (email, confirmed_at, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
        ["ada@example.com", CREATED, CREATED, CREATED],
      );
      await schema.database.run(
        "INSERT INTO users (email, created_at, updated_at) VALUES (?, ?, ?)",
        ["bob@example.com", CREATED, CREATED],
      );
      const url = new URL(schema.url);
      const granted = await tessera(["admin", "grant", "Ada@Example.com"], app, env);
      expect(granted.status).toBe(0);
      expect(granted.stdout).toMatch(/: ada@example\.com is an admin now\n$/);
      expect(granted.stdout.startsWith(`postgres://${url.username}@${url.host}`)).toBe(true);
      expect(
        (await tessera(["admin", "grant", "ada@example.com", "--json"], app, env)).stdout,
      ).toBe('{"ok":true,"email":"ada@example.com","role":"admin","changed":false}\n');
      expect((await tessera(["admin", "grant", "bob@example.com"], app, env)).stderr).toMatch(
        /^error: the address `bob@example\.com` is not confirmed\n/,
      );
      expect((await tessera(["admin", "revoke", "ada@example.com"], app, env)).stdout).toMatch(
        /: ada@example\.com is no longer an admin\n$/,
      );
      expect(await schema.database.all("SELECT email, role FROM users ORDER BY id")).toEqual([
        { email: "ada@example.com", role: "user" },
        { email: "bob@example.com", role: "user" },
      ]);
      expect(
        await schema.database.all(
          "SELECT type, user_id, actor_id, ip, user_agent, details FROM audit_events ORDER BY id",
        ),
      ).toEqual([roleChanged(ada!.id, "admin"), roleChanged(ada!.id, "user")]);
    } finally {
      await schema.drop();
    }
  });

  it("refuses a schema without users.role", async () => {
    const schema = await createPostgresSchema();
    try {
      await schema.database.execScript(
        "CREATE TABLE users (id BIGINT PRIMARY KEY, email TEXT NOT NULL)",
      );
      const run = await tessera(["admin", "grant", "ada@example.com"], app, {
        DATABASE_URL: schema.url,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        "error: the database has no `users.role` column yet\n" +
          "hint: start the app, which applies its migrations (or run them: `tessera migrate`), then run this command again\n",
      );
    } finally {
      await schema.drop();
    }
  });

  it("answers an unreachable server in migrate's words, without the password", async () => {
    const unreachable = new URL(postgresUrl());
    unreachable.port = "1";
    unreachable.password = "not-shown-anywhere";
    const run = await tessera(
      ["admin", "revoke", "ada@example.com", "--database", unreachable.toString()],
      app,
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "error: cannot use the database: connect ECONNREFUSED 127.0.0.1:1\n" +
        "hint: check that the server runs and the URL's host, port, user, password and database\n",
    );
    expect(run.stdout + run.stderr).not.toContain("not-shown-anywhere");
  });
});
