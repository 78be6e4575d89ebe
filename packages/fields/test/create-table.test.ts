// The generated DDL runs on a real SQLite file, and the constraints it declares hold there.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { richTextSanitizer } from "@tessera/sanitizer";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  columnDefinitions,
  createTableSql,
  decodeJsonCreate,
  defineModel,
  encodeRecord,
  type Model,
  POSTGRES,
} from "../src/index.js";

const POSTS =
  "title:string body:rich_text? published:bool views:integer? rating:float? publish_on:date? starts_at:datetime? reminder_at:time? price:decimal? external_ref:uuid? metadata:json? status:enum:draft,review,published slug:string?^ cover:attachment? lock_version:integer photos:attachments";

const post = defineModel("post", POSTS.split(" "), { richText: richTextSanitizer });
const comment = defineModel("comment", [
  "post:references",
  "parent:references:comment?",
  "body:text",
]);
const label = defineModel("label", ["public_id:token", "name:string^", "color:string?"]);
const reaction = defineModel("reaction", [
  "target:polymorphic:post,comment",
  "kind:enum:like,love",
]);

let folder: string;
let db: Database.Database;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "tessera-fields-"));
  db = new Database(join(folder, "app.db"));
  db.pragma("foreign_keys = ON");
  db.exec(
    createTableSql(defineModel("user", ["email:string^"], { table: "users" }), {
      ownedByUser: false,
    }),
  );
  db.prepare("INSERT INTO users (email) VALUES (?), (?)").run("a@example.com", "b@example.com");
  for (const model of [post, comment, label, reaction]) db.exec(createTableSql(model));
});

afterEach(() => {
  db.close();
  rmSync(folder, { recursive: true, force: true });
});

function insert(model: Model, values: Record<string, unknown>, userId = 1): number {
  const row = { user_id: userId, ...values };
  const columns = Object.keys(row);
  const sql = `INSERT INTO ${model.table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  return Number(db.prepare(sql).run(...Object.values(row)).lastInsertRowid);
}

function created(model: Model, body: Record<string, unknown>): Record<string, unknown> {
  const result = decodeJsonCreate(model.fields, body, { newPublicId: () => "A".repeat(22) });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return { ...result.value.values };
}

describe("createTableSql on SQLite", () => {
  it("stores a decoded record and gives it back in its JSON form", () => {
    const body = {
      title: "Hello",
      body: "<p>Hi</p>",
      published: true,
      views: 9007199254740991,
      rating: 4.5,
      publish_on: "2024-02-29",
      starts_at: "2024-02-29T10:00",
      reminder_at: "09:30:00",
      price: "-0.50",
      external_ref: "0F8FAD5B-D9CB-469F-A165-70867728950E",
      metadata: { tags: ["a"], n: 1 },
      status: "review",
      slug: "hello",
    };
    const id = insert(post, created(post, body));
    const row = db.prepare("SELECT * FROM posts WHERE id = ?").get(id) as Record<string, unknown>;
    const output = encodeRecord(post.fields, row);
    expect(output).toMatchObject({
      id,
      user_id: 1,
      ...body,
      lock_version: 0,
      cover_key: null,
      cover_size: null,
    });
    expect(Object.keys(output)).toEqual([
      "id",
      "user_id",
      ...post.fields.flatMap((field) => field.columns),
      "created_at",
      "updated_at",
    ]);
    expect(String(output.created_at)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("defaults a missing boolean, lock version and required enum", () => {
    db.prepare("INSERT INTO posts (user_id, title) VALUES (1, 't')").run();
    const row = db.prepare("SELECT published, lock_version, status FROM posts").get();
    expect(row).toEqual({ published: 0, lock_version: 0, status: "draft" });
  });

  it.each([
    ["an enum value outside the list", { status: "archived" }],
    ["a boolean other than 0 or 1", { published: 2 }],
    ["invalid JSON text", { metadata: "{" }],
    ["a missing required column", { title: null }],
  ])("refuses %s", (_, values) => {
    expect(() => insert(post, { title: "t", ...values })).toThrow(/constraint failed/);
  });

  it("allows any number of NULLs in an optional unique column, each value once in the table", () => {
    insert(post, { title: "a", slug: null });
    insert(post, { title: "b", slug: null }, 2);
    insert(post, { title: "c", slug: "s" });
    expect(() => insert(post, { title: "d", slug: "s" })).toThrow(
      "UNIQUE constraint failed: posts.slug",
    );
    expect(() => insert(post, { title: "e", slug: "s" }, 2)).toThrow(
      "UNIQUE constraint failed: posts.slug",
    );
    insert(label, { public_id: "B".repeat(22), name: "n" });
    expect(() => insert(label, { public_id: "C".repeat(22), name: "n" })).toThrow(/UNIQUE/);
    expect(() => insert(label, { public_id: "B".repeat(22), name: "m" })).toThrow(/UNIQUE/);
    expect(() => insert(label, { public_id: "short", name: "o" })).toThrow(/CHECK/);
  });

  it("cascades deletes from users and referenced rows, and sets optional references to null", () => {
    const postId = insert(post, { title: "p" });
    const first = insert(comment, { post_id: postId, body: "first" });
    const reply = insert(comment, {
      post_id: insert(post, { title: "q" }),
      parent_id: first,
      body: "reply",
    });
    db.prepare(
      "INSERT INTO post_photo (post_id, photo_key, photo_filename, photo_content_type, photo_size) VALUES (?, 'k', 'f.png', 'image/png', 3)",
    ).run(postId);
    expect(() => insert(comment, { post_id: 999, body: "orphan" })).toThrow(/FOREIGN KEY/);

    db.prepare("DELETE FROM posts WHERE id = ?").run(postId);
    expect(db.prepare("SELECT count(*) AS n FROM post_photo").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT id, parent_id FROM comments").all()).toEqual([
      { id: reply, parent_id: null },
    ]);

    db.prepare("DELETE FROM users WHERE id = 1").run();
    expect(db.prepare("SELECT count(*) AS n FROM posts").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT count(*) AS n FROM comments").get()).toEqual({ n: 0 });
  });

  it("keeps polymorphic types to the listed models and indexes the pair", () => {
    insert(reaction, { target_type: "post", target_id: 1, kind: "like" });
    expect(() => insert(reaction, { target_type: "user", target_id: 1, kind: "like" })).toThrow(
      /CHECK/,
    );
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?")
      .all("reactions");
    expect(indexes).toContainEqual({ name: "index_reactions_on_target_type_and_target_id" });
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name = ?").get("index_comments_on_post_id"),
    ).toBeTruthy();
  });

  it("writes a table without an owner when asked", () => {
    expect(createTableSql(label, { ownedByUser: false })).not.toContain("user_id");
  });
});

describe("the Postgres dialect", () => {
  it("uses Postgres types and keeps the same constraints", () => {
    const sql = createTableSql(post, { dialect: POSTGRES });
    expect(sql).toContain('"id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY');
    expect(sql).toContain('"rating" DOUBLE PRECISION');
    expect(sql).toContain(`CHECK ("metadata" IS NULL OR ("metadata")::jsonb IS NOT NULL)`);
    expect(columnDefinitions(comment.fields[0]!, POSTGRES)).toEqual([
      `"post_id" BIGINT NOT NULL REFERENCES "posts" ("id") ON DELETE CASCADE`,
    ]);
  });
});
