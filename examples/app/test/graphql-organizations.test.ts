// An organization's projects through POST /graphql on the running app: the organization is
// named by its slug, and each operation passes the same membership check as
// /api/orgs/{slug}/projects, with the same words. A member writes (created_by is the member),
// a viewer reads and is refused writes naming the permission, a stranger's answer is that of
// an organization that does not exist, and no organization reaches another's projects.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJsonApi } from "./support/json-api.js";
import { type OrganizationMembers, organizationMembers } from "./support/organization-members.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;
let people: OrganizationMembers;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" }, { mailer });
  people = organizationMembers(server, mailer);
});
afterAll(() => server.stop());

const api = (method: string, path: string, token?: string, json?: unknown) =>
  callJsonApi(server.url, method, path, token, json);

/** One GraphQL operation as the bearer of `token`; the parsed body (the status is always 200). */
async function graphql(
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape the answer has.
): Promise<any> {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

const PROJECT = "id organizationId createdBy name description status createdAt updatedAt";
const LIST = `query ($organization: String!) { projects(organization: $organization) { ${PROJECT} } }`;
const SHOW = `query ($organization: String!, $id: ID!) {
  project(organization: $organization, id: $id) { ${PROJECT} }
}`;
const CREATE = `mutation ($organization: String!, $input: ProjectCreateInput!) {
  createProject(organization: $organization, input: $input) { ${PROJECT} }
}`;
const UPDATE = `mutation ($organization: String!, $id: ID!, $input: ProjectUpdateInput!) {
  updateProject(organization: $organization, id: $id, input: $input) { ${PROJECT} }
}`;
const DELETE = `mutation ($organization: String!, $id: ID!) {
  deleteProject(organization: $organization, id: $id)
}`;

/** The refusal of the one operation `field`: no data (null for the nullable `project`). */
const refusal = (field: string, message: string, code: string, status: number) => ({
  data: field === "project" ? { project: null } : null,
  errors: [{ message, locations: expect.any(Array), path: [field], extensions: { code, status } }],
});

/** The id of the organization called `slug`, and of the user with `email`, as stored. */
async function idsOf(slug: string, email: string): Promise<{ organization: number; user: number }> {
  const [organization] = await server.query<{ id: number }>(
    "SELECT id FROM organizations WHERE slug = ?",
    slug,
  );
  const [user] = await server.query<{ id: number }>("SELECT id FROM users WHERE email = ?", email);
  return { organization: Number(organization!.id), user: Number(user!.id) };
}

describe("an organization's projects through GraphQL", () => {
  it("are created, listed, shown, updated and deleted by a member, as the JSON API shows them", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["member"]);
    const member = members[0]!;
    const ids = await idsOf(slug, member.email);

    const created = await graphql(member.token, CREATE, {
      organization: slug,
      input: { name: "Roadmap", status: "active" },
    });
    const project = created.data.createProject;
    expect(project).toMatchObject({
      organizationId: String(ids.organization),
      createdBy: String(ids.user),
      name: "Roadmap",
      description: null,
      status: "active",
    });
    expect(project).not.toHaveProperty("userId");
    const id = project.id as string;
    expect(
      await server.query(
        "SELECT organization_id, created_by, name FROM projects WHERE id = ?",
        Number(id),
      ),
    ).toEqual([{ organization_id: ids.organization, created_by: ids.user, name: "Roadmap" }]);
    // The JSON API serves the same record, in its own spelling.
    const json = await api("GET", `/api/orgs/${slug}/projects/${id}`, owner.token);
    expect(json.body).toMatchObject({
      id: Number(id),
      organization_id: ids.organization,
      created_by: ids.user,
      name: "Roadmap",
      status: "active",
      created_at: project.createdAt,
    });

    expect((await graphql(owner.token, LIST, { organization: slug })).data.projects).toEqual([
      project,
    ]);
    expect((await graphql(owner.token, SHOW, { organization: slug, id })).data.project).toEqual(
      project,
    );
    const updated = await graphql(member.token, UPDATE, {
      organization: slug,
      id,
      input: { status: "archived", description: "Next quarter" },
    });
    expect(updated.data.updateProject).toMatchObject({
      id,
      createdBy: String(ids.user),
      description: "Next quarter",
      status: "archived",
    });
    expect(await graphql(member.token, DELETE, { organization: slug, id })).toEqual({
      data: { deleteProject: true },
    });
    expect(await server.query("SELECT id FROM projects WHERE id = ?", Number(id))).toEqual([]);
  });

  it("are read by a viewer, who is refused every write with the JSON API's 403 words", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["viewer"]);
    const viewer = members[0]!;
    const made = await graphql(owner.token, CREATE, {
      organization: slug,
      input: { name: "Roadmap", status: "active" },
    });
    const project = made.data.createProject;
    const id = project.id as string;
    expect((await graphql(viewer.token, LIST, { organization: slug })).data.projects).toEqual([
      project,
    ]);
    expect((await graphql(viewer.token, SHOW, { organization: slug, id })).data.project).toEqual(
      project,
    );

    const writes = [
      ["createProject", CREATE, { input: { name: "Mine", status: "active" } }, "projects:create"],
      ["updateProject", UPDATE, { id, input: { name: "Renamed" } }, "projects:update"],
      ["deleteProject", DELETE, { id }, "projects:delete"],
    ] as const;
    for (const [field, query, variables, permission] of writes) {
      const answer = await graphql(viewer.token, query, { organization: slug, ...variables });
      expect(answer).toEqual(
        refusal(field, `You need the ${permission} permission.`, "forbidden", 403),
      );
    }
    // In French too, word for word what the JSON route answers.
    const french = { "accept-language": "fr" };
    const refused = await graphql(
      viewer.token,
      CREATE,
      { organization: slug, input: { name: "Mine", status: "active" } },
      french,
    );
    const jsonRefused = await fetch(`${server.url}/api/orgs/${slug}/projects`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${viewer.token}`,
        ...french,
      },
      body: JSON.stringify({ name: "Mine", status: "active" }),
    });
    const jsonError = (await jsonRefused.json()).error;
    expect(jsonError.message).toContain("projects:create");
    expect(jsonError.message).not.toBe("You need the projects:create permission.");
    expect(refused.errors[0]).toMatchObject({
      message: jsonError.message,
      extensions: { code: "forbidden", status: 403 },
    });
    expect(await server.query("SELECT name FROM projects WHERE id = ?", Number(id))).toEqual([
      { name: "Roadmap" },
    ]);
  });

  it("answer a stranger exactly as an organization that does not exist", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    const made = await graphql(owner.token, CREATE, {
      organization: slug,
      input: { name: "Secret plan", status: "active" },
    });
    const id = made.data.createProject.id as string;
    const stranger = await people.confirmedUser("stranger");
    const operations = [
      ["projects", LIST, {}],
      ["project", SHOW, { id }],
      ["createProject", CREATE, { input: { name: "Taken over", status: "active" } }],
      ["updateProject", UPDATE, { id, input: { name: "Taken over" } }],
      ["deleteProject", DELETE, { id }],
    ] as const;
    for (const [field, query, variables] of operations) {
      const theirs = await graphql(stranger.token, query, { organization: slug, ...variables });
      const missing = await graphql(stranger.token, query, {
        organization: `gone-${crypto.randomUUID().slice(0, 8)}`,
        ...variables,
      });
      expect(theirs).toEqual(refusal(field, "Not found", "not_found", 404));
      expect(theirs).toEqual(missing);
    }
    expect(await server.query("SELECT name FROM projects WHERE id = ?", Number(id))).toEqual([
      { name: "Secret plan" },
    ]);
  });

  it("hold no other organization's project, by any operation", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    const made = await graphql(owner.token, CREATE, {
      organization: slug,
      input: { name: "Acme's", status: "active" },
    });
    const id = made.data.createProject.id as string;
    const other = await people.confirmedUser("other");
    const { slug: otherSlug } = await people.organizationWith(other, []);

    expect((await graphql(other.token, SHOW, { organization: otherSlug, id })).data).toEqual({
      project: null,
    });
    expect((await graphql(other.token, LIST, { organization: otherSlug })).data).toEqual({
      projects: [],
    });
    expect(
      await graphql(other.token, UPDATE, { organization: otherSlug, id, input: { name: "x" } }),
    ).toEqual(refusal("updateProject", "Not found", "not_found", 404));
    expect(await graphql(other.token, DELETE, { organization: otherSlug, id })).toEqual(
      refusal("deleteProject", "Not found", "not_found", 404),
    );
    expect(await server.query("SELECT name FROM projects WHERE id = ?", Number(id))).toEqual([
      { name: "Acme's" },
    ]);
    // Nor is a project anyone's own record: the user models' operations do not list it.
    expect((await graphql(owner.token, "{ notes { id } }")).data).toEqual({ notes: [] });
  });
});
