import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteFile } from "../src/better-sqlite3.js";
import { applyMigrations, isUniqueViolation } from "../src/index.js";

const folders: string[] = [];
function temporaryDatabasePath(): string {
  const folder = mkdtempSync(join(tmpdir(), "tessera-sqlite-"));
  folders.push(folder);
  return join(folder, "test.db");
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("applyMigrations", () => {
  it("applies pending migrations in id order once, recording each", async () => {
    const path = temporaryDatabasePath();
    const database = openSqliteFile(path);
    const migrations = [
      { id: "0002_add_color", sql: "ALTER TABLE things ADD COLUMN color TEXT;" },
      { id: "0001_create_things", sql: "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT)" },
    ];
    expect(await applyMigrations(database, migrations)).toEqual([
      "0001_create_things",
      "0002_add_color",
    ]);
    database.close();

    const reopened = openSqliteFile(path);
    expect(await applyMigrations(reopened, migrations)).toEqual([]);
    await reopened.run("INSERT INTO things (name, color) VALUES (?, ?)", ["a", "red"]);
    expect(await reopened.get("SELECT name, color FROM things")).toEqual({
      name: "a",
      color: "red",
    });
    const recorded = await reopened.all<{ id: string }>(
      "SELECT id FROM schema_migrations ORDER BY id",
    );
    expect(recorded.map((row) => row.id)).toEqual(["0001_create_things", "0002_add_color"]);
    reopened.close();
  });

  it("leaves no trace of a migration that fails part way", async () => {
    const database = openSqliteFile(temporaryDatabasePath());
    const broken = { id: "0001_broken", sql: "CREATE TABLE a (id INTEGER); CREATE TABLE oops (" };
    await expect(applyMigrations(database, [broken])).rejects.toThrow();
    expect(await database.get("SELECT name FROM sqlite_master WHERE name = 'a'")).toBeUndefined();
    expect(await database.all("SELECT id FROM schema_migrations")).toEqual([]);
    database.close();
  });

  it("refuses two migrations with one id", async () => {
    const database = openSqliteFile(":memory:");
    const twice = [
      { id: "0001", sql: "SELECT 1" },
      { id: "0001", sql: "SELECT 2" },
    ];
    await expect(applyMigrations(database, twice)).rejects.toThrow("two migrations share an id");
    database.close();
  });
});

describe("openSqliteFile", () => {
  it("sets WAL with synchronous NORMAL, foreign keys and a busy timeout", () => {
    const database = openSqliteFile(temporaryDatabasePath(), { busyTimeoutMs: 1234 });
    const pragma = (name: string) => database.connection.pragma(name, { simple: true });
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(1);
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(1234);
    database.close();
  });

  it("turns foreign keys on and reports unique violations recognisably", async () => {
    const database = openSqliteFile(":memory:");
    await database.execScript(
      "CREATE TABLE parents (id INTEGER PRIMARY KEY, email TEXT UNIQUE); CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parents(id) ON DELETE CASCADE)",
    );
    const parent = await database.run("INSERT INTO parents (email) VALUES (?)", ["a@example.com"]);
    await database.run("INSERT INTO children (parent_id) VALUES (?)", [parent.lastInsertRowid]);
    const duplicate = await database
      .run("INSERT INTO parents (email) VALUES (?)", ["a@example.com"])
      .catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    await expect(database.run("INSERT INTO children (parent_id) VALUES (999)")).rejects.toThrow(
      /FOREIGN KEY/,
    );
    expect((await database.run("DELETE FROM parents")).changes).toBe(1);
    expect(await database.all("SELECT * FROM children")).toEqual([]);
    database.close();
  });
});
