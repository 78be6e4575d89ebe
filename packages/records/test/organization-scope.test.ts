// Records owned by an organization (`owner: "organization"`): served under the scope's prefix,
// each route asking the scope for its action, written with `organization_id` and `created_by`,
// referencing only that organization's records; on SQLite and in memory alike.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usersMigration } from "@tessera/accounts/sql";
import { defineModel, type Model } from "@tessera/fields";
import { jsonError, notFound, type RouteMiddleware, routeRequests } from "@tessera/http";
import { SqlRecordStore } from "@tessera/records/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { htmlRecordRoutes } from "../src/html.js";
import {
  jsonRecordRoutes,
  MemoryObjectStorage,
  MemoryRecordStore,
  MemoryRecordTables,
  openApiDocument,
  type RecordAction,
  type RecordScope,
  type RecordScopeInput,
  type RecordStore,
  recordActionOf,
} from "../src/index.js";
import { recordMigration } from "../src/sql.js";
import { ADA, BOB, ownersRequest, postModel, T0, testAuthentication } from "./fixtures.js";

const project = defineModel("project", ["name:string", "brief:attachment?"], {
  owner: "organization",
});
const task = defineModel(
  "task",
  ["project:references", "post:references?", "user:references:user?", "title:string"],
  { owner: "organization" },
);
/** References a table that has both `organization_id` and a `user_id` field: still theirs. */
const checklist = defineModel("checklist", ["task:references", "title:string"], {
  owner: "organization",
});

/** Ada may do anything in `acme` (organization 10); Bob may only read in `acme` and owns `beta` (11). */
const MEMBERS: Record<number, Record<string, { id: number; actions: readonly RecordAction[] }>> = {
  [ADA]: { acme: { id: 10, actions: ["read", "create", "update", "delete"] } },
  [BOB]: {
    acme: { id: 10, actions: ["read"] },
    beta: { id: 11, actions: ["read", "create", "update", "delete"] },
  },
};

/** A scope as `organizationRecords` makes one, over {@link MEMBERS}; it notes what it is asked. */
function testOrganizationScope(asked: string[]): RecordScope {
  return {
    owner: "organization",
    pathPrefix: "/orgs/:slug",
    ownerFor(action, model): RouteMiddleware<RecordScopeInput, RecordScopeInput & never> {
      return ((next: (request: Request, context: object) => Promise<Response>) =>
        async (request: Request, context: RecordScopeInput) => {
          asked.push(`${request.method} ${model.table}:${action}`);
          const userId = context.user?.id ?? 0;
          const member = MEMBERS[userId]?.[context.params.slug ?? ""];
          if (!member) return notFound();
          if (!member.actions.includes(action)) {
            return jsonError(403, `You need the ${model.table}:${action} permission.`, {
              code: "forbidden",
            });
          }
          return next(request, { ...context, ownerId: member.id, createdBy: userId });
        }) as never;
    },
  };
}

const folder = mkdtempSync(join(tmpdir(), "tessera-records-orgs-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

type StoreOf = (model: Model) => RecordStore;

async function sqliteStores(): Promise<StoreOf> {
  const database = openSqliteFile(join(folder, `orgs-${++files}.db`));
  await applyMigrations(database, [
    usersMigration,
    { id: "0001_organizations", sql: "CREATE TABLE organizations (id INTEGER PRIMARY KEY);" },
    recordMigration(postModel, "0100_create_posts"),
    recordMigration(project, "0101_create_projects"),
    recordMigration(task, "0102_create_tasks"),
    recordMigration(checklist, "0103_create_checklists"),
  ]);
  for (const email of ["ada@example.com", "bob@example.com"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [email],
    );
  }
  await database.run("INSERT INTO organizations (id) VALUES (10), (11)");
  return (model) => new SqlRecordStore(database, model);
}

async function memoryStores(): Promise<StoreOf> {
  const tables = new MemoryRecordTables();
  for (const id of [ADA, BOB]) tables.table("users").rows.set(id, { id });
  for (const id of [10, 11]) tables.table("organizations").rows.set(id, { id });
  return (model) => new MemoryRecordStore(tables, model);
}

async function setUp(stores: StoreOf) {
  const asked: string[] = [];
  const scope = testOrganizationScope(asked);
  const storage = new MemoryObjectStorage();
  const routes = routeRequests([
    ...jsonRecordRoutes({
      model: postModel,
      store: stores(postModel),
      storage,
      authenticate: testAuthentication,
    }),
    ...[project, task, checklist].flatMap((model) =>
      jsonRecordRoutes({
        model,
        store: stores(model),
        storage,
        authenticate: testAuthentication,
        scope,
      }),
    ),
  ]);
  async function call(user: number, method: string, path: string, body?: unknown) {
    const init: RequestInit =
      body === undefined
        ? { method }
        : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    const response = await routes(ownersRequest(user, `http://app.test${path}`, init), {});
    if (!response) throw new Error(`no route for ${method} ${path}`);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  return { asked, call };
}

describe.each([
  ["SQLite", sqliteStores],
  ["memory", memoryStores],
])("an organization's records (%s)", (_engine, stores) => {
  it("are served under the scope's prefix, each route asking for its own action", async () => {
    const { asked, call } = await setUp(await stores());
    const made = await call(ADA, "POST", "/api/orgs/acme/projects", { name: "Roadmap" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      id: 1,
      organization_id: 10,
      created_by: ADA,
      name: "Roadmap",
    });
    expect(made.body).not.toHaveProperty("user_id");
    await call(ADA, "GET", "/api/orgs/acme/projects");
    await call(ADA, "GET", "/api/orgs/acme/projects/1");
    await call(ADA, "PATCH", "/api/orgs/acme/projects/1", { name: "Roadmap 2" });
    await call(ADA, "DELETE", "/api/orgs/acme/projects/1/brief");
    await call(ADA, "GET", "/api/orgs/acme/projects/1/brief");
    await call(ADA, "DELETE", "/api/orgs/acme/projects/1");
    expect(asked).toEqual([
      "POST projects:create",
      "GET projects:read",
      "GET projects:read",
      "PATCH projects:update",
      "DELETE projects:update",
      "GET projects:read",
      "DELETE projects:delete",
    ]);
    await expect(call(ADA, "GET", "/api/projects")).rejects.toThrow(
      "no route for GET /api/projects",
    );
  });

  it("act for the organization: a reader reads a record another member made, and writes nothing", async () => {
    const { call } = await setUp(await stores());
    await call(ADA, "POST", "/api/orgs/acme/projects", { name: "Roadmap" });
    const read = await call(BOB, "GET", "/api/orgs/acme/projects/1");
    expect(read.body).toMatchObject({ name: "Roadmap", created_by: ADA });
    const refused = await call(BOB, "PATCH", "/api/orgs/acme/projects/1", { name: "Mine" });
    expect(refused.status).toBe(403);
    expect((await call(ADA, "GET", "/api/orgs/acme/projects/1")).body.name).toBe("Roadmap");
    // Bob's own organization holds none of acme's records, by any route.
    expect((await call(BOB, "GET", "/api/orgs/beta/projects/1")).status).toBe(404);
    expect((await call(BOB, "PATCH", "/api/orgs/beta/projects/1", { name: "x" })).status).toBe(404);
    expect((await call(BOB, "DELETE", "/api/orgs/beta/projects/1")).status).toBe(404);
    expect((await call(BOB, "GET", "/api/orgs/beta/projects")).body).toEqual([]);
    // Ada is no member of beta: its routes are a 404 before any record is looked at.
    expect((await call(ADA, "GET", "/api/orgs/beta/projects")).status).toBe(404);
  });

  it("reference only records of the same organization", async () => {
    const { call } = await setUp(await stores());
    await call(ADA, "POST", "/api/orgs/acme/projects", { name: "Acme's" });
    await call(BOB, "POST", "/api/orgs/beta/projects", { name: "Beta's" });
    await call(ADA, "POST", "/api/posts", { title: "Ada's own post", status: "draft" });
    const own = await call(ADA, "POST", "/api/orgs/acme/tasks", { project_id: 1, title: "Plan" });
    expect(own.status).toBe(201);
    const assigned = await call(ADA, "POST", "/api/orgs/acme/tasks", {
      project_id: 1,
      user_id: BOB,
      title: "Assigned",
    });
    expect(assigned.status).toBe(201);
    const listed = await call(ADA, "POST", "/api/orgs/acme/checklists", {
      task_id: assigned.body.id,
      title: "Steps",
    });
    expect(listed.status).toBe(201);
    expect(
      (await call(BOB, "POST", "/api/orgs/beta/checklists", { task_id: 1, title: "x" })).body.error
        .fields,
    ).toEqual({ task_id: ["must exist"] });
    const foreign = await call(ADA, "POST", "/api/orgs/acme/tasks", { project_id: 2, title: "x" });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.fields).toEqual({ project_id: ["must exist"] });
    // A user's record, even the member's own, is no organization's to point to.
    const personal = await call(ADA, "POST", "/api/orgs/acme/tasks", {
      project_id: 1,
      post_id: 1,
      title: "x",
    });
    expect(personal.body.error.fields).toEqual({ post_id: ["must exist"] });
  });
});

describe("an organization's model", () => {
  const storage = new MemoryObjectStorage();
  const store = new MemoryRecordStore(new MemoryRecordTables(), project);

  it("is refused without a scope for organizations, and a user's model with one", () => {
    expect(() =>
      jsonRecordRoutes({ model: project, store, storage, authenticate: testAuthentication }),
    ).toThrow(
      "model project belongs to organizations: pass `scope: organizationRecords(...)` of @tessera/organizations/routes",
    );
    const scope = testOrganizationScope([]);
    const posts = new MemoryRecordStore(new MemoryRecordTables(), postModel);
    expect(() =>
      jsonRecordRoutes({
        model: postModel,
        store: posts,
        storage,
        authenticate: testAuthentication,
        scope,
      }),
    ).toThrow("model post belongs to users");
    expect(() =>
      htmlRecordRoutes({
        model: project,
        store,
        storage,
        layout: () => "",
        authenticate: async () => ({ ok: false, response: new Response(null, { status: 401 }) }),
        sessions: undefined as never,
        allowedOrigins: [],
      }),
    ).toThrow("model project belongs to organizations");
  });

  it("sends its events under the owner id eventOwner gives, and is refused without one", async () => {
    const database = openSqliteFile(join(folder, `orgs-${++files}.db`));
    await applyMigrations(database, [
      usersMigration,
      { id: "0001_organizations", sql: "CREATE TABLE organizations (id INTEGER PRIMARY KEY);" },
    ]);
    await database.run("INSERT INTO organizations (id) VALUES (7)");
    const withEvents = defineModel("project", ["name:string"], {
      owner: "organization",
      events: true,
    });
    await applyMigrations(database, [recordMigration(withEvents, "0101_create_projects")]);
    const sent: Array<[number, string]> = [];
    const sink = {
      send: async (_transaction: unknown, owner: number, type: string) => {
        sent.push([owner, type]);
      },
    };
    expect(() => new SqlRecordStore(database, withEvents, { events: sink })).toThrow(
      "model project belongs to organizations: pass `eventOwner`",
    );
    const store = new SqlRecordStore(database, withEvents, {
      events: sink,
      eventOwner: (organizationId) => -organizationId,
    });
    const inserted = await store.insert(7, { name: "Roadmap", created_by: null }, T0);
    expect(inserted.ok).toBe(true);
    await store.delete(7, { id: 1 });
    expect(sent).toEqual([
      [-7, "project.created"],
      [-7, "project.deleted"],
    ]);
  });

  it("is described under /api/orgs/{slug}, with its 403", () => {
    const document = openApiDocument({ models: [project], info: { title: "t", version: "1" } });
    type Operation = { responses: Record<string, unknown> };
    const paths = document.paths as Record<
      string,
      { parameters: Array<{ name: string }>; delete: Operation }
    >;
    expect(Object.keys(paths)).toEqual([
      "/api/orgs/{slug}/projects",
      "/api/orgs/{slug}/projects/{id}",
      "/api/orgs/{slug}/projects/{id}/brief",
    ]);
    const item = paths["/api/orgs/{slug}/projects/{id}"]!;
    expect(item.parameters.map((parameter) => parameter.name)).toEqual(["slug", "id"]);
    expect(item.delete.responses["403"]).toEqual({ $ref: "#/components/responses/Forbidden" });
    expect(Object.keys(item.delete.responses)).toEqual(["204", "401", "403", "404"]);
    expect((document.components.responses as Record<string, unknown>).Forbidden).toBeDefined();
  });
});

describe("recordActionOf", () => {
  it("names reads, creates and deletes of the record, and every other change an update", () => {
    const base = "/api/orgs/:slug/projects";
    expect(
      [
        ["GET", base],
        ["POST", base],
        ["GET", `${base}/:id`],
        ["PATCH", `${base}/:id`],
        ["DELETE", `${base}/:id`],
        ["PUT", `${base}/:id/brief`],
        ["POST", `${base}/:id/photos`],
        ["DELETE", `${base}/:id/photos/:file_id`],
      ].map(([method, path]) => recordActionOf(method!, path!, base)),
    ).toEqual(["read", "create", "read", "update", "delete", "update", "update", "update"]);
  });
});
