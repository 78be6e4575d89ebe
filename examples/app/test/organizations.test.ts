// Organizations over HTTP in the example app: created by a confirmed user, who invites another
// by email (the mail goes through the outbox), who accepts with the link's token; a stranger
// sees nothing of it, a viewer may not invite, and the last owner cannot leave.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkIn } from "./support/browser.js";
import { callJsonApi } from "./support/json-api.js";
import { newClientAddress, startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1", APP_URL: "https://app.example" }, { mailer });
});
afterAll(() => server.stop());

const api = (method: string, path: string, token?: string, json?: unknown) =>
  callJsonApi(server.url, method, path, token, json);

/** A user who signed up and confirmed their address through the mailed link; their token. */
async function confirmedUser(name: string): Promise<{ email: string; token: string }> {
  const email = `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = "correct horse battery staple";
  const form = (path: string, body: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: server.url,
        "x-forwarded-for": newClientAddress(),
      },
      body: new URLSearchParams(body),
    });
  expect((await form("/signup", { email, password })).status).toBe(303);
  await server.deliverMail();
  const confirmation = linkIn(mailer.last(email)!.text, "/confirmations");
  expect((await form(confirmation.path, {})).status).toBe(303);
  const token = (await api("POST", "/api/auth/token", undefined, { email, password })).body.token;
  return { email, token: String(token) };
}

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
