// `posts.slug` and `labels.name` are unique across the table. Databases created before that had
// per-owner indexes; migration 0204 replaces them at start, and refuses (changing nothing) when
// two users already share a value.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fieldIndexes } from "@tessera/fields";
import { migrationSql } from "@tessera/sql";
import type { BetterSqliteDatabase } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { appMigrations } from "../src/migrations.js";
import { labelModel, postModel, uniqueAcrossUsersMigration } from "../src/records.js";
import { openSqliteAppDatabase } from "./support/sqlite-app-database.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-unique-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

/** Every migration before 0204: a database as the app left it before this change. */
const before = appMigrations.filter((migration) => migration.id < uniqueAcrossUsersMigration.id);

async function oldDatabase(): Promise<{ path: string; database: BetterSqliteDatabase }> {
  const path = join(folder, `app-${++files}.db`);
  const database = await openSqliteAppDatabase(path, before);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [email],
    );
  }
  return { path, database };
}

function addLabel(database: BetterSqliteDatabase, userId: number, name: string) {
  return database.run("INSERT INTO labels (user_id, public_id, name) VALUES (?, ?, ?)", [
    userId,
    `${name}-${userId}`.padEnd(22, "x"),
    name,
  ]);
}

async function indexSql(database: BetterSqliteDatabase, name: string): Promise<string | undefined> {
  const row = await database.get<{ sql: string }>(
    "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
    [name],
  );
  return row?.sql;
}

/** The text of the two indexes 0204 replaces. */
const uniqueIndexes = (database: BetterSqliteDatabase) =>
  Promise.all([
    indexSql(database, "index_posts_on_slug"),
    indexSql(database, "index_labels_on_name"),
  ]);

/** The unique indexes the models declare, as SQLite stores their text (no `;`). */
const declared = [postModel, labelModel].flatMap((model) =>
  model.fields
    .filter((field) => field.unique && field.type !== "public_id")
    .flatMap((field) => fieldIndexes(model.table, field, "user_id"))
    .map((sql) => sql.replace(/;$/, "")),
);

describe("migration 0204: unique across users", () => {
  it("keeps the first migrations as they were applied, per owner", () => {
    const posts = appMigrations.find((migration) => migration.id === "0200_app_create_posts");
    expect(migrationSql(posts!.sql, "sqlite")).toContain(
      `CREATE UNIQUE INDEX "index_posts_on_slug" ON "posts" ("user_id", "slug") WHERE "slug" IS NOT NULL;`,
    );
    const labels = appMigrations.find((migration) => migration.id === "0202_app_create_labels");
    expect(migrationSql(labels!.sql, "sqlite")).toContain(
      `CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("user_id", "name");`,
    );
    expect(declared).toEqual([
      `CREATE UNIQUE INDEX "index_posts_on_slug" ON "posts" ("slug") WHERE "slug" IS NOT NULL`,
      `CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("name")`,
    ]);
  });

  it("replaces the per-owner indexes of an existing database, keeping its rows", async () => {
    const { path, database } = await oldDatabase();
    await addLabel(database, 1, "urgent");
    await addLabel(database, 2, "later");
    await database.run("INSERT INTO posts (user_id, title, slug) VALUES (1, 'A', 'hello')");
    // Per owner, as before: Bob may still take Ada's name.
    await addLabel(database, 2, "urgent");
    await database.run("DELETE FROM labels WHERE user_id = 2 AND name = 'urgent'");
    database.close();

    const upgraded = await openSqliteAppDatabase(path, appMigrations);
    try {
      expect(await uniqueIndexes(upgraded)).toEqual(declared);
      await expect(addLabel(upgraded, 2, "urgent")).rejects.toThrow(
        "UNIQUE constraint failed: labels.name",
      );
      await expect(
        upgraded.run("INSERT INTO posts (user_id, title, slug) VALUES (2, 'B', 'hello')"),
      ).rejects.toThrow("UNIQUE constraint failed: posts.slug");
      expect(await upgraded.all("SELECT user_id, name FROM labels ORDER BY id")).toEqual([
        { user_id: 1, name: "urgent" },
        { user_id: 2, name: "later" },
      ]);
    } finally {
      upgraded.close();
    }
  });

  it("gives a new database the table-wide indexes too", async () => {
    const database = await openSqliteAppDatabase(join(folder, `app-${++files}.db`), appMigrations);
    try {
      expect(await uniqueIndexes(database)).toEqual(declared);
    } finally {
      database.close();
    }
  });

  it("refuses to start on a name two users share, and changes nothing", async () => {
    const { path, database } = await oldDatabase();
    await addLabel(database, 1, "urgent");
    await addLabel(database, 2, "urgent");
    database.close();

    await expect(openSqliteAppDatabase(path, appMigrations)).rejects.toThrow(
      "UNIQUE constraint failed: labels.name",
    );
    const untouched = await openSqliteAppDatabase(path, before);
    try {
      expect(await uniqueIndexes(untouched)).toEqual([
        `CREATE UNIQUE INDEX "index_posts_on_slug" ON "posts" ("user_id", "slug") WHERE "slug" IS NOT NULL`,
        `CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("user_id", "name")`,
      ]);
      const applied = await untouched.all<{ id: string }>(
        "SELECT id FROM schema_migrations WHERE id = ?",
        [uniqueAcrossUsersMigration.id],
      );
      expect(applied).toEqual([]);
      // Renaming one of them lets the next start through.
      await untouched.run("UPDATE labels SET name = 'urgent (bob)' WHERE user_id = 2");
    } finally {
      untouched.close();
    }
    const upgraded = await openSqliteAppDatabase(path, appMigrations);
    expect(await uniqueIndexes(upgraded)).toEqual(declared);
    upgraded.close();
  });
});
