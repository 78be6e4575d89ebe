// An organization's keys over HTTP in the example app: made by a member with keys:manage with
// a role no greater than theirs, shown once and kept as a digest, they act as the organization
// with that role on its projects and webhook endpoints, and nowhere else: another
// organization's routes are a 404, every user route a 401. Revoked, or with the organization
// gone, a key stops at its next request.
import { createHash } from "node:crypto";
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

/** Makes a key of `slug` as `maker`; answers the whole 201. */
async function makeKey(slug: string, maker: { token: string }, role: string, name = "CI") {
  const response = await fetch(`${server.url}/api/orgs/${slug}/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${maker.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name, role }),
  });
  expect(response.status).toBe(201);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()) as {
    key: string;
    api_key: { id: number; name: string; role: string; created_by: number | null };
  };
}

describe("an organization's keys", () => {
  it("are made once, kept as a digest, and act on the projects with their role", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    const made = await makeKey(slug, owner, "member", "Deploy bot");
    expect(made.key).toMatch(/^org_[A-Za-z0-9_-]{43}$/);
    const [ownerRow] = await server.query<{ id: number }>(
      "SELECT u.id FROM users u JOIN organization_members m ON m.user_id = u.id JOIN organizations o ON o.id = m.organization_id WHERE o.slug = ?",
      slug,
    );
    expect(made.api_key).toMatchObject({
      name: "Deploy bot",
      role: "member",
      created_by: ownerRow!.id,
      last_used_at: null,
    });
    const [stored] = await server.query<{ digest: string }>(
      "SELECT * FROM organization_keys WHERE id = ?",
      made.api_key.id,
    );
    expect(stored!.digest).toBe(createHash("sha256").update(made.key).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(made.key);
    const listed = await api("GET", `/api/orgs/${slug}/keys`, owner.token);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: made.api_key.id,
        name: "Deploy bot",
        role: "member",
        created_by: ownerRow!.id,
        last_used_at: null,
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(made.key);

    // The key writes the organization's projects as a member would, with no creator.
    const projects = `/api/orgs/${slug}/projects`;
    const created = await api("POST", projects, made.key, { name: "Nightly", status: "active" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Nightly", created_by: null });
    const id = created.body.id as number;
    expect((await api("GET", projects, made.key)).body.map((p: { id: number }) => p.id)).toEqual([
      id,
    ]);
    expect((await api("PATCH", `${projects}/${id}`, made.key, { name: "Weekly" })).status).toBe(
      200,
    );
    expect((await api("GET", `${projects}/${id}`, owner.token)).body.name).toBe("Weekly");
    const [used] = await server.query<{ last_used_at: number | null }>(
      "SELECT last_used_at FROM organization_keys WHERE id = ?",
      made.api_key.id,
    );
    expect(used!.last_used_at).toEqual(expect.any(Number));
    expect((await api("DELETE", `${projects}/${id}`, made.key)).status).toBe(204);
  });

  it("act with their role only: a viewer's key reads and is refused writes", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    const projects = `/api/orgs/${slug}/projects`;
    const project = await api("POST", projects, owner.token, { name: "Plan", status: "active" });
    const viewer = await makeKey(slug, owner, "viewer");
    expect((await api("GET", `${projects}/${project.body.id}`, viewer.key)).status).toBe(200);
    const refused = await api("POST", projects, viewer.key, { name: "No", status: "active" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "forbidden",
      message: "You need the projects:create permission.",
    });
    expect((await api("DELETE", `${projects}/${project.body.id}`, viewer.key)).status).toBe(403);
    // A key's webhook endpoints need webhooks:manage: an admin's key has it, a viewer's not.
    const endpoints = `/api/orgs/${slug}/webhook_endpoints`;
    expect((await api("GET", endpoints, viewer.key)).status).toBe(403);
    const admin = await makeKey(slug, owner, "admin");
    const listed = await api("GET", endpoints, admin.key);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
  });

  it("reach nothing of another organization and no user route", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    const other = await people.organizationWith(owner, []);
    const theirs = await api("POST", `/api/orgs/${other.slug}/projects`, owner.token, {
      name: "Theirs",
      status: "active",
    });
    const { key } = await makeKey(slug, owner, "admin");

    for (const path of [
      `/api/orgs/${other.slug}/projects`,
      `/api/orgs/${other.slug}/projects/${theirs.body.id}`,
      `/api/orgs/${other.slug}/webhook_endpoints`,
      "/api/orgs/no-such-org/projects",
    ]) {
      const answer = await api("GET", path, key);
      expect([path, answer.status, answer.body.error.code]).toEqual([path, 404, "not_found"]);
    }
    // Its own organization's id for the other's project is a 404 as well.
    expect((await api("GET", `/api/orgs/${slug}/projects/${theirs.body.id}`, key)).status).toBe(
      404,
    );
    // People's routes, the organization's own included: a key is no user.
    for (const [method, path] of [
      ["GET", "/api/notes"],
      ["GET", "/api/auth/keys"],
      ["GET", "/api/webhook_endpoints"],
      ["GET", "/api/orgs"],
      ["GET", `/api/orgs/${slug}`],
      ["GET", `/api/orgs/${slug}/members`],
      ["GET", `/api/orgs/${slug}/keys`],
      ["POST", `/api/orgs/${slug}/keys`],
      ["DELETE", `/api/orgs/${slug}`],
    ] as const) {
      const answer = await api(method, path, key, method === "GET" ? undefined : {});
      expect([method, path, answer.status]).toEqual([method, path, 401]);
    }
    const graphql = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: `{ projects(organization: "${slug}") { name } }` }),
    });
    expect(graphql.status).toBe(401);
  });

  it("stop at once when revoked or when their organization is deleted", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    const projects = `/api/orgs/${slug}/projects`;
    const first = await makeKey(slug, owner, "member");
    const second = await makeKey(slug, owner, "member");
    expect((await api("GET", projects, first.key)).status).toBe(200);

    const other = await people.organizationWith(owner, []);
    // Another organization's path does not reach this key.
    expect(
      (await api("DELETE", `/api/orgs/${other.slug}/keys/${first.api_key.id}`, owner.token)).status,
    ).toBe(404);
    expect(
      (await api("DELETE", `/api/orgs/${slug}/keys/${first.api_key.id}`, owner.token)).status,
    ).toBe(204);
    const revoked = await fetch(`${server.url}${projects}`, {
      headers: { authorization: `Bearer ${first.key}` },
    });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toBe("Bearer");
    expect(
      (await api("DELETE", `/api/orgs/${slug}/keys/${first.api_key.id}`, owner.token)).status,
    ).toBe(404);
    expect((await api("DELETE", `/api/orgs/${slug}/keys/abc`, owner.token)).status).toBe(404);
    expect((await api("GET", projects, second.key)).status).toBe(200);

    expect((await api("DELETE", `/api/orgs/${slug}`, owner.token)).status).toBe(204);
    expect((await api("GET", projects, second.key)).status).toBe(401);
    expect(
      await server.query("SELECT id FROM organization_keys WHERE id = ?", second.api_key.id),
    ).toEqual([]);
  });

  it("are made only with keys:manage, a known role no greater than one's own and a name", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["admin", "member"]);
    const [admin, member] = [members[0]!, members[1]!];
    const keys = `/api/orgs/${slug}/keys`;

    const aboveOwn = await api("POST", keys, admin.token, { name: "x", role: "owner" });
    expect(aboveOwn.status).toBe(403);
    expect(aboveOwn.body.error.code).toBe("role_not_grantable");
    expect((await api("POST", keys, admin.token, { name: "x", role: "admin" })).status).toBe(201);

    const noPermission = await api("POST", keys, member.token, { name: "x", role: "viewer" });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.error.message).toBe("You need the keys:manage permission.");
    expect((await api("GET", keys, member.token)).status).toBe(403);

    const stranger = await people.confirmedUser("stranger");
    expect((await api("POST", keys, stranger.token, { name: "x", role: "viewer" })).status).toBe(
      404,
    );

    const invalid = await api("POST", keys, owner.token, { name: "  ", role: "wizard" });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.fields).toEqual({
      name: ["can't be blank"],
      role: ["is not included in the list"],
    });
    const long = await api("POST", keys, owner.token, { name: "k".repeat(101), role: "viewer" });
    expect(long.status).toBe(422);
    expect(long.body.error.fields.name).toEqual(["is too long (maximum is 100 characters)"]);
    const wrongType = await api("POST", keys, owner.token, { name: 7, role: "viewer" });
    expect(wrongType.status).toBe(400);
    expect(
      (await api("POST", keys, owner.token, { name: "x", role: "viewer", extra: "1" })).status,
    ).toBe(400);
  });

  it("keep working when their maker leaves, and are audited without their secret", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["admin"]);
    const admin = members[0]!;
    const made = await makeKey(slug, admin, "member");
    const memberList = await api("GET", `/api/orgs/${slug}/members`, owner.token);
    const adminId = memberList.body.find((m: { email: string }) => m.email === admin.email).user_id;
    expect((await api("DELETE", `/api/orgs/${slug}/members/${adminId}`, admin.token)).status).toBe(
      204,
    );
    // The key is the organization's, not its maker's: revoke it under …/keys to stop it.
    expect((await api("GET", `/api/orgs/${slug}/projects`, made.key)).status).toBe(200);
    expect(
      (await api("DELETE", `/api/orgs/${slug}/keys/${made.api_key.id}`, owner.token)).status,
    ).toBe(204);

    const events = await server.query<{ type: string; user_id: number; details: string }>(
      "SELECT type, user_id, details FROM audit_events WHERE type LIKE 'organization.key_%' AND details LIKE ? ORDER BY id",
      `%"organization_slug":"${slug}"%`,
    );
    const [ownerId] = (await api("GET", `/api/orgs/${slug}/members`, owner.token)).body.map(
      (m: { user_id: number }) => m.user_id,
    );
    expect(events.map((event) => [event.type, event.user_id])).toEqual([
      ["organization.key_created", adminId],
      ["organization.key_deleted", ownerId],
    ]);
    expect(JSON.parse(events[0]!.details)).toMatchObject({
      key_id: made.api_key.id,
      name: "CI",
      role: "member",
    });
    expect(JSON.stringify(events)).not.toContain(made.key.slice(4));
  });

  it("refuse a token shaped like no key with the bearer 401", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    for (const token of ["org_short", `org_${"a".repeat(43)}`, `org_${"a".repeat(44)}`]) {
      const answer = await api("GET", `/api/orgs/${slug}/projects`, token);
      expect([token, answer.status]).toEqual([token, 401]);
    }
  });
});
