// The organization's membership changes in the app's audit trail (issue 48): each change over
// JSON and over the pages is one row of `audit_events`, about the member it concerns, naming
// who made it when that was someone else, with the organization's id and slug, and never an
// invitation's token.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, linkIn } from "./support/browser.js";
import { confirmedVisitor } from "./support/confirmed-visitor.js";
import { callJsonApi } from "./support/json-api.js";
import { type ConfirmedUser, organizationMembers } from "./support/organization-members.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const PASSWORD = "correct horse battery staple";
const mailer = new MemoryMailer();
let server: TestServer;
/** Every invitation token a mail carried: none may reach the trail. */
const tokens: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1", APP_URL: "https://app.example" }, { mailer });
});
afterAll(() => server.stop());

const api = (method: string, path: string, token?: string, json?: unknown) =>
  callJsonApi(server.url, method, path, token, json);

interface AuditRow {
  readonly type: string;
  readonly user_id: number | null;
  readonly actor_id: number | null;
  readonly details: Record<string, unknown>;
}

/** The organization events of the organization `id`, oldest first, details parsed. */
async function organizationEvents(id: number): Promise<AuditRow[]> {
  const rows = await server.query<{
    type: string;
    user_id: number | null;
    actor_id: number | null;
    details: string;
  }>(
    "SELECT type, user_id, actor_id, details FROM audit_events WHERE type LIKE 'organization.%' ORDER BY id",
  );
  return rows
    .map((row) => ({
      type: row.type,
      user_id: row.user_id === null ? null : Number(row.user_id),
      actor_id: row.actor_id === null ? null : Number(row.actor_id),
      details: JSON.parse(row.details) as Record<string, unknown>,
    }))
    .filter((row) => row.details.organization_id === id);
}

async function userId(email: string): Promise<number> {
  const [row] = await server.query<{ id: number }>("SELECT id FROM users WHERE email = ?", email);
  return Number(row!.id);
}

async function organizationId(slug: string): Promise<number> {
  const [row] = await server.query<{ id: number }>(
    "SELECT id FROM organizations WHERE slug = ?",
    slug,
  );
  return Number(row!.id);
}

/** Invites `person` as `role` over JSON; answers the invitation's id and its mailed token. */
async function invite(owner: ConfirmedUser, slug: string, person: ConfirmedUser, role: string) {
  const invited = await api("POST", `/api/orgs/${slug}/invitations`, owner.token, {
    email: person.email,
    role,
  });
  expect(invited.status).toBe(201);
  await server.deliverMail();
  const { token } = linkIn(mailer.last(person.email)!.text, "/invitations");
  tokens.push(token);
  return { id: invited.body.id as number, token };
}

async function expectNoTokenInTheTrail() {
  const everything = JSON.stringify(await server.query("SELECT * FROM audit_events"));
  expect(tokens.length).toBeGreaterThan(0);
  for (const token of tokens) expect(everything).not.toContain(token);
  expect(everything).not.toMatch(/"(token|token_digest)"/);
}

describe("organization events in the audit trail", () => {
  it("records each change of the JSON routes once: create, invite, accept, role, leave, remove, revoke, delete", async () => {
    const people = organizationMembers(server, mailer);
    const owner = await people.confirmedUser("owner");
    const member = await people.confirmedUser("member");
    const leaver = await people.confirmedUser("leaver");
    const declined = await people.confirmedUser("declined");
    const [ownerId, memberId, leaverId] = await Promise.all(
      [owner, member, leaver].map((each) => userId(each.email)),
    );

    const created = await api("POST", "/api/orgs", owner.token, { name: "Audited Research" });
    expect(created.status).toBe(201);
    const slug = created.body.slug as string;
    const id = await organizationId(slug);
    const org = { organization_id: id, organization_slug: slug };

    const first = await invite(owner, slug, member, "viewer");
    expect((await api("POST", `/api/invitations/${first.token}/accept`, member.token)).status).toBe(
      200,
    );
    const changed = await api("PATCH", `/api/orgs/${slug}/members/${memberId}`, owner.token, {
      role: "member",
    });
    expect(changed.status).toBe(200);
    // The same role again changes nothing, and records nothing.
    const same = await api("PATCH", `/api/orgs/${slug}/members/${memberId}`, owner.token, {
      role: "member",
    });
    expect(same.status).toBe(200);

    const second = await invite(owner, slug, leaver, "member");
    expect(
      (await api("POST", `/api/invitations/${second.token}/accept`, leaver.token)).status,
    ).toBe(200);
    const left = await api("DELETE", `/api/orgs/${slug}/members/${leaverId}`, leaver.token);
    expect(left.status).toBe(204);
    const removed = await api("DELETE", `/api/orgs/${slug}/members/${memberId}`, owner.token);
    expect(removed.status).toBe(204);

    const third = await invite(owner, slug, declined, "admin");
    const revoked = await api("DELETE", `/api/orgs/${slug}/invitations/${third.id}`, owner.token);
    expect(revoked.status).toBe(204);

    // Refused changes record nothing: the last owner leaving, a revoked invitation's use.
    const lastOwner = await api("DELETE", `/api/orgs/${slug}/members/${ownerId}`, owner.token);
    expect(lastOwner.status).toBe(409);
    const late = await api("POST", `/api/invitations/${third.token}/accept`, declined.token);
    expect(late.status).toBe(404);

    expect((await api("DELETE", `/api/orgs/${slug}`, owner.token)).status).toBe(204);

    expect(await organizationEvents(id)).toEqual([
      { type: "organization.created", user_id: ownerId, actor_id: null, details: org },
      {
        type: "organization.invitation_created",
        user_id: ownerId,
        actor_id: null,
        details: { ...org, invitation_id: first.id, email: member.email, role: "viewer" },
      },
      {
        type: "organization.member_added",
        user_id: memberId,
        actor_id: null,
        details: { ...org, role: "viewer" },
      },
      {
        type: "organization.role_changed",
        user_id: memberId,
        actor_id: ownerId,
        details: { ...org, from: "viewer", to: "member" },
      },
      {
        type: "organization.invitation_created",
        user_id: ownerId,
        actor_id: null,
        details: { ...org, invitation_id: second.id, email: leaver.email, role: "member" },
      },
      {
        type: "organization.member_added",
        user_id: leaverId,
        actor_id: null,
        details: { ...org, role: "member" },
      },
      { type: "organization.member_removed", user_id: leaverId, actor_id: null, details: org },
      { type: "organization.member_removed", user_id: memberId, actor_id: ownerId, details: org },
      {
        type: "organization.invitation_created",
        user_id: ownerId,
        actor_id: null,
        details: { ...org, invitation_id: third.id, email: declined.email, role: "admin" },
      },
      {
        type: "organization.invitation_revoked",
        user_id: ownerId,
        actor_id: null,
        details: { ...org, invitation_id: third.id },
      },
      { type: "organization.deleted", user_id: ownerId, actor_id: null, details: org },
    ]);
    await expectNoTokenInTheTrail();

    // The member reads their own side of it in their activity.
    const activity = await api("GET", "/api/auth/activity", member.token);
    expect(activity.status).toBe(200);
    const types = activity.body.map((event: { type: string }) => event.type);
    expect(types.filter((type: string) => type.startsWith("organization."))).toEqual([
      "organization.member_removed",
      "organization.role_changed",
      "organization.member_added",
    ]);
  });

  it("records the pages' changes by the same code: create, invite, accept and leave", async () => {
    const owner = await signedInBrowser("page-owner");
    const invitee = await signedInBrowser("page-invitee");
    const [ownerId, inviteeId] = [await userId(owner.email), await userId(invitee.email)];

    const created = await owner.browser.post("/orgs", { name: "Paged Team" });
    expect(created.status).toBe(303);
    const path = created.location!;
    const slug = path.replace("/orgs/", "");
    const id = await organizationId(slug);
    const org = { organization_id: id, organization_slug: slug };

    const invited = await owner.browser.post(`${path}/invitations`, {
      email: invitee.email,
      role: "member",
    });
    expect([invited.status, invited.location]).toEqual([303, path]);
    await server.deliverMail();
    const link = linkIn(mailer.last(invitee.email)!.text, "/invitations");
    tokens.push(link.token);
    expect((await invitee.browser.post(link.path)).location).toBe("/orgs");
    expect((await invitee.browser.post(`${path}/leave`)).location).toBe("/orgs");
    // The last owner may not leave: nothing is recorded for it.
    expect((await owner.browser.post(`${path}/leave`)).status).toBe(409);

    const events = await organizationEvents(id);
    const [invitation] = await server.query<{ id: number }>(
      "SELECT id FROM organization_invitations WHERE organization_id = ?",
      id,
    );
    expect(events).toEqual([
      { type: "organization.created", user_id: ownerId, actor_id: null, details: org },
      {
        type: "organization.invitation_created",
        user_id: ownerId,
        actor_id: null,
        details: {
          ...org,
          invitation_id: Number(invitation!.id),
          email: invitee.email,
          role: "member",
        },
      },
      {
        type: "organization.member_added",
        user_id: inviteeId,
        actor_id: null,
        details: { ...org, role: "member" },
      },
      { type: "organization.member_removed", user_id: inviteeId, actor_id: null, details: org },
    ]);
    // Recorded with the browser's address, as the accounts' events are.
    const [added] = await server.query<{ ip: string | null }>(
      "SELECT ip FROM audit_events WHERE type = 'organization.member_added' AND user_id = ?",
      inviteeId,
    );
    expect(added!.ip).toBe(invitee.browser.clientAddress);
    await expectNoTokenInTheTrail();
  });
});

/** A browser of a new user who signed up, confirmed their address and signed in. */
async function signedInBrowser(name: string): Promise<{ browser: Browser; email: string }> {
  const { browser, email } = await confirmedVisitor(server, mailer, name, PASSWORD);
  expect((await browser.post("/login", { email, password: PASSWORD })).status).toBe(303);
  return { browser, email };
}
