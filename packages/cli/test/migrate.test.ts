// `tessera migrate` run as the command runs (in process), on SQLite files and on the test run's
// PostgreSQL.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostgresSchema, postgresUrl } from "../../../test/support/postgres.js";
import { ACCOUNT_MIGRATIONS, appMigration } from "./support/app-migration.js";
import { tessera, tesseraProcess } from "./support/tessera-process.js";

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), "tessera-migrate-"));
});
afterEach(() => {
  rmSync(app, { recursive: true, force: true });
});

/** Writes `migrations/<name>.sql`. */
function migration(name: string, sql: string): void {
  mkdirSync(join(app, "migrations"), { recursive: true });
  writeFileSync(join(app, "migrations", `${name}.sql`), sql);
}

/** Rows of the app's SQLite file. */
function query(path: string, sql: string): unknown[] {
  const database = new Database(join(app, path), { readonly: true });
  try {
    return database.prepare(sql).all();
  } finally {
    database.close();
  }
}

describe("tessera migrate on SQLite", () => {
  it("applies the generated migrations in order once, into data/app.db by default", async () => {
    expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
    expect((await tessera(["generate", "model", "post", "title:string"], app)).status).toBe(0);
    const first = await tessera(["migrate"], app);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(
      `data/app.db:\n${[...ACCOUNT_MIGRATIONS, appMigration("create_posts")].map((name) => `applied ${name}\n`).join("")}`,
    );
    expect(query("data/app.db", "SELECT count(*) AS n FROM schema_migrations")).toEqual([
      { n: ACCOUNT_MIGRATIONS.length + 1 },
    ]);
    expect(query("data/app.db", "SELECT name FROM sqlite_master WHERE name = 'posts'")).toEqual([
      { name: "posts" },
    ]);
    expect((await tessera(["migrate"], app)).stdout).toBe(
      `data/app.db: nothing to apply (${ACCOUNT_MIGRATIONS.length + 1} applied)\n`,
    );
  });

  it("lists where each migration stands with --status, applying none", async () => {
    migration("0001_notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY)");
    expect((await tessera(["migrate", "--database", "app.db"], app)).status).toBe(0);
    migration("0002_tags", "CREATE TABLE tags (id INTEGER PRIMARY KEY)");
    const status = await tessera(["migrate", "--status", "--database", "app.db"], app);
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(
      /^app\.db:\napplied {2}0001_notes {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\npending {2}0002_tags\n$/,
    );
    const json = JSON.parse(
      (await tessera(["migrate", "--status", "--json"], app, { DATABASE_PATH: "app.db" })).stdout,
    );
    expect(json).toEqual({
      ok: true,
      migrations: [
        { id: "0001_notes", state: "applied", appliedAt: expect.any(String) },
        { id: "0002_tags", state: "pending" },
      ],
    });
    expect(query("app.db", "SELECT name FROM sqlite_master WHERE name = 'tags'")).toEqual([]);
  });

  it("refuses to apply anything once an applied file was changed, and says so", async () => {
    migration("0001_notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY)");
    expect((await tessera(["migrate", "--database", "app.db"], app)).status).toBe(0);
    migration("0001_notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    migration("0002_tags", "CREATE TABLE tags (id INTEGER PRIMARY KEY)");
    const refused = await tessera(["migrate", "--database", "app.db"], app);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      "error: migration 0001_notes was changed after it was applied: undo the change, and make it a new migration\n" +
        "hint: restore the applied file from version control, and write the change as a new migration\n",
    );
    expect(query("app.db", "SELECT id FROM schema_migrations")).toEqual([{ id: "0001_notes" }]);
    expect((await tessera(["migrate", "--status", "--database", "app.db"], app)).stdout).toMatch(
      /changed {2}0001_notes/,
    );
  });

  it("leaves no trace of a failing migration and keeps those before it", async () => {
    migration("0001_notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY)");
    migration(
      "0002_broken",
      "CREATE TABLE tags (id INTEGER PRIMARY KEY); INSERT INTO nowhere VALUES (1)",
    );
    const run = await tessera(["migrate", "--json", "--database", "app.db"], app);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      error: "no such table: nowhere",
      hint: "fix the migration: those before it stay applied, and it left no trace",
    });
    expect(query("app.db", "SELECT id FROM schema_migrations")).toEqual([{ id: "0001_notes" }]);
    expect(query("app.db", "SELECT name FROM sqlite_master WHERE name = 'tags'")).toEqual([]);
  });

  it("refuses a file with COMMIT before applying any, naming the file and the line", async () => {
    migration("0001_notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY)");
    migration(
      "0002_tags",
      "CREATE TABLE tags (id INTEGER PRIMARY KEY);\n-- keep tags apart\nCOMMIT;\nCREATE TABLE late (id INTEGER)",
    );
    const run = await tessera(["migrate", "--database", "app.db"], app);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "error: `migrations/0002_tags.sql` line 3: `COMMIT` controls the transaction, and each migration runs with its ledger row in one transaction the runner begins and ends\n" +
        "hint: remove it: migrate runs each file in a transaction of its own, with its record in `schema_migrations`; nothing was applied\n",
    );
    expect(query("app.db", "SELECT name FROM sqlite_master WHERE type = 'table'")).toEqual([
      { name: "schema_migrations" },
    ]);
    expect(query("app.db", "SELECT id FROM schema_migrations")).toEqual([]);
    migration(
      "0002_tags",
      "PRAGMA foreign_keys = OFF;\nCREATE TABLE tags (id INTEGER PRIMARY KEY)",
    );
    expect(
      JSON.parse((await tessera(["migrate", "--json", "--database", "app.db"], app)).stdout),
    ).toEqual({
      ok: false,
      error:
        "`migrations/0002_tags.sql` line 1: `PRAGMA foreign_keys` does nothing inside a transaction, and each migration runs in one",
      hint: "write the line `-- tessera: foreign_keys off` in the file instead, and migrate runs it with foreign keys off; nothing was applied",
    });
  });

  it("applies a trigger whose body begins and ends, and the words in literals and comments", async () => {
    migration("0001_notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    migration(
      "0002_note_count",
      `CREATE TABLE note_count (n INTEGER NOT NULL);
INSERT INTO note_count VALUES (0);
/* COMMIT; and ROLLBACK; are words in this comment */
CREATE TRIGGER count_notes AFTER INSERT ON notes
BEGIN
  UPDATE note_count SET n = n + CASE WHEN NEW.body = 'END;' THEN 10 ELSE 1 END;
END;
INSERT INTO notes (body) VALUES ('BEGIN; COMMIT;');`,
    );
    const run = await tessera(["migrate", "--database", "app.db"], app);
    expect(run.stdout).toBe("app.db:\napplied 0001_notes\napplied 0002_note_count\n");
    expect(query("app.db", "SELECT n FROM note_count")).toEqual([{ n: 1 }]);
    expect(query("app.db", "SELECT body FROM notes")).toEqual([{ body: "BEGIN; COMMIT;" }]);
  });

  it("refuses a COMMIT after a trigger whose body names a column begin, and applies the trigger alone", async () => {
    // The body's `begin` is a column to SQLite; counted as a block it hid the COMMIT after it.
    const trigger = `CREATE TABLE spans (id INTEGER PRIMARY KEY, begin INTEGER);
CREATE TRIGGER stamp AFTER INSERT ON spans
BEGIN
  UPDATE spans SET begin = NEW.id WHERE id = NEW.id;
END`;
    migration("0001_spans", `${trigger};\nCOMMIT;\nCREATE TABLE outside (id INTEGER)`);
    const run = await tessera(["migrate", "--json", "--database", "app.db"], app);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatch(/^`migrations\/0001_spans\.sql` line 6: `COMMIT`/);
    expect(query("app.db", "SELECT name FROM sqlite_master WHERE type = 'table'")).toEqual([
      { name: "schema_migrations" },
    ]);

    migration("0001_spans", `${trigger};\nINSERT INTO spans (id) VALUES (7);`);
    expect((await tessera(["migrate", "--database", "app.db"], app)).status).toBe(0);
    expect(query("app.db", "SELECT begin FROM spans")).toEqual([{ begin: 7 }]);
  });

  it("applies each migration once when two processes migrate one file at the same moment", async () => {
    for (let index = 1; index <= 8; index++) {
      migration(
        `000${index}_table_${index}`,
        `CREATE TABLE table_${index} (id INTEGER PRIMARY KEY)`,
      );
    }
    const runs = await Promise.all([
      tesseraProcess(["migrate", "--json", "--database", "app.db"], app),
      tesseraProcess(["migrate", "--json", "--database", "app.db"], app),
    ]);
    // Each run's error output too, so that a refusal says why.
    expect(runs.map(({ status, stderr }) => ({ status, stderr }))).toEqual([
      { status: 0, stderr: "" },
      { status: 0, stderr: "" },
    ]);
    const applied = runs.flatMap((run) => JSON.parse(run.stdout).applied as string[]);
    expect(applied.sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `000${index + 1}_table_${index + 1}`),
    );
    expect(query("app.db", "SELECT count(*) AS n FROM schema_migrations")).toEqual([{ n: 8 }]);
  });

  it("refuses extra words, --status outside migrate and an unknown dialect, with a usage error", async () => {
    expect((await tessera(["migrate", "0001_notes"], app)).status).toBe(2);
    expect((await tessera(["migrate", "--dialect", "postgres"], app)).stderr).toBe(
      "error: --dialect applies to the generators only\nhint: `tessera migrate` runs the files as they are written\n",
    );
    expect((await tessera(["generate", "accounts", "--dialect", "mysql"], app)).stderr).toBe(
      "error: unknown dialect `mysql`\nhint: write `--dialect sqlite` or `--dialect postgres`\n",
    );
    const misplaced = await tessera(["check", "title:string", "--status"], app);
    expect(misplaced.status).toBe(2);
    expect(misplaced.stderr).toBe(
      "error: --status applies to `tessera migrate` only\nhint: run `tessera migrate --status` to see the migrations\n",
    );
  });
});

describe("tessera migrate on PostgreSQL", () => {
  it("applies the migrations in a schema of the server, and never prints the URL's password", async () => {
    const schema = await createPostgresSchema();
    try {
      migration("0001_notes", "CREATE TABLE notes (id BIGINT PRIMARY KEY, body TEXT NOT NULL)");
      migration("0002_tags", "CREATE TABLE tags (id BIGINT PRIMARY KEY)");
      const url = new URL(schema.url);
      url.password = "not-shown-anywhere";
      const run = await tessera(["migrate"], app, { DATABASE_URL: url.toString() });
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/applied 0001_notes\napplied 0002_tags\n$/);
      expect(run.stdout + run.stderr).not.toContain("not-shown-anywhere");
      const recorded = await schema.database.all<{ id: string; checksum: string }>(
        "SELECT id, checksum FROM schema_migrations ORDER BY id",
      );
      expect(recorded.map((row) => row.id)).toEqual(["0001_notes", "0002_tags"]);
      for (const row of recorded) expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      const status = await tessera(["migrate", "--status", "--database", url.toString()], app);
      expect(status.stdout).toMatch(/applied {2}0002_tags/);
    } finally {
      await schema.drop();
    }
  });

  it("migrates generated accounts and a model written with --dialect postgres", async () => {
    const schema = await createPostgresSchema();
    try {
      expect((await tessera(["generate", "accounts", "--dialect", "postgres"], app)).status).toBe(
        0,
      );
      // DATABASE_URL names PostgreSQL: the model's SQL follows without --dialect.
      const generated = await tessera(
        ["generate", "model", "post", "title:string", "cover:attachment?"],
        app,
        {
          DATABASE_URL: schema.url,
        },
      );
      expect(generated.status).toBe(0);
      const postsSql = readFileSync(
        join(app, `migrations/${appMigration("create_posts")}.sql`),
        "utf8",
      );
      expect(postsSql).toContain('"id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY');
      const run = await tessera(["migrate", "--json"], app, { DATABASE_URL: schema.url });
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout).applied).toHaveLength(ACCOUNT_MIGRATIONS.length + 1);
      const user = await schema.database.get<{ id: number }>(
        "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2026-01-01 00:00:00', '2026-01-01 00:00:00') RETURNING id",
        ["ada@example.com"],
      );
      const post = await schema.database.get<{ title: string }>(
        "INSERT INTO posts (user_id, title) VALUES (?, ?) RETURNING title",
        [user!.id, "Hello"],
      );
      expect(post).toEqual({ title: "Hello" });
    } finally {
      await schema.drop();
    }
  });

  it("refuses a file with COMMIT before applying any, and applies functions whose bodies begin and end", async () => {
    const schema = await createPostgresSchema();
    try {
      migration("0001_notes", "CREATE TABLE notes (id BIGINT PRIMARY KEY, body TEXT)");
      migration(
        "0002_touch",
        `CREATE FUNCTION count_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE note_count SET n = n + 1; -- COMMIT is a word here
  RETURN NEW;
END;
$$;
CREATE TABLE note_count (n BIGINT NOT NULL);
INSERT INTO note_count VALUES (0);
CREATE TRIGGER count_notes AFTER INSERT ON notes FOR EACH ROW EXECUTE FUNCTION count_note();`,
      );
      migration(
        "0003_split",
        "CREATE TABLE tags (id BIGINT);\n  commit;\nCREATE TABLE late (id BIGINT)",
      );
      const refused = await tessera(["migrate", "--json"], app, { DATABASE_URL: schema.url });
      expect(refused.status).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^`migrations\/0003_split\.sql` line 2: `COMMIT` controls/),
        hint: expect.stringMatching(/nothing was applied$/),
      });
      const tables = await schema.database.all<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()",
      );
      expect(tables).toEqual([{ name: "schema_migrations" }]);

      migration("0003_split", "CREATE TABLE tags (id BIGINT)");
      const run = await tessera(["migrate"], app, { DATABASE_URL: schema.url });
      expect(run.stdout).toMatch(/applied 0001_notes\napplied 0002_touch\napplied 0003_split\n$/);
      await schema.database.run("INSERT INTO notes (id, body) VALUES (1, 'END;')");
      expect(await schema.database.all("SELECT n FROM note_count")).toEqual([{ n: 1 }]);
    } finally {
      await schema.drop();
    }
  });

  it("refuses a COMMIT after a SQL-standard body that selects a column begin, and applies the body alone", async () => {
    const schema = await createPostgresSchema();
    try {
      // PostgreSQL reads `begin` here as a column (an unreserved keyword), and its body ends at
      // the END; the COMMIT after it would run outside the migration's transaction.
      const body = `CREATE TABLE spans (id BIGINT PRIMARY KEY, begin BIGINT);
CREATE FUNCTION first_begin() RETURNS BIGINT LANGUAGE sql
BEGIN ATOMIC
  SELECT begin FROM spans ORDER BY id LIMIT 1;
END`;
      migration("0001_spans", `${body};\nCOMMIT;\nCREATE TABLE outside (id BIGINT)`);
      const refused = await tessera(["migrate", "--json"], app, { DATABASE_URL: schema.url });
      expect(refused.status).toBe(1);
      expect(JSON.parse(refused.stdout).error).toMatch(
        /^`migrations\/0001_spans\.sql` line 6: `COMMIT`/,
      );
      const tables = await schema.database.all<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()",
      );
      expect(tables).toEqual([{ name: "schema_migrations" }]);

      migration("0001_spans", `${body};\nINSERT INTO spans VALUES (1, 40);`);
      expect((await tessera(["migrate"], app, { DATABASE_URL: schema.url })).status).toBe(0);
      expect(await schema.database.get("SELECT first_begin() AS begin")).toEqual({ begin: 40 });
    } finally {
      await schema.drop();
    }
  });

  it("answers an unreachable server with the reason, the advice and no password", async () => {
    migration("0001_notes", "CREATE TABLE notes (id BIGINT PRIMARY KEY)");
    const unreachable = new URL(postgresUrl());
    unreachable.port = "1";
    unreachable.password = "not-shown-anywhere";
    const run = await tessera(["migrate", "--database", unreachable.toString()], app);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error: cannot use the database: connect ECONNREFUSED 127\.0\.0\.1:1\n/,
    );
    expect(run.stderr).toContain(
      "hint: check that the server runs and the URL's host, port, user, password and database",
    );
    expect(run.stderr + run.stdout).not.toContain("not-shown-anywhere");
  });
});
