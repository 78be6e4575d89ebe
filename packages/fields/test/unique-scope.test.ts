// `^` is unique across the table unless a model opts a field into per-owner uniqueness: the DDL
// text for both dialects, and what the indexes then allow on a real SQLite file.

import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTableSql, defineModel, fieldIndexes, type Model, POSTGRES } from "../src/index.js";

const declarations = ["public_id:token", "name:string^", "slug:string?^", "color:string?"];
const tableWide = defineModel("label", declarations);
const ownerScoped = defineModel("label", declarations, { uniqueScope: "owner" });
const slugPerOwner = defineModel("label", declarations, { uniqueScope: { slug: "owner" } });

const PUBLIC_ID_INDEX = `CREATE UNIQUE INDEX "index_labels_on_public_id" ON "labels" ("public_id");`;

describe("the unique indexes in the DDL", () => {
  it("indexes `^` columns alone by default, on SQLite and Postgres alike", () => {
    for (const dialect of [undefined, POSTGRES]) {
      const sql = createTableSql(tableWide, dialect ? { dialect } : {});
      expect(sql).toContain(PUBLIC_ID_INDEX);
      expect(sql).toContain(`CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("name");`);
      expect(sql).toContain(
        `CREATE UNIQUE INDEX "index_labels_on_slug" ON "labels" ("slug") WHERE "slug" IS NOT NULL;`,
      );
    }
  });

  it("puts the owner column first for an owner-scoped model; the public id stays table-wide", () => {
    for (const dialect of [undefined, POSTGRES]) {
      const sql = createTableSql(ownerScoped, dialect ? { dialect } : {});
      expect(sql).toContain(PUBLIC_ID_INDEX);
      expect(sql).toContain(
        `CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("user_id", "name");`,
      );
      expect(sql).toContain(
        `CREATE UNIQUE INDEX "index_labels_on_slug" ON "labels" ("user_id", "slug") WHERE "slug" IS NOT NULL;`,
      );
    }
  });

  it("scopes only the fields named in a per-field option", () => {
    const sql = createTableSql(slugPerOwner, { dialect: POSTGRES });
    expect(sql).toContain(`CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("name");`);
    expect(sql).toContain(
      `CREATE UNIQUE INDEX "index_labels_on_slug" ON "labels" ("user_id", "slug") WHERE "slug" IS NOT NULL;`,
    );
    expect(slugPerOwner.fields.map((field) => [field.name, field.uniqueScope])).toEqual([
      ["public_id", undefined],
      ["name", undefined],
      ["slug", "owner"],
      ["color", undefined],
    ]);
  });

  it("refuses an owner-scoped field on a table without an owner", () => {
    expect(() => createTableSql(ownerScoped, { ownedByUser: false })).toThrow(
      '`name` is unique per owner, but the table "labels" has no owner column',
    );
    const [, name] = ownerScoped.fields;
    expect(fieldIndexes("labels", name!, "user_id")).toEqual([
      `CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("user_id", "name");`,
    ]);
    expect(createTableSql(tableWide, { ownedByUser: false })).toContain(
      `CREATE UNIQUE INDEX "index_labels_on_name" ON "labels" ("name");`,
    );
  });
});

describe("defineModel's uniqueScope option", () => {
  it.each([
    [{ title: "owner" as const }, "model label: `title` in uniqueScope is not a field"],
    [{ color: "owner" as const }, "model label: `color` in uniqueScope is not unique (`^`)"],
    [
      { public_id: "owner" as const },
      "model label: `public_id` in uniqueScope is always unique across the table",
    ],
  ])("refuses %o", (uniqueScope, message) => {
    expect(() => defineModel("label", declarations, { uniqueScope })).toThrow(message);
  });

  it("takes `table` as the default it is", () => {
    expect(defineModel("label", declarations, { uniqueScope: "table" })).toEqual(tableWide);
    expect(defineModel("label", declarations, { uniqueScope: { name: "table" } })).toEqual(
      tableWide,
    );
  });
});

describe("what the indexes allow on SQLite", () => {
  let db: Database.Database;
  beforeEach(() => {
    db = new Database(":memory:");
    db.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY);
INSERT INTO users (id) VALUES (1), (2);`);
  });
  afterEach(() => db.close());

  let nextId = 0;
  function insert(userId: number, name: string, slug: string | null = null): void {
    const publicId = String(++nextId).padStart(22, "A");
    db.prepare("INSERT INTO labels (user_id, public_id, name, slug) VALUES (?, ?, ?, ?)").run(
      userId,
      publicId,
      name,
      slug,
    );
  }
  const create = (model: Model) => db.exec(createTableSql(model));

  it("table-wide: a value one user has is refused to another", () => {
    create(tableWide);
    insert(1, "urgent", "hello");
    expect(() => insert(2, "urgent")).toThrow("UNIQUE constraint failed: labels.name");
    expect(() => insert(2, "other", "hello")).toThrow("UNIQUE constraint failed: labels.slug");
    insert(2, "other", null);
    insert(1, "third", null);
  });

  it("owner-scoped: each user may hold the same value once", () => {
    create(ownerScoped);
    insert(1, "urgent", "hello");
    insert(2, "urgent", "hello");
    expect(() => insert(1, "urgent")).toThrow(
      "UNIQUE constraint failed: labels.user_id, labels.name",
    );
    expect(() => insert(2, "other", "hello")).toThrow(
      "UNIQUE constraint failed: labels.user_id, labels.slug",
    );
  });

  it("per field: slug per owner, name across the table", () => {
    create(slugPerOwner);
    insert(1, "urgent", "hello");
    insert(2, "other", "hello");
    expect(() => insert(2, "urgent")).toThrow("UNIQUE constraint failed: labels.name");
  });
});
