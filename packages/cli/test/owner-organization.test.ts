// `tessera generate model … --owner organization`: an organization's model, its migration run on
// a SQLite file with @tessera/accounts' and @tessera/organizations' tables, the refusals before
// those tables exist, the usage errors, and the later migrations of such a model.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTableSql } from "@tessera/fields";
import { routeRequests } from "@tessera/http";
import { organizationRecords } from "@tessera/organizations/routes";
import { organizationMigrations, SqlOrganizationStore } from "@tessera/organizations/sql";
import { jsonRecordRoutes } from "@tessera/records";
import { SqlRecordStore } from "@tessera/records/sql";
import { migrationSql } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_IN_AREAS } from "../../organizations/src/roles.js";
import { ORGANIZATION_AREAS } from "../src/commands.js";
import { ROUTES_MARKER } from "../src/model-mount.js";
import { parseModelSource } from "../src/model-source.js";
import { renderTemplate } from "../src/template.js";
import { appMigration } from "./support/app-migration.js";
import { tessera } from "./support/tessera-process.js";

const PROJECT = ["name:string", "slug:string^", "lead:references:user?"];
/** The organizations migration comes right after the account ones; the app's own after it. */
const ORGANIZATIONS_MIGRATION = `migrations/${appMigration("tessera_organizations")}.sql`;
const CREATE_PROJECTS = `migrations/${appMigration("create_projects", 1)}.sql`;
const ROUTES_NOTE =
  "its routes are an organization's, with `scope: organizationRecords({ organizations, roles })` of @tessera/organizations/routes: GET|POST /api/orgs/{slug}/projects, GET|PATCH|DELETE /api/orgs/{slug}/projects/{id}, and the pages under /orgs/{slug}/projects, each checking the member's `projects:<action>` permission";
const GRAPHQL_NOTE =
  "for GraphQL, wrap it in graphqlModel and give graphqlRoutes organizationOwner: resolveOrganizationRecordOwner({ organizations, roles })";
/** The scope both its JSON routes and its pages are given, as the printed lines write it. */
const SCOPE =
  "      scope: organizationRecords({ organizations: new SqlOrganizationStore(options.database) }),";

let app: string;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), "tessera-owner-organization-"));
});
afterEach(() => {
  rmSync(app, { recursive: true, force: true });
});

const read = (path: string) => readFileSync(join(app, path), "utf8");
const migrationFiles = () =>
  existsSync(join(app, "migrations")) ? readdirSync(join(app, "migrations")).sort() : [];

/** @tessera/organizations' own migration, written into the app as its next file. */
function organizationsMigration(): void {
  const [migration] = organizationMigrations;
  writeFileSync(join(app, ORGANIZATIONS_MIGRATION), migrationSql(migration!.sql, "sqlite"));
}

/** An app with the account tables and the organizations table, as the brief's order has it. */
async function appWithOrganizations(): Promise<void> {
  expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
  organizationsMigration();
}

/** The SQLite file the app's migrations were applied to, with foreign keys enforced. */
async function migrated(): Promise<Database.Database> {
  const run = await tessera(["migrate", "--database", "app.db"], app);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const db = new Database(join(app, "app.db"));
  db.pragma("foreign_keys = ON");
  return db;
}

/** Two users, two organizations, and a project of the first made by the first user. */
function seed(db: Database.Database): void {
  db.exec(`INSERT INTO users (email, created_at, updated_at) VALUES
  ('ada@example.com', '2026-01-01 00:00:00', '2026-01-01 00:00:00'),
  ('bob@example.com', '2026-01-01 00:00:00', '2026-01-01 00:00:00');
INSERT INTO organizations (name, slug, created_at) VALUES ('Acme', 'acme', 0), ('Globex', 'globex', 0);
INSERT INTO projects (organization_id, created_by, name, slug) VALUES (1, 1, 'Site', 'site');`);
}

describe("tessera generate model --owner organization", () => {
  it("writes a module declaring the owner and a migration that creates an organization's table", async () => {
    await appWithOrganizations();
    const run = await tessera(
      [
        "generate",
        "model",
        "project",
        ...PROJECT,
        "--owner",
        "organization",
        "--unique-scope",
        "owner",
      ],
      app,
    );
    expect(run).toEqual({
      status: 0,
      stdout: [
        "wrote src/models/project.ts",
        `wrote ${CREATE_PROJECTS}`,
        `note: ${ROUTES_NOTE}`,
        `note: ${GRAPHQL_NOTE}`,
        "",
      ].join("\n"),
      stderr: "",
    });
    const command =
      "tessera generate model project name:string slug:string^ lead:references:user? --owner organization";
    expect(read("src/models/project.ts")).toBe(
      [
        `// Generated by \`${command}\`.`,
        "// Change a field by editing its declaration here and adding a migration for the column.",
        'import { defineModel } from "@tessera/fields";',
        "",
        "/** The `project` model (table `projects`): an organization's records, for @tessera/records with `organizationRecords`. */",
        "export const projectModel = defineModel(",
        '  "project",',
        '  ["name:string", "slug:string^", "lead:references:user?"],',
        '  { table: "projects", owner: "organization", uniqueScope: "owner" },',
        ");",
        "",
      ].join("\n"),
    );
    const sql = read(CREATE_PROJECTS);
    expect(sql).toBe(
      [
        `-- Generated by \`${command}\`.`,
        'CREATE TABLE "projects" (',
        '  "id" INTEGER PRIMARY KEY AUTOINCREMENT,',
        '  "organization_id" INTEGER NOT NULL REFERENCES "organizations" ("id") ON DELETE CASCADE,',
        '  "created_by" INTEGER REFERENCES "users" ("id") ON DELETE SET NULL,',
        '  "name" TEXT NOT NULL,',
        '  "slug" TEXT NOT NULL,',
        '  "lead_id" INTEGER REFERENCES "users" ("id") ON DELETE SET NULL,',
        "  \"created_at\" TEXT NOT NULL DEFAULT (datetime('now')),",
        "  \"updated_at\" TEXT NOT NULL DEFAULT (datetime('now'))",
        ");",
        'CREATE INDEX "index_projects_on_organization_id" ON "projects" ("organization_id");',
        'CREATE UNIQUE INDEX "index_projects_on_slug" ON "projects" ("organization_id", "slug");',
        'CREATE INDEX "index_projects_on_lead_id" ON "projects" ("lead_id");',
        "",
      ].join("\n"),
    );

    // The module imports as an organization's model, and its table is the migration's.
    const { projectModel } = await import(join(app, "src/models/project.ts"));
    expect(projectModel.owner).toBe("organization");
    expect(`-- Generated by \`${command}\`.\n${createTableSql(projectModel)}`).toBe(sql);
    expect(parseModelSource(read("src/models/project.ts"))).toMatchObject({
      owner: "organization",
      owned: true,
      uniqueScope: "owner",
    });
  });

  it("makes a table whose foreign keys and per-organization unique index hold on SQLite", async () => {
    await appWithOrganizations();
    const args = ["generate", "model", "project", ...PROJECT, "--owner", "organization"];
    expect((await tessera([...args, "--unique-scope", "owner"], app)).status).toBe(0);
    const db = await migrated();
    try {
      expect(
        db.prepare("SELECT name, \"notnull\" AS required FROM pragma_table_info('projects')").all(),
      ).toEqual([
        { name: "id", required: 0 },
        { name: "organization_id", required: 1 },
        { name: "created_by", required: 0 },
        { name: "name", required: 1 },
        { name: "slug", required: 1 },
        { name: "lead_id", required: 0 },
        { name: "created_at", required: 1 },
        { name: "updated_at", required: 1 },
      ]);
      expect(
        db
          .prepare(
            'SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(\'projects\') ORDER BY "from"',
          )
          .all(),
      ).toEqual([
        { from: "created_by", table: "users", to: "id", on_delete: "SET NULL" },
        { from: "lead_id", table: "users", to: "id", on_delete: "SET NULL" },
        { from: "organization_id", table: "organizations", to: "id", on_delete: "CASCADE" },
      ]);
      seed(db);

      // The slug is unique within an organization, not across them.
      db.exec(
        "INSERT INTO projects (organization_id, created_by, name, slug) VALUES (2, 2, 'Site', 'site')",
      );
      expect(() =>
        db.exec(
          "INSERT INTO projects (organization_id, created_by, name, slug) VALUES (1, 2, 'Again', 'site')",
        ),
      ).toThrow(/UNIQUE constraint failed: projects\.organization_id, projects\.slug/);
      // An organization that does not exist owns nothing.
      expect(() =>
        db.exec("INSERT INTO projects (organization_id, name, slug) VALUES (99, 'Lost', 'lost')"),
      ).toThrow(/FOREIGN KEY constraint failed/);

      // The creator's account going leaves the record; the organization's going takes it.
      db.exec("DELETE FROM users WHERE id = 1");
      expect(
        db.prepare("SELECT organization_id, created_by FROM projects ORDER BY id").all(),
      ).toEqual([
        { organization_id: 1, created_by: null },
        { organization_id: 2, created_by: 2 },
      ]);
      db.exec("DELETE FROM organizations WHERE id = 1");
      expect(db.prepare("SELECT organization_id FROM projects").all()).toEqual([
        { organization_id: 2 },
      ]);
    } finally {
      db.close();
    }
  });

  it("writes PostgreSQL's owner index with the id, as for a user's table", async () => {
    await appWithOrganizations();
    const run = await tessera(
      [
        "generate",
        "model",
        "project",
        "name:string",
        "--owner",
        "organization",
        "--dialect",
        "postgres",
      ],
      app,
    );
    expect(run.status).toBe(0);
    const sql = read(CREATE_PROJECTS);
    expect(sql).toContain(
      '"organization_id" BIGINT NOT NULL REFERENCES "organizations" ("id") ON DELETE CASCADE,',
    );
    expect(sql).toContain(
      'CREATE INDEX "index_projects_on_organization_id" ON "projects" ("organization_id", "id");',
    );
  });

  it("takes `--owner user` as the default, a `user_id` table", async () => {
    expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
    const run = await tessera(
      ["generate", "model", "note", "title:string", "--owner", "user"],
      app,
    );
    expect(run.status).toBe(0);
    expect(read("src/models/note.ts")).toContain(
      'export const noteModel = defineModel("note", ["title:string"], { table: "notes" });\n',
    );
    const sql = read(`migrations/${appMigration("create_notes")}.sql`);
    expect(sql).toContain('"user_id" INTEGER NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE');
    expect(sql).not.toContain("organization");
  });

  it("refuses while no migration creates the `organizations` table, and writes nothing", async () => {
    expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
    const before = migrationFiles();
    const run = await tessera(
      ["generate", "model", "project", "name:string", "--owner", "organization"],
      app,
    );
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: records belong to organizations, but no migration creates the `organizations` table\n" +
        "hint: npm install @tessera/organizations, then write its migration (`organizationMigrations` of @tessera/organizations/sql) into migrations/, after the account ones; or leave out `--owner organization`\n",
    });
    expect(migrationFiles()).toEqual(before);
    expect(existsSync(join(app, "src/models/project.ts"))).toBe(false);

    // With the package's migration in place, the same command writes the model.
    organizationsMigration();
    expect(
      (
        await tessera(
          ["generate", "model", "project", "name:string", "--owner", "organization"],
          app,
        )
      ).status,
    ).toBe(0);
  });

  it("refuses before the `users` table too, which `created_by` references", async () => {
    const run = await tessera(
      ["generate", "model", "project", "name:string", "--owner", "organization", "--json"],
      app,
    );
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      error:
        "an organization's records name the member who created them (`created_by`), but no migration creates the `users` table",
      hint: "run `tessera generate accounts` first, then add @tessera/organizations' migration",
    });
    expect(readdirSync(app)).toEqual([]);
  });

  it("refuses fields named after the owner's columns, and tables named like a permission area", async () => {
    await appWithOrganizations();
    for (const column of ["organization_id", "created_by"]) {
      const run = await tessera(
        ["generate", "model", "project", `${column}:integer`, "--owner", "organization"],
        app,
      );
      expect(run.status, column).toBe(1);
      expect(run.stderr, column).toContain(`hint: the table already has a \`${column}\` column`);
    }
    const member = await tessera(
      ["generate", "model", "member", "name:string", "--owner", "organization"],
      app,
    );
    expect(member).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "error: the table `members` is named like a permission area of @tessera/organizations\n" +
        "hint: pass `--table <name>` for another table name: `organizationRecords` refuses this one, whose permissions would mean something else\n",
    });
    expect(
      (
        await tessera(
          [
            "generate",
            "model",
            "member",
            "name:string",
            "--owner",
            "organization",
            "--table",
            "crew",
          ],
          app,
        )
      ).status,
    ).toBe(0);
    expect(migrationFiles().filter((file) => file.includes("create_"))).toEqual([
      `${appMigration("create_crew", 1)}.sql`,
    ]);
  });

  it("lists the same permission areas as @tessera/organizations", () => {
    expect([...ORGANIZATION_AREAS].sort()).toEqual([...BUILT_IN_AREAS].sort());
  });

  it.each([
    [
      ["--owner", "team"],
      "unknown owner `team`",
      "write `--owner user` (the default: a `user_id` column) or `--owner organization` (`organization_id` and `created_by`)",
    ],
    [
      ["--owner"],
      "--owner needs a value",
      "write `--owner user` (the default: a `user_id` column) or `--owner organization` (`organization_id` and `created_by`)",
    ],
    [
      ["--owner", "organization", "--no-owner"],
      "--owner organization and --no-owner cannot go together",
      "write one: `--owner user` (the default), `--owner organization`, or `--no-owner` for a table no one owns",
    ],
    [
      ["--no-owner", "--owner=user"],
      "--owner user and --no-owner cannot go together",
      "write one: `--owner user` (the default), `--owner organization`, or `--no-owner` for a table no one owns",
    ],
    [
      ["--owner", "organization", "--graphql"],
      "--graphql: an organization's records have no GraphQL API yet",
      "leave out `--graphql`: its records are served by jsonRecordRoutes and htmlRecordRoutes with `scope: organizationRecords(...)` of @tessera/organizations/routes",
    ],
    [
      ["--no-owner", "--mount"],
      "--mount: a table no one owns has no record routes to mount",
      "leave out `--mount`: @tessera/records serves the records of a user or of an organization",
    ],
  ])("refuses the command line %j (exit 2)", async (options, reason, hint) => {
    await appWithOrganizations();
    const before = migrationFiles();
    const run = await tessera(["generate", "model", "project", "name:string", ...options], app);
    expect(run).toEqual({ status: 2, stdout: "", stderr: `error: ${reason}\nhint: ${hint}\n` });
    // `--json` first: a bare `--owner` would take the word after it as its value.
    const json = await tessera(
      ["generate", "model", "project", "name:string", "--json", ...options],
      app,
    );
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ ok: false, error: reason, hint });
    expect(migrationFiles()).toEqual(before);
  });

  it("prints its routes under the organization's scope in a `tessera new` project, the pages alone with --html-only", async () => {
    await appWithOrganizations();
    mkdirSync(join(app, "src"), { recursive: true });
    writeFileSync(
      join(app, "src/app.ts"),
      renderTemplate("new-app-hono.ts", { routesMarker: ROUTES_MARKER }),
    );
    const both = await tessera(
      ["generate", "model", "project", "name:string", "--owner", "organization"],
      app,
    );
    expect(both.status).toBe(0);
    const printed = both.stdout.split("\n");
    expect(printed).toContain(
      '  import { organizationRecords } from "@tessera/organizations/routes";',
    );
    expect(printed.filter((line) => line === SCOPE)).toHaveLength(2);
    const pages = await tessera(
      ["generate", "model", "task", "name:string", "--owner", "organization", "--html-only"],
      app,
    );
    expect(pages.status).toBe(0);
    expect(pages.stdout).toContain("    ...htmlRecordRoutes({\n");
    expect(pages.stdout).not.toContain("jsonRecordRoutes");
    expect(pages.stdout.split("\n").filter((line) => line === SCOPE)).toHaveLength(1);
  });

  it("refuses --owner outside `generate model`", async () => {
    const run = await tessera(["check", "name:string", "--owner", "organization"], app);
    expect(run).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "error: --table, --owner and --no-owner apply to `tessera generate model` only\nhint: leave them out of `tessera check`\n",
    });
  });
});

describe("the generated organization model, served", () => {
  it("is what jsonRecordRoutes with organizationRecords serves under /api/orgs/{slug}/projects", async () => {
    await appWithOrganizations();
    const args = ["generate", "model", "project", ...PROJECT, "--owner", "organization"];
    expect((await tessera([...args, "--unique-scope", "owner"], app)).status).toBe(0);
    const setup = await migrated();
    seed(setup);
    setup.close();

    const database = openSqliteFile(join(app, "app.db"));
    try {
      const organizations = new SqlOrganizationStore(database);
      // Ada (user 1) owns a new organization; Bob (user 2) is no member of it.
      await organizations.createOrganization({
        name: "Initech",
        slug: "initech",
        ownerId: 1,
        now: 0,
      });
      const { projectModel } = await import(join(app, "src/models/project.ts"));
      const handle = routeRequests(
        jsonRecordRoutes({
          model: projectModel,
          store: new SqlRecordStore(database, projectModel),
          authenticate: async (request) => {
            const id = Number(request.headers.get("authorization")?.replace(/^Bearer /, ""));
            return id > 0
              ? {
                  ok: true,
                  value: { user: { id, email: `user${id}@example.com`, confirmedAt: 0 } },
                }
              : { ok: false, response: new Response(null, { status: 401 }) };
          },
          scope: organizationRecords({ organizations }),
        }),
      );
      const call = async (who: number, method: string, path: string, body?: unknown) => {
        const response = await handle(
          new Request(`https://app.example${path}`, {
            method,
            headers: { "content-type": "application/json", authorization: `Bearer ${who}` },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
          {},
        );
        return { status: response?.status, body: await response?.json() };
      };

      const created = await call(1, "POST", "/api/orgs/initech/projects", {
        name: "Launch",
        slug: "site",
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: "Launch", slug: "site", created_by: 1 });
      // `site` is taken in Acme (seeded), not in Initech: unique per organization.
      expect(
        (await call(1, "POST", "/api/orgs/initech/projects", { name: "Again", slug: "site" }))
          .status,
      ).toBe(422);
      expect((await call(1, "GET", "/api/orgs/initech/projects")).body).toMatchObject([
        { name: "Launch" },
      ]);
      expect((await call(2, "GET", "/api/orgs/initech/projects")).status).toBe(404);
      expect(
        await database.all("SELECT organization_id, created_by, slug FROM projects ORDER BY id"),
      ).toEqual([
        { organization_id: 1, created_by: 1, slug: "site" },
        { organization_id: 3, created_by: 1, slug: "site" },
      ]);
    } finally {
      database.close();
    }
  });
});

describe("later migrations of an organization's model", () => {
  beforeEach(async () => {
    await appWithOrganizations();
    const args = ["generate", "model", "project", ...PROJECT, "--owner", "organization"];
    expect((await tessera([...args, "--unique-scope", "owner"], app)).status).toBe(0);
    const db = await migrated();
    seed(db);
    db.close();
  });

  const generate = (...args: string[]) => tessera(["generate", "migration", ...args], app);
  const migration = (name: string, offset: number) =>
    read(`migrations/${appMigration(name, offset)}.sql`);

  it("adds a per-organization unique field on `organization_id`, and the module keeps its owner", async () => {
    const run = await generate("add_code_to_projects", "code:string?^", "--json");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      written: [`migrations/${appMigration("add_code_to_projects", 2)}.sql`],
      updated: ["src/models/project.ts"],
    });
    expect(migration("add_code_to_projects", 2)).toBe(
      [
        "-- Generated by `tessera generate migration add_code_to_projects code:string?^`.",
        'ALTER TABLE "projects" ADD COLUMN "code" TEXT;',
        'CREATE UNIQUE INDEX "index_projects_on_code" ON "projects" ("organization_id", "code") WHERE "code" IS NOT NULL;',
        "",
      ].join("\n"),
    );
    expect(read("src/models/project.ts")).toContain(
      [
        "export const projectModel = defineModel(",
        '  "project",',
        '  ["name:string", "slug:string^", "lead:references:user?", "code:string?^"],',
        '  { table: "projects", owner: "organization", uniqueScope: "owner" },',
        ");",
      ].join("\n"),
    );

    const db = await migrated();
    try {
      db.exec("UPDATE projects SET code = 'A1' WHERE id = 1");
      db.exec(
        "INSERT INTO projects (organization_id, name, slug, code) VALUES (2, 'Site', 'site', 'A1')",
      );
      expect(() =>
        db.exec(
          "INSERT INTO projects (organization_id, name, slug, code) VALUES (1, 'Two', 'two', 'A1')",
        ),
      ).toThrow(/UNIQUE constraint failed: projects\.organization_id, projects\.code/);
    } finally {
      db.close();
    }
  });

  it("refuses to add a field named after an owner column", async () => {
    for (const column of ["organization_id", "created_by"]) {
      const run = await generate(`add_${column}_to_projects`, `${column}:integer?`);
      expect(run.status, column).toBe(1);
      expect(run.stderr, column).toContain(`the table already has a \`${column}\` column`);
    }
  });

  it("renames and indexes per organization, and rebuilds the table keeping its owner columns", async () => {
    expect((await generate("rename_slug_to_handle_in_projects")).status).toBe(0);
    expect(migration("rename_slug_to_handle_in_projects", 2).split("\n").slice(1)).toEqual([
      'DROP INDEX IF EXISTS "index_projects_on_slug";',
      'ALTER TABLE "projects" RENAME COLUMN "slug" TO "handle";',
      'CREATE UNIQUE INDEX "index_projects_on_handle" ON "projects" ("organization_id", "handle");',
      "",
    ]);
    expect((await generate("add_index_to_projects", "name^")).status).toBe(0);
    expect(migration("add_index_to_projects", 3).split("\n").slice(1)).toEqual([
      'CREATE UNIQUE INDEX "index_projects_on_name" ON "projects" ("organization_id", "name");',
      "",
    ]);
    // SQLite drops a foreign key column by rebuilding the table, owner columns and all.
    expect((await generate("remove_lead_from_projects", "lead")).status).toBe(0);
    const rebuild = migration("remove_lead_from_projects", 4);
    expect(rebuild).toContain(
      'INSERT INTO "projects_rebuilt" ("id", "organization_id", "created_by", "name", "handle", "created_at", "updated_at") SELECT "id", "organization_id", "created_by", "name", "handle", "created_at", "updated_at" FROM "projects";',
    );
    expect(rebuild).toContain(
      'CREATE INDEX "index_projects_on_organization_id" ON "projects" ("organization_id");',
    );
    expect(parseModelSource(read("src/models/project.ts"))).toMatchObject({
      owner: "organization",
      uniqueScope: "owner",
      declarations: ["name:string^", "handle:string^"],
    });

    const db = await migrated();
    try {
      expect(db.prepare("SELECT organization_id, created_by, handle FROM projects").all()).toEqual([
        { organization_id: 1, created_by: 1, handle: "site" },
      ]);
      expect(
        db
          .prepare(
            'SELECT "from", "table", on_delete FROM pragma_foreign_key_list(\'projects\') ORDER BY "from"',
          )
          .all(),
      ).toEqual([
        { from: "created_by", table: "users", on_delete: "SET NULL" },
        { from: "organization_id", table: "organizations", on_delete: "CASCADE" },
      ]);
      expect(
        db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'projects' AND sql IS NOT NULL ORDER BY name",
          )
          .all(),
      ).toEqual([
        { name: "index_projects_on_handle" },
        { name: "index_projects_on_name" },
        { name: "index_projects_on_organization_id" },
      ]);
      db.exec("INSERT INTO projects (organization_id, name, handle) VALUES (2, 'Site', 'site')");
      expect(() =>
        db.exec("INSERT INTO projects (organization_id, name, handle) VALUES (1, 'Other', 'site')"),
      ).toThrow(/UNIQUE constraint failed: projects\.organization_id, projects\.handle/);
    } finally {
      db.close();
    }
  });
});

describe('a user\'s model with `uniqueScope: "owner"`', () => {
  it("gets its added `^` fields unique per user too, as the module declares them", async () => {
    expect((await tessera(["generate", "accounts"], app)).status).toBe(0);
    const model = ["generate", "model", "tag", "name:string^", "--unique-scope", "owner"];
    expect((await tessera(model, app)).status).toBe(0);
    const run = await tessera(["generate", "migration", "add_code_to_tags", "code:string?^"], app);
    expect(run.status).toBe(0);
    expect(read(`migrations/${appMigration("add_code_to_tags", 1)}.sql`)).toContain(
      'CREATE UNIQUE INDEX "index_tags_on_code" ON "tags" ("user_id", "code") WHERE "code" IS NOT NULL;',
    );
  });
});
