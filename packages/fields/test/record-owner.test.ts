// A model owned by an organization: its table, its JSON form and its schema carry
// `organization_id` and `created_by` instead of `user_id`, and the DDL's constraints hold on a
// real SQLite file.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTableSql,
  defineModel,
  encodeRecord,
  ownerColumnOf,
  ownerTableOf,
  POSTGRES,
  recordJsonSchema,
} from "../src/index.js";

const project = defineModel(
  "project",
  ["name:string^", "description:text?", "status:enum:active,archived"],
  { owner: "organization", uniqueScope: "owner" },
);
const note = defineModel("note", ["title:string"]);

let folder: string;
let db: Database.Database;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "tessera-fields-owner-"));
  db = new Database(join(folder, "app.db"));
  db.pragma("foreign_keys = ON");
  db.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY);
    CREATE TABLE organizations (id INTEGER PRIMARY KEY);
    INSERT INTO users (id) VALUES (1), (2);
    INSERT INTO organizations (id) VALUES (10), (11);`);
  db.exec(createTableSql(project));
});

afterEach(() => {
  db.close();
  rmSync(folder, { recursive: true, force: true });
});

const insert = (organization: number, createdBy: number | null, name: string) =>
  db
    .prepare(
      `INSERT INTO projects (organization_id, created_by, name, status) VALUES (?, ?, ?, 'active')`,
    )
    .run(organization, createdBy, name);

describe("owner: organization", () => {
  it("names the owner's column and table", () => {
    expect([ownerColumnOf(project), ownerTableOf(project)]).toEqual([
      "organization_id",
      "organizations",
    ]);
    expect([ownerColumnOf(note), ownerTableOf(note)]).toEqual(["user_id", "users"]);
    expect(project.owner).toBe("organization");
    // A user's model still equals the plain object; an organization's shows its owner.
    expect(Object.keys(note)).toEqual(["name", "table", "fields"]);
    expect(Object.keys(project)).toContain("owner");
  });

  it("makes organization_id and created_by instead of user_id", () => {
    const columns = db.prepare(`SELECT name FROM pragma_table_info('projects')`).pluck().all();
    expect(columns).toEqual([
      "id",
      "organization_id",
      "created_by",
      "name",
      "description",
      "status",
      "created_at",
      "updated_at",
    ]);
    const indexes = db.prepare(`SELECT name FROM pragma_index_list('projects')`).pluck().all();
    expect(indexes).toContain("index_projects_on_organization_id");
  });

  it("scopes a per-owner unique index by the organization", () => {
    insert(10, 1, "Roadmap");
    insert(11, 1, "Roadmap");
    expect(() => insert(10, 2, "Roadmap")).toThrow(/UNIQUE/);
  });

  it("deletes an organization's records with it, and keeps them when their creator goes", () => {
    insert(10, 1, "Roadmap");
    insert(11, 2, "Launch");
    db.exec("DELETE FROM users WHERE id = 2");
    expect(db.prepare("SELECT created_by FROM projects WHERE name = 'Launch'").pluck().get()).toBe(
      null,
    );
    db.exec("DELETE FROM organizations WHERE id = 10");
    expect(db.prepare("SELECT name FROM projects").pluck().all()).toEqual(["Launch"]);
    expect(() => insert(99, 1, "Nowhere")).toThrow(/FOREIGN KEY/);
  });

  it("writes PostgreSQL's owner index with the id", () => {
    expect(createTableSql(project, { dialect: POSTGRES })).toContain(
      `CREATE INDEX "index_projects_on_organization_id" ON "projects" ("organization_id", "id");`,
    );
  });

  it("shows the owner's columns in the JSON form and the record schema", () => {
    insert(10, 1, "Roadmap");
    const row = db.prepare("SELECT * FROM projects").get() as Record<string, unknown>;
    const json = encodeRecord(project.fields, row);
    expect(json).toMatchObject({ organization_id: 10, created_by: 1, name: "Roadmap" });
    expect(json).not.toHaveProperty("user_id");
    const schema = recordJsonSchema(project);
    expect(schema.required).toEqual(expect.arrayContaining(["organization_id", "created_by"]));
    expect(schema.required).not.toContain("user_id");
    expect((schema.properties as Record<string, unknown>).created_by).toMatchObject({
      type: ["integer", "null"],
    });
  });

  it("refuses a field named after an owner column, and an unknown owner", () => {
    expect(() => defineModel("task", ["created_by:integer"], { owner: "organization" })).toThrow(
      /created_by.*listed twice/,
    );
    expect(() =>
      defineModel("task", ["organization:references"], { owner: "organization" }),
    ).toThrow(/organization_id/);
    expect(() =>
      defineModel("task", ["title:string"], { owner: "team" as unknown as "organization" }),
    ).toThrow("model task: owner is `user` or `organization`");
  });
});
