import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersMigration } from "@tessera/accounts/sql";
import { createTableSql, defineModel } from "@tessera/fields";
import { SqlRecordStore, uniqueColumns } from "@tessera/records/sql";
import type { SqlValue } from "@tessera/sql";
import { applyMigrations, uniqueViolationTarget } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "tessera-record-store-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// The example app's resources.
const post = defineModel("post", [
  "title:string",
  "slug:string?^",
  "cover:attachment?",
  "lock_version:integer",
  "photos:attachments",
]);
const comment = defineModel("comment", ["post:references", "body:text"]);
const label = defineModel("label", ["public_id:token", "name:string^", "color:string?"]);
const reaction = defineModel("reaction", [
  "target:polymorphic:post,comment",
  "kind:enum:like,love",
]);

const ADA = 1;
const BOB = 2;
const T0 = Date.UTC(2025, 0, 1, 8, 0, 0);
const file = (key: string) => ({ key, filename: `${key}.png`, contentType: "image/png", size: 3 });
const KEY_A = "A".repeat(43);
const KEY_B = "B".repeat(43);
const KEY_C = "C".repeat(43);

let files = 0;
async function setUp() {
  const database = openSqliteFile(join(folder, `records-${++files}.db`));
  await applyMigrations(database, [
    usersMigration,
    { id: "0100_posts", sql: createTableSql(post) },
    { id: "0101_comments", sql: createTableSql(comment) },
    { id: "0102_labels", sql: createTableSql(label) },
    { id: "0103_reactions", sql: createTableSql(reaction) },
  ]);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [email],
    );
  }
  return {
    database,
    posts: new SqlRecordStore(database, post),
    comments: new SqlRecordStore(database, comment),
    labels: new SqlRecordStore(database, label),
  };
}

async function inserted(
  store: SqlRecordStore,
  ownerId: number,
  values: Record<string, string | number | null>,
) {
  const outcome = await store.insert(ownerId, values, T0);
  if (!outcome.ok) throw new Error(`insert refused: ${outcome.reason}`);
  return outcome.row;
}

describe("SqlRecordStore", () => {
  it("inserts with the owner and both timestamps, and writes only the model's columns", async () => {
    const { database, posts } = await setUp();
    const row = await inserted(posts, ADA, {
      title: "Hello",
      'title" = 1; DROP TABLE posts; --': "x",
      user_id: BOB,
      lock_version: 9,
      id: 77,
    });
    expect(row).toMatchObject({
      id: 1,
      user_id: ADA,
      title: "Hello",
      slug: null,
      lock_version: 0,
      created_at: "2025-01-01 08:00:00",
      updated_at: "2025-01-01 08:00:00",
    });
    expect(await database.all("SELECT id FROM posts")).toEqual([{ id: 1 }]);
  });

  it("scopes find, list, update and delete by owner", async () => {
    const { posts } = await setUp();
    await inserted(posts, ADA, { title: "Ada 1" });
    await inserted(posts, BOB, { title: "Bob 1" });
    await inserted(posts, ADA, { title: "Ada 2" });
    expect((await posts.list(ADA, { limit: 10, offset: 0 })).map((row) => row.title)).toEqual([
      "Ada 2",
      "Ada 1",
    ]);
    expect((await posts.list(ADA, { limit: 1, offset: 1 })).map((row) => row.title)).toEqual([
      "Ada 1",
    ]);
    expect(await posts.find(ADA, { id: 2 })).toBeUndefined();
    expect(await posts.update(ADA, { id: 2 }, { values: { title: "Mine" }, now: T0 })).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect(await posts.delete(ADA, { id: 2 })).toEqual({ row: undefined, fileKeys: [] });
    expect((await posts.find(BOB, { id: 2 }))?.title).toBe("Bob 1");
  });

  it("updates under the lock version in the WHERE clause and increments it", async () => {
    const { posts } = await setUp();
    await inserted(posts, ADA, { title: "v0" });
    const later = T0 + 60_000;
    const first = await posts.update(
      ADA,
      { id: 1 },
      { values: { title: "v1" }, lockVersion: 0, now: later },
    );
    expect(first).toMatchObject({
      ok: true,
      row: { title: "v1", lock_version: 1, updated_at: "2025-01-01 08:01:00" },
    });
    expect(
      await posts.update(ADA, { id: 1 }, { values: { title: "lost" }, lockVersion: 0, now: later }),
    ).toEqual({
      ok: false,
      reason: "stale",
    });
    expect(await posts.update(ADA, { id: 1 }, { values: {}, now: later })).toMatchObject({
      ok: true,
      row: { lock_version: 2 },
    });
    expect(await posts.update(BOB, { id: 1 }, { values: {}, lockVersion: 2, now: later })).toEqual({
      ok: false,
      reason: "not-found",
    });
  });

  it("updates any subset of columns with one statement text (drivers cache statements by text)", async () => {
    const { database } = await setUp();
    const texts = new Set<string>();
    const recording = {
      ...database,
      get: <Row extends object>(sql: string, params?: readonly SqlValue[]) => {
        if (sql.startsWith("UPDATE")) texts.add(sql);
        return database.get<Row>(sql, params);
      },
    };
    const posts = new SqlRecordStore(recording, post);
    await inserted(posts, ADA, { title: "T" });
    const subsets = [{ title: "a" }, { slug: "b" }, { title: "c", slug: null }, {}];
    for (const values of subsets) {
      expect(await posts.update(ADA, { id: 1 }, { values, now: T0 })).toMatchObject({ ok: true });
    }
    expect(await posts.find(ADA, { id: 1 })).toMatchObject({
      title: "c",
      slug: null,
      lock_version: 4,
    });
    expect(texts.size).toBe(1);
  });

  it("maps a unique violation to the columns of the field, on insert and update", async () => {
    const { posts, labels } = await setUp();
    await inserted(labels, ADA, { public_id: "a".repeat(22), name: "urgent" });
    expect(await labels.insert(ADA, { public_id: "b".repeat(22), name: "urgent" }, T0)).toEqual({
      ok: false,
      reason: "taken",
      columns: ["name"],
    });
    // `^` is unique across the table: Bob cannot have Ada's name either.
    expect(await labels.insert(BOB, { public_id: "c".repeat(22), name: "urgent" }, T0)).toEqual({
      ok: false,
      reason: "taken",
      columns: ["name"],
    });
    expect(await labels.insert(BOB, { public_id: "a".repeat(22), name: "other" }, T0)).toEqual({
      ok: false,
      reason: "taken",
      columns: ["public_id"],
    });
    await inserted(posts, ADA, { title: "1", slug: "s" });
    await inserted(posts, ADA, { title: "2", slug: null });
    await inserted(posts, ADA, { title: "3", slug: null });
    expect(await posts.update(ADA, { id: 2 }, { values: { slug: "s" }, now: T0 })).toEqual({
      ok: false,
      reason: "taken",
      columns: ["slug"],
    });
  });

  it("reports a foreign key refusal as a missing reference", async () => {
    const { comments } = await setUp();
    expect(await comments.insert(ADA, { post_id: 5, body: "x" }, T0)).toEqual({
      ok: false,
      reason: "missing-reference",
    });
  });

  it("finds records by public id when the model has one", async () => {
    const { labels, posts } = await setUp();
    await inserted(labels, ADA, { public_id: "Abc_def-ghijklmnopqrst", name: "x" });
    expect((await labels.find(ADA, { publicId: "Abc_def-ghijklmnopqrst" }))?.name).toBe("x");
    expect(await labels.find(BOB, { publicId: "Abc_def-ghijklmnopqrst" })).toBeUndefined();
    expect(() => posts.find(ADA, { publicId: "Abc_def-ghijklmnopqrst" })).toThrow(TypeError);
  });

  it("checks references with the owner when the table has one, and existence otherwise", async () => {
    const { posts, comments } = await setUp();
    await inserted(posts, ADA, { title: "Ada's" });
    expect(await comments.exists(ADA, "posts", 1)).toBe(true);
    expect(await comments.exists(BOB, "posts", 1)).toBe(false);
    expect(await comments.exists(ADA, "posts", 2)).toBe(false);
    // `users` has no owner column: any existing user.
    expect(await comments.exists(ADA, "users", 2)).toBe(true);
    expect(await comments.exists(ADA, "users", 3)).toBe(false);
    await expect(comments.exists(ADA, 'posts" --', 1)).rejects.toThrow(RangeError);
  });

  it("replaces an attachment only if the row still holds the key it read", async () => {
    const { database, posts } = await setUp();
    await inserted(posts, ADA, {
      title: "T",
      cover_key: KEY_A,
      cover_filename: "a",
      cover_content_type: "image/png",
      cover_size: 1,
    });
    const replaced = await posts.update(
      ADA,
      { id: 1 },
      { values: { cover_key: KEY_B, cover_filename: "b" }, now: T0 },
    );
    expect(replaced).toMatchObject({ ok: true, replacedKeys: [KEY_A], row: { cover_key: KEY_B } });

    // Another writer replaces the file between our read and our write.
    class RacingStore extends SqlRecordStore {
      override async find(ownerId: number, key: { id: number } | { publicId: string }) {
        const row = await super.find(ownerId, key);
        await database.run("UPDATE posts SET cover_key = ? WHERE id = 1", [KEY_C]);
        return row;
      }
    }
    const racing = new RacingStore(database, post);
    expect(await racing.update(ADA, { id: 1 }, { values: { cover_key: KEY_A }, now: T0 })).toEqual({
      ok: false,
      reason: "stale",
    });
    expect((await posts.find(ADA, { id: 1 }))?.cover_key).toBe(KEY_C);
  });

  it("deletes a record with its files and returns every key it held", async () => {
    const { posts } = await setUp();
    await inserted(posts, ADA, {
      title: "T",
      cover_key: KEY_A,
      cover_filename: "a",
      cover_content_type: "image/png",
      cover_size: 1,
    });
    await inserted(posts, ADA, { title: "Other" });
    expect(await posts.insertFile(ADA, 1, "photos", file(KEY_B), T0)).toMatchObject({
      id: 1,
      post_id: 1,
      photo_key: KEY_B,
    });
    await posts.insertFile(ADA, 1, "photos", file(KEY_C), T0);
    await posts.insertFile(ADA, 2, "photos", file("D".repeat(43)), T0);
    expect(await posts.delete(BOB, { id: 1 })).toEqual({ row: undefined, fileKeys: [] });
    expect((await posts.listFiles(ADA, 1, "photos")).map((row) => row.photo_key)).toEqual([
      KEY_B,
      KEY_C,
    ]);
    const deleted = await posts.delete(ADA, { id: 1 });
    expect(deleted.row?.title).toBe("T");
    expect([...deleted.fileKeys].sort()).toEqual([KEY_A, KEY_B, KEY_C].sort());
    expect((await posts.listFiles(ADA, 2, "photos")).map((row) => row.photo_key)).toEqual([
      "D".repeat(43),
    ]);
  });

  it("adds, lists and deletes child files only under the owner's parent", async () => {
    const { posts } = await setUp();
    await inserted(posts, ADA, { title: "T" });
    expect(await posts.insertFile(BOB, 1, "photos", file(KEY_A), T0)).toBeUndefined();
    expect(await posts.insertFile(ADA, 9, "photos", file(KEY_A), T0)).toBeUndefined();
    await posts.insertFile(ADA, 1, "photos", file(KEY_A), T0);
    expect(await posts.listFiles(BOB, 1, "photos")).toEqual([]);
    expect(await posts.deleteFile(BOB, 1, "photos", 1)).toBeUndefined();
    expect(await posts.deleteFile(ADA, 1, "photos", 1)).toMatchObject({ photo_key: KEY_A });
    expect(await posts.listFiles(ADA, 1, "photos")).toEqual([]);
    expect(() => posts.listFiles(ADA, 1, "covers")).toThrow(RangeError);
  });
});

describe("uniqueColumns", () => {
  const sqliteError = (message: string) => uniqueViolationTarget(new Error(message));

  it("reads SQLite's column and index forms, and nothing of other tables", () => {
    expect(uniqueColumns(label, sqliteError("UNIQUE constraint failed: labels.name"))).toEqual([
      "name",
    ]);
    expect(
      uniqueColumns(post, sqliteError("UNIQUE constraint failed: index 'index_posts_on_slug'")),
    ).toEqual(["slug"]);
    expect(
      uniqueColumns(
        reaction,
        sqliteError("UNIQUE constraint failed: reactions.target_type, reactions.target_id"),
      ),
    ).toEqual(["target_type", "target_id"]);
    expect(uniqueColumns(label, sqliteError("UNIQUE constraint failed: users.email"))).toEqual([]);
    expect(uniqueColumns(label, sqliteError("UNIQUE constraint failed: labels.user_id"))).toEqual(
      [],
    );
    // An owner-scoped index names the owner column too; only the field's column is reported.
    expect(
      uniqueColumns(label, sqliteError("UNIQUE constraint failed: labels.user_id, labels.name")),
    ).toEqual(["name"]);
  });

  it("reads PostgreSQL's index name", () => {
    const violation = { code: "23505", constraint: "index_posts_on_slug" };
    expect(uniqueColumns(post, uniqueViolationTarget(violation))).toEqual(["slug"]);
    const ofUsers = { code: "23505", constraint: "index_users_on_email" };
    expect(uniqueColumns(post, uniqueViolationTarget(ofUsers))).toEqual([]);
  });
});
