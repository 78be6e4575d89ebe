// Records owned by an organization (`owner: "organization"`) through GraphQL: every operation
// names the organization by its slug and asks `organizationOwner` first, for its own action;
// a member writes with `created_by` set, a viewer reads and is refused writes naming the
// permission, a stranger's answer is a missing organization's, and no organization reaches
// another's records. On SQLite and in memory alike.
import { usersMigration } from "@tessera/accounts/sql";
import { defineModel, type Model } from "@tessera/fields";
import { type Authentication, routeRequests, unauthorized } from "@tessera/http";
import {
  MemoryRecordStore,
  MemoryRecordTables,
  type RecordAction,
  type RecordStore,
  type RecordUser,
} from "@tessera/records";
import { recordMigration, SqlRecordStore } from "@tessera/records/sql";
import { applyMigrations } from "@tessera/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { printSchema, printType } from "graphql";
import { describe, expect, it } from "vitest";
import {
  graphqlRoutes,
  type OrganizationOwnerRequest,
  type OrganizationOwnerResolver,
  recordSchema,
} from "../src/index.js";
import { EXECUTOR_OPTIONS, noteModel } from "./fixtures.js";

/** The example app's projects, and tasks that reference them. */
const projectModel = defineModel(
  "project",
  ["name:string", "description:text?", "status:enum:active,archived"],
  { owner: "organization" },
);
const taskModel = defineModel("task", ["project:references", "title:string"], {
  owner: "organization",
});

/** Ada is a member of acme, Bob its viewer; Carol is a stranger there and owns beta. */
const ADA = 1;
const BOB = 2;
const CAROL = 3;
const TOKENS: Readonly<Record<string, number>> = { ada: ADA, bob: BOB, carol: CAROL };
const ORGANIZATIONS: Readonly<Record<string, number>> = { acme: 10, beta: 11 };
const ROLES: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  acme: { [ADA]: "member", [BOB]: "viewer" },
  beta: { [CAROL]: "owner" },
};
const ALLOWED: Readonly<Record<string, readonly RecordAction[]>> = {
  owner: ["read", "create", "update", "delete"],
  member: ["read", "create", "update", "delete"],
  viewer: ["read"],
};

/**
 * The contract `resolveOrganizationRecordOwner` of @tessera/organizations fulfils (the example
 * app's suite runs that one): a non-member and a missing organization alike are a 404, a role
 * without the action a 403 naming the model's permission. It notes every request it gets.
 */
function membership(asked: OrganizationOwnerRequest[]): OrganizationOwnerResolver {
  return async (request) => {
    asked.push(request);
    const organization = ORGANIZATIONS[request.slug];
    const role = organization === undefined ? undefined : ROLES[request.slug]?.[request.userId];
    if (organization === undefined || role === undefined) {
      return { ok: false, status: 404, message: "Not found" };
    }
    if (!ALLOWED[role]?.includes(request.action)) {
      const permission = `${request.model.table}:${request.action}`;
      return { ok: false, status: 403, message: `You need the ${permission} permission.` };
    }
    return { ok: true, ownerId: organization, createdBy: request.userId };
  };
}

async function authenticate(request: Request): Promise<Authentication<RecordUser>> {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
  const id = token === undefined ? undefined : TOKENS[token];
  return id === undefined
    ? { ok: false, response: unauthorized({ "WWW-Authenticate": "Bearer" }) }
    : { ok: true, value: { user: { id } } };
}

/** The stores of the three models, and the rows of a table as stored. */
interface Engine {
  readonly storeOf: (model: Model) => RecordStore;
  readonly rows: (table: string) => Promise<Record<string, unknown>[]>;
}

async function sqlite(): Promise<Engine> {
  const database = openSqliteFile(":memory:");
  await applyMigrations(database, [
    usersMigration,
    { id: "0001_organizations", sql: "CREATE TABLE organizations (id INTEGER PRIMARY KEY);" },
    recordMigration(noteModel, "0100_create_notes"),
    recordMigration(projectModel, "0101_create_projects"),
    recordMigration(taskModel, "0102_create_tasks"),
  ]);
  for (const name of ["ada", "bob", "carol"]) {
    await database.run(
      "INSERT INTO users (email, created_at, updated_at) VALUES (?, '2025-01-01 00:00:00', '2025-01-01 00:00:00')",
      [`${name}@example.com`],
    );
  }
  await database.run("INSERT INTO organizations (id) VALUES (10), (11)");
  return {
    storeOf: (model) => new SqlRecordStore(database, model),
    rows: (table) => database.all(`SELECT * FROM "${table}" ORDER BY id`),
  };
}

async function memory(): Promise<Engine> {
  const tables = new MemoryRecordTables();
  for (const id of [ADA, BOB, CAROL]) tables.table("users").rows.set(id, { id });
  for (const id of [10, 11]) tables.table("organizations").rows.set(id, { id });
  return {
    storeOf: (model) => new MemoryRecordStore(tables, model),
    rows: async (table) => [...tables.table(table).rows.values()].map((row) => ({ ...row })),
  };
}

async function setUp(engine: Engine) {
  const asked: OrganizationOwnerRequest[] = [];
  let now = Date.UTC(2025, 0, 1, 8, 0, 0);
  const route = routeRequests(
    graphqlRoutes({
      records: [noteModel, projectModel, taskModel].map((model) => ({
        model,
        store: engine.storeOf(model),
        clock: () => (now += 1000),
      })),
      authenticate,
      organizationOwner: membership(asked),
      ...EXECUTOR_OPTIONS,
    }),
  );

  /** One operation as `token`'s user; the parsed body. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape the answer has.
  async function send(token: string, query: string, variables = {}): Promise<any> {
    const response = await route(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      }),
      {},
    );
    expect(response?.status).toBe(200);
    return response!.json();
  }
  return { asked, send, rows: engine.rows };
}

const PROJECT = "id organizationId createdBy name description status createdAt updatedAt";
const CREATE = `mutation ($organization: String!, $input: ProjectCreateInput!) {
  createProject(organization: $organization, input: $input) { ${PROJECT} }
}`;
const LIST = `query ($organization: String!) { projects(organization: $organization) { ${PROJECT} } }`;
const SHOW = `query ($organization: String!, $id: ID!) {
  project(organization: $organization, id: $id) { ${PROJECT} }
}`;
const UPDATE = `mutation ($organization: String!, $id: ID!, $input: ProjectUpdateInput!) {
  updateProject(organization: $organization, id: $id, input: $input) { ${PROJECT} }
}`;
const DELETE = `mutation ($organization: String!, $id: ID!) {
  deleteProject(organization: $organization, id: $id)
}`;

/**
 * A refusal of the one operation `field`, with the code and status the JSON API answers: no
 * data (`project` is nullable, so it is null there). The compiled executor may leave out
 * `locations`.
 */
const refusal = (field: string, message: string, code: string, status: number) => ({
  data: field === "project" ? { project: null } : null,
  errors: [expect.objectContaining({ message, path: [field], extensions: { code, status } })],
});

describe("the schema of an organization's model", () => {
  const store = {} as never;
  const asked: OrganizationOwnerRequest[] = [];

  it("takes the organization's slug in every operation, and shows organizationId and createdBy", () => {
    const schema = recordSchema(
      [
        { model: noteModel, store },
        { model: projectModel, store },
      ],
      { organizationOwner: membership(asked) },
    );
    const sdl = printSchema(schema);
    for (const line of [
      'projects(\n    """The organization\'s slug."""\n    organization: String!\n    limit: Int\n    offset: Int\n  ): [Project!]!',
      'project(\n    """The organization\'s slug."""\n    organization: String!\n    id: ID!\n  ): Project',
      'createProject(\n    """The organization\'s slug."""\n    organization: String!\n    input: ProjectCreateInput!\n  ): Project!',
      'updateProject(\n    """The organization\'s slug."""\n    organization: String!\n    id: ID!\n    input: ProjectUpdateInput!\n  ): Project!',
      'deleteProject(\n    """The organization\'s slug."""\n    organization: String!\n    id: ID!\n  ): Boolean!',
      // A user's model beside it keeps its own arguments.
      "notes(limit: Int, offset: Int): [Note!]!",
    ]) {
      expect(sdl).toContain(`  ${line}\n`);
    }
    expect(printType(schema.getType("Project")!)).toBe(
      [
        '"""A `project` record (table `projects`) of an organization."""',
        "type Project {",
        "  id: ID!",
        "  organizationId: ID!",
        "  createdBy: ID",
        "  name: String!",
        "  description: String",
        "  status: ProjectStatus!",
        "  createdAt: String!",
        "  updatedAt: String!",
        "}",
      ].join("\n"),
    );
    expect(printType(schema.getType("ProjectCreateInput")!)).not.toMatch(
      /organization|createdBy|userId/,
    );
    expect(asked).toEqual([]);
  });

  it("is refused without organizationOwner, rather than served unscoped", () => {
    expect(() => recordSchema([{ model: projectModel, store }])).toThrow(
      new TypeError(
        "model project belongs to organizations: pass `organizationOwner` (resolveOrganizationRecordOwner of @tessera/organizations/routes) to serve it through GraphQL",
      ),
    );
    expect(() =>
      graphqlRoutes({
        records: [
          { model: noteModel, store },
          { model: taskModel, store },
        ],
        authenticate,
      }),
    ).toThrow(TypeError);
  });
});

describe.each([
  ["SQLite", sqlite],
  ["memory", memory],
])("an organization's records through GraphQL (%s)", (_engine, engine) => {
  it("are created, listed, shown, updated and deleted by a member, each asking for its action", async () => {
    const { asked, send, rows } = await setUp(await engine());
    const created = await send("ada", CREATE, {
      organization: "acme",
      input: { name: "Roadmap", status: "active" },
    });
    const project = created.data.createProject;
    expect(project).toMatchObject({
      organizationId: "10",
      createdBy: String(ADA),
      name: "Roadmap",
      description: null,
      status: "active",
    });
    expect(project).not.toHaveProperty("userId");
    expect(await rows("projects")).toEqual([
      expect.objectContaining({ id: Number(project.id), organization_id: 10, created_by: ADA }),
    ]);

    const id = project.id;
    expect((await send("ada", LIST, { organization: "acme" })).data).toEqual({
      projects: [project],
    });
    expect((await send("ada", SHOW, { organization: "acme", id })).data).toEqual({ project });
    const updated = await send("ada", UPDATE, {
      organization: "acme",
      id,
      input: { status: "archived", description: "Next quarter" },
    });
    expect(updated.data.updateProject).toMatchObject({
      id,
      createdBy: String(ADA),
      name: "Roadmap",
      description: "Next quarter",
      status: "archived",
    });
    expect((await send("ada", DELETE, { organization: "acme", id })).data).toEqual({
      deleteProject: true,
    });
    expect(await rows("projects")).toEqual([]);

    expect(
      asked.map(({ userId, slug, action, model }) => [userId, slug, action, model.table]),
    ).toEqual([
      [ADA, "acme", "create", "projects"],
      [ADA, "acme", "read", "projects"],
      [ADA, "acme", "read", "projects"],
      [ADA, "acme", "update", "projects"],
      [ADA, "acme", "delete", "projects"],
    ]);
  });

  it("are read by a viewer, who is refused every write with the permission it needs", async () => {
    const { send, rows } = await setUp(await engine());
    const created = await send("ada", CREATE, {
      organization: "acme",
      input: { name: "Roadmap", status: "active" },
    });
    const project = created.data.createProject;
    const id = project.id;
    expect((await send("bob", LIST, { organization: "acme" })).data.projects).toEqual([project]);
    expect((await send("bob", SHOW, { organization: "acme", id })).data.project).toEqual(project);

    const before = await rows("projects");
    const writes = [
      ["createProject", CREATE, { input: { name: "Mine", status: "active" } }, "projects:create"],
      ["updateProject", UPDATE, { id, input: { name: "Renamed" } }, "projects:update"],
      ["deleteProject", DELETE, { id }, "projects:delete"],
    ] as const;
    for (const [field, query, variables, permission] of writes) {
      const answer = await send("bob", query, { organization: "acme", ...variables });
      expect(answer).toEqual(
        refusal(field, `You need the ${permission} permission.`, "forbidden", 403),
      );
    }
    expect(await rows("projects")).toEqual(before);
  });

  it("answer a stranger exactly as a missing organization, for every operation", async () => {
    const { send, rows } = await setUp(await engine());
    const created = await send("ada", CREATE, {
      organization: "acme",
      input: { name: "Secret plan", status: "active" },
    });
    const id = created.data.createProject.id;
    const before = await rows("projects");
    const operations = [
      ["projects", LIST, {}],
      ["project", SHOW, { id }],
      ["createProject", CREATE, { input: { name: "Taken over", status: "active" } }],
      ["updateProject", UPDATE, { id, input: { name: "Taken over" } }],
      ["deleteProject", DELETE, { id }],
    ] as const;
    for (const [field, query, variables] of operations) {
      const stranger = await send("carol", query, { organization: "acme", ...variables });
      const missing = await send("carol", query, { organization: "no-such-team", ...variables });
      expect(stranger).toEqual(refusal(field, "Not found", "not_found", 404));
      expect(stranger).toEqual(missing);
      // A member asking about a missing organization hears the same.
      expect(await send("ada", query, { organization: "no-such-team", ...variables })).toEqual(
        missing,
      );
    }
    expect(await rows("projects")).toEqual(before);
  });

  it("hold no other organization's record, by any operation", async () => {
    const { send, rows } = await setUp(await engine());
    const acme = await send("ada", CREATE, {
      organization: "acme",
      input: { name: "Acme's", status: "active" },
    });
    const beta = await send("carol", CREATE, {
      organization: "beta",
      input: { name: "Beta's", status: "active" },
    });
    const acmeId = acme.data.createProject.id;
    const betaId = beta.data.createProject.id;
    expect(beta.data.createProject).toMatchObject({ organizationId: "11", createdBy: "3" });

    // Carol's own organization does not hold acme's project: null, absent, not found.
    expect((await send("carol", SHOW, { organization: "beta", id: acmeId })).data).toEqual({
      project: null,
    });
    expect(
      (await send("carol", LIST, { organization: "beta" })).data.projects.map(
        (project: { name: string }) => project.name,
      ),
    ).toEqual(["Beta's"]);
    expect(
      await send("carol", UPDATE, { organization: "beta", id: acmeId, input: { name: "x" } }),
    ).toEqual(refusal("updateProject", "Not found", "not_found", 404));
    expect(await send("carol", DELETE, { organization: "beta", id: acmeId })).toEqual(
      refusal("deleteProject", "Not found", "not_found", 404),
    );
    // Nor acme beta's, for its member.
    expect((await send("ada", SHOW, { organization: "acme", id: betaId })).data).toEqual({
      project: null,
    });
    expect(
      (await rows("projects")).map((row) => [row.name, row.organization_id, row.created_by]),
    ).toEqual([
      ["Acme's", 10, ADA],
      ["Beta's", 11, CAROL],
    ]);

    // A task of acme may reference acme's project only.
    const task = `mutation ($input: TaskCreateInput!) {
      createTask(organization: "acme", input: $input) { projectId title createdBy }
    }`;
    const own = await send("ada", task, { input: { projectId: acmeId, title: "Plan" } });
    expect(own.data.createTask).toEqual({ projectId: acmeId, title: "Plan", createdBy: "1" });
    const foreign = await send("ada", task, { input: { projectId: betaId, title: "Steal" } });
    expect(foreign.errors[0].extensions).toEqual({
      code: "validation_failed",
      status: 422,
      fields: { projectId: ["must exist"] },
    });
  });

  it("take a status of the enum's values only, refused by type before anything runs", async () => {
    const { asked, send, rows } = await setUp(await engine());
    const answer = await send("ada", CREATE, {
      organization: "acme",
      input: { name: "Roadmap", status: "paused" },
    });
    expect(answer.data).toBeUndefined();
    expect(answer.errors[0].message).toContain(
      'Value "paused" does not exist in "ProjectStatus" enum.',
    );
    expect(asked).toEqual([]);
    expect(await rows("projects")).toEqual([]);
  });

  it("check the membership before the list's arguments, as the JSON routes do", async () => {
    const { send } = await setUp(await engine());
    const query = `{ projects(organization: "acme", limit: 0) { id } }`;
    expect(await send("carol", query)).toEqual(refusal("projects", "Not found", "not_found", 404));
    expect(await send("ada", query)).toEqual(
      refusal("projects", "limit must be an integer from 1 to 100", "bad_request", 400),
    );
  });
});
