// The storage keys rows hold, across owners, for the sweep of unreferenced stored files.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersMigration } from "@tessera/accounts/sql";
import { createTableSql, defineModel } from "@tessera/fields";
import { SqlRecordStore } from "@tessera/records/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "tessera-file-keys-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const post = defineModel("post", [
  "title:string",
  "cover:attachment?",
  "banner:attachment?",
  "photos:attachments",
  "scans:attachments",
]);
const comment = defineModel("comment", ["body:text"]);

const file = (key: string) => ({ key, filename: "a.png", contentType: "image/png", size: 3 });
const key = (letter: string) => letter.repeat(43);
const T0 = Date.UTC(2025, 0, 1);

async function setUp() {
  const database = openSqliteFile(join(folder, `keys-${Date.now()}-${Math.random()}.db`));
  await applyMigrations(database, [
    usersMigration,
    { id: "0100_posts", sql: createTableSql(post) },
    { id: "0101_comments", sql: createTableSql(comment) },
  ]);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [email],
    );
  }
  return { database, posts: new SqlRecordStore(database, post) };
}

describe("SqlRecordStore.referencedFileKeys", () => {
  it("gives every key of single attachments and child files, of every owner", async () => {
    const { posts } = await setUp();
    const ada = await posts.insert(1, { title: "a", cover_key: key("A"), banner_key: null }, T0);
    const bob = await posts.insert(2, { title: "b", banner_key: key("B") }, T0);
    expect(ada.ok && bob.ok).toBe(true);
    await posts.insertFile(1, 1, "photos", file(key("C")), T0);
    await posts.insertFile(2, 2, "scans", file(key("D")), T0);
    await posts.insertFile(2, 2, "photos", file(key("E")), T0);
    expect((await posts.referencedFileKeys()).sort()).toEqual(["A", "B", "C", "D", "E"].map(key));
  });

  it("forgets the keys of deleted rows, and is empty for a model without files", async () => {
    const { database, posts } = await setUp();
    await posts.insert(1, { title: "a", cover_key: key("A") }, T0);
    await posts.insertFile(1, 1, "photos", file(key("C")), T0);
    await posts.delete(1, { id: 1 });
    expect(await posts.referencedFileKeys()).toEqual([]);
    expect(await new SqlRecordStore(database, comment).referencedFileKeys()).toEqual([]);
  });
});
