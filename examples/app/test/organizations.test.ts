// Organizations over HTTP in the example app: created by a confirmed user, who invites another
// by email (the mail goes through the outbox), who accepts with the link's token; a stranger
// sees nothing of it, a viewer may not invite, and the last owner cannot leave. The
// organization's projects are its members' as their role allows, and nobody else's.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkIn } from "./support/browser.js";
import { callJsonApi } from "./support/json-api.js";
import { type OrganizationMembers, organizationMembers } from "./support/organization-members.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;
let people: OrganizationMembers;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1", APP_URL: "https://app.example" }, { mailer });
  people = organizationMembers(server, mailer);
});
afterAll(() => server.stop());

const api = (method: string, path: string, token?: string, json?: unknown) =>
  callJsonApi(server.url, method, path, token, json);
const confirmedUser = (name: string) => people.confirmedUser(name);
const organizationWith = (owner: { token: string }, roles: readonly string[]) =>
  people.organizationWith(owner, roles);

describe("organizations in the example app", () => {
  it("lets an owner invite a member by mail, who accepts; outsiders see nothing", async () => {
    const owner = await confirmedUser("owner");
    const created = await api("POST", "/api/orgs", owner.token, { name: "Acme Research" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Acme Research",
      slug: "acme-research",
      role: "owner",
    });
    const slug = created.body.slug as string;

    const member = await confirmedUser("member");
    const invited = await api("POST", `/api/orgs/${slug}/invitations`, owner.token, {
      email: member.email,
      role: "viewer",
    });
    expect(invited.status).toBe(201);
    await server.deliverMail();
    const mail = mailer.last(member.email)!;
    expect(mail.subject).toBe("You're invited to join Acme Research");
    const invitation = linkIn(mail.text, "/invitations");
    expect(invitation.url.startsWith("https://app.example/invitations/")).toBe(true);

    const stranger = await confirmedUser("stranger");
    const accept = `/api/invitations/${invitation.token}/accept`;
    expect((await api("POST", accept, stranger.token)).status).toBe(403);
    const accepted = await api("POST", accept, member.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ organization: { slug }, role: "viewer" });
    expect((await api("POST", accept, member.token)).status).toBe(404);

    const members = await api("GET", `/api/orgs/${slug}/members`, member.token);
    expect(
      members.body.map((each: { email: string; role: string }) => [each.email, each.role]),
    ).toEqual([
      [owner.email, "owner"],
      [member.email, "viewer"],
    ]);
    expect((await api("GET", `/api/orgs/${slug}`, stranger.token)).status).toBe(404);
    const viewerInvites = await api("POST", `/api/orgs/${slug}/invitations`, member.token, {
      email: stranger.email,
      role: "viewer",
    });
    expect(viewerInvites.status).toBe(403);
    expect(viewerInvites.body.error.code).toBe("forbidden");

    const ownerId = members.body[0].user_id as number;
    const leaving = await api("DELETE", `/api/orgs/${slug}/members/${ownerId}`, owner.token);
    expect(leaving.status).toBe(409);
    expect(leaving.body.error.code).toBe("last_owner");
    expect((await api("DELETE", `/api/orgs/${slug}`, member.token)).status).toBe(403);
    expect((await api("DELETE", `/api/orgs/${slug}`, owner.token)).status).toBe(204);
    expect((await api("GET", `/api/orgs/${slug}`, owner.token)).status).toBe(404);
  });
});

describe("an organization's projects", () => {
  it("are written by members, read by viewers, and refused to roles without the permission", async () => {
    const owner = await confirmedUser("owner");
    const { slug, members } = await organizationWith(owner, ["member", "viewer"]);
    const [member, viewer] = [members[0]!, members[1]!];
    const projects = `/api/orgs/${slug}/projects`;

    const made = await api("POST", projects, member.token, { name: "Roadmap", status: "active" });
    expect(made.status).toBe(201);
    const [organization] = await server.query<{ id: number }>(
      "SELECT id FROM organizations WHERE slug = ?",
      slug,
    );
    const [memberRow] = await server.query<{ user_id: number }>(
      `SELECT user_id FROM organization_members WHERE organization_id = ? AND role = 'member'`,
      organization!.id,
    );
    expect(made.body).toMatchObject({
      organization_id: organization!.id,
      created_by: memberRow!.user_id,
      name: "Roadmap",
      description: null,
      status: "active",
    });
    expect(made.body).not.toHaveProperty("user_id");
    const id = made.body.id as number;

    // The viewer reads, and is refused every write with the permission it lacks.
    const listed = await api("GET", projects, viewer.token);
    expect(listed.status).toBe(200);
    expect(listed.body.map((project: { name: string }) => project.name)).toEqual(["Roadmap"]);
    expect((await api("GET", `${projects}/${id}`, viewer.token)).body.name).toBe("Roadmap");
    const refusals = [
      ["POST", projects, { name: "Mine", status: "active" }, "projects:create"],
      ["PATCH", `${projects}/${id}`, { name: "Renamed" }, "projects:update"],
      ["DELETE", `${projects}/${id}`, undefined, "projects:delete"],
    ] as const;
    for (const [method, path, body, permission] of refusals) {
      const refused = await api(method, path, viewer.token, body);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: "forbidden",
        message: `You need the ${permission} permission.`,
      });
    }
    expect(await server.query("SELECT name FROM projects WHERE id = ?", id)).toEqual([
      { name: "Roadmap" },
    ]);

    // The member and the owner change and delete; the owner's own record says who made it.
    const renamed = await api("PATCH", `${projects}/${id}`, member.token, { status: "archived" });
    expect(renamed.body).toMatchObject({ name: "Roadmap", status: "archived" });
    const ownerMade = await api("POST", projects, owner.token, {
      name: "Launch",
      status: "active",
    });
    expect(ownerMade.body.created_by).not.toBe(memberRow!.user_id);
    expect((await api("DELETE", `${projects}/${id}`, member.token)).status).toBe(204);
    expect(
      (await api("GET", projects, owner.token)).body.map((p: { name: string }) => p.name),
    ).toEqual(["Launch"]);
  });

  it("are nothing to anyone outside the organization, nor reachable through another one", async () => {
    const owner = await confirmedUser("owner");
    const { slug } = await organizationWith(owner, []);
    const made = await api("POST", `/api/orgs/${slug}/projects`, owner.token, {
      name: "Secret plan",
      status: "active",
    });
    const id = made.body.id as number;

    // A stranger gets the 404 of no such organization for every route, reads and writes alike.
    const stranger = await confirmedUser("stranger");
    const other = await api("POST", "/api/orgs", stranger.token, { name: "Other team" });
    const paths = [
      ["GET", `/api/orgs/${slug}/projects`],
      ["POST", `/api/orgs/${slug}/projects`],
      ["GET", `/api/orgs/${slug}/projects/${id}`],
      ["PATCH", `/api/orgs/${slug}/projects/${id}`],
      ["DELETE", `/api/orgs/${slug}/projects/${id}`],
      // The stranger's own organization does not hold the other one's project.
      ["GET", `/api/orgs/${other.body.slug}/projects/${id}`],
      ["PATCH", `/api/orgs/${other.body.slug}/projects/${id}`],
      ["DELETE", `/api/orgs/${other.body.slug}/projects/${id}`],
    ] as const;
    for (const [method, path] of paths) {
      const body = method === "GET" || method === "DELETE" ? undefined : { name: "Taken over" };
      const answer = await api(method, path, stranger.token, body);
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
    expect(
      (await api("GET", `/api/orgs/${other.body.slug}/projects`, stranger.token)).body,
    ).toEqual([]);
    // Not a user's record either: there is no /api/projects.
    expect((await api("GET", "/api/projects", owner.token)).status).toBe(404);
    expect(await server.query("SELECT name FROM projects WHERE id = ?", id)).toEqual([
      { name: "Secret plan" },
    ]);
  });

  it("stop being a member's once they are removed, and go with their organization", async () => {
    const owner = await confirmedUser("owner");
    const { slug, members } = await organizationWith(owner, ["member"]);
    const member = members[0]!;
    const projects = `/api/orgs/${slug}/projects`;
    await api("POST", projects, member.token, { name: "Theirs", status: "active" });
    const listed = await api("GET", `/api/orgs/${slug}/members`, owner.token);
    const removed = listed.body.find((each: { role: string }) => each.role === "member");
    const removal = await api(
      "DELETE",
      `/api/orgs/${slug}/members/${removed.user_id}`,
      owner.token,
    );
    expect(removal.status).toBe(204);
    expect((await api("GET", projects, member.token)).status).toBe(404);
    expect(
      (await api("POST", projects, member.token, { name: "Late", status: "active" })).status,
    ).toBe(404);
    // The record they made stays the organization's.
    expect((await api("GET", projects, owner.token)).body).toHaveLength(1);

    const [organization] = await server.query<{ id: number }>(
      "SELECT id FROM organizations WHERE slug = ?",
      slug,
    );
    expect((await api("DELETE", `/api/orgs/${slug}`, owner.token)).status).toBe(204);
    expect(
      await server.query("SELECT id FROM projects WHERE organization_id = ?", organization!.id),
    ).toEqual([]);
  });
});

describe("deleting the account of an organization's only owner", () => {
  it("is refused, naming the organization, until another member is an owner", async () => {
    const owner = await confirmedUser("owner");
    const { slug, members } = await organizationWith(owner, ["member"]);
    const password = "correct horse battery staple";
    const refused = await api("DELETE", "/api/auth/me", owner.token, { password });
    expect(refused.status).toBe(409);
    const [organization] = await server.query<{ name: string }>(
      "SELECT name FROM organizations WHERE slug = ?",
      slug,
    );
    expect(refused.body.error).toEqual({
      code: "last_owner",
      message: `You are the only owner of ${organization!.name}: make another member an owner, or delete the organization, before you delete your account.`,
      status: 409,
    });
    const [row] = await server.query<{ count: number }>(
      "SELECT COUNT(*) AS count FROM users WHERE email = ?",
      owner.email,
    );
    expect(Number(row!.count)).toBe(1);

    const listed = await api("GET", `/api/orgs/${slug}/members`, owner.token);
    const member = listed.body.find((each: { role: string }) => each.role === "member");
    const promoted = await api(
      "PATCH",
      `/api/orgs/${slug}/members/${member.user_id}`,
      owner.token,
      {
        role: "owner",
      },
    );
    expect(promoted.status).toBe(200);
    expect((await api("DELETE", "/api/auth/me", owner.token, { password })).status).toBe(204);
    const remaining = await api("GET", `/api/orgs/${slug}/members`, members[0]!.token);
    expect(remaining.body.map((each: { role: string }) => each.role)).toEqual(["owner"]);
  });
});
