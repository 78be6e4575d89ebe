import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { describeSqlDriverContract } from "../../sql/test/driver.contract.js";
import { applyMigrations, openSqliteFile } from "../src/better-sqlite3.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-sqlite-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A new file per test, closed when the test ends; `second` is another connection to it. */
function openFile(path = join(folder, `${crypto.randomUUID()}.db`)) {
  const database = openSqliteFile(path);
  onTestFinished(() => database.close());
  return database;
}

describeSqlDriverContract("better-sqlite3", async () => {
  const path = join(folder, `${crypto.randomUUID()}.db`);
  return { database: openFile(path), second: async () => openFile(path) };
});

describe("openSqliteFile", () => {
  it("sets WAL with synchronous NORMAL, foreign keys and a busy timeout", () => {
    const database = openSqliteFile(join(folder, "pragmas", "test.db"), { busyTimeoutMs: 1234 });
    const pragma = (name: string) => database.connection.pragma(name, { simple: true });
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(1);
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(1234);
    expect(database.dialect).toBe("sqlite");
    database.close();
  });
});

describe("a migration with foreignKeys off (a table rebuild)", () => {
  const tables = {
    id: "0001_tables",
    sql: `CREATE TABLE posts (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT);
CREATE TABLE comments (id INTEGER PRIMARY KEY, post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE);
INSERT INTO posts (id, title, author) VALUES (1, 'Hello', 'ada');
INSERT INTO comments (post_id) VALUES (1);`,
  };

  it("rebuilds a referenced table without cascading, then turns the checks back on", async () => {
    const database = openFile();
    const rebuild = {
      id: "0002_rebuild_posts",
      foreignKeys: "off" as const,
      sql: `CREATE TABLE posts_rebuilt (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
INSERT INTO posts_rebuilt (id, title) SELECT id, title FROM posts;
DROP TABLE posts;
ALTER TABLE posts_rebuilt RENAME TO posts;`,
    };
    expect(await applyMigrations(database, [tables, rebuild])).toEqual([
      "0001_tables",
      "0002_rebuild_posts",
    ]);
    expect(await database.all("SELECT post_id FROM comments")).toEqual([{ post_id: 1 }]);
    expect(database.connection.pragma("foreign_keys", { simple: true })).toBe(1);
    await expect(database.run("INSERT INTO comments (post_id) VALUES (9)")).rejects.toThrow(
      /FOREIGN KEY/,
    );
  });

  it("refuses one that leaves references to no row, leaving no trace", async () => {
    const database = openFile();
    const broken = {
      id: "0002_drop_posts",
      foreignKeys: "off" as const,
      sql: "DROP TABLE posts; CREATE TABLE posts (id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
    };
    await expect(applyMigrations(database, [tables, broken])).rejects.toThrow(
      "migration 0002_drop_posts would leave 1 row(s) of comments referencing no row of posts",
    );
    expect(await database.all("SELECT title FROM posts")).toEqual([{ title: "Hello" }]);
    expect(await database.all("SELECT id FROM schema_migrations")).toEqual([{ id: "0001_tables" }]);
    expect(database.connection.pragma("foreign_keys", { simple: true })).toBe(1);
  });
});
