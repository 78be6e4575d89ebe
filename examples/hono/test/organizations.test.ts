// The Hono example's organizations over HTTP: a user creates one and invites two others by mail;
// one accepts with the JSON route, the other on the invitation page. The member writes the
// organization's projects, the viewer reads them and is refused a write naming the permission,
// and a user of no organization sees nothing of it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerType } from "@hono/node-server";
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleApp } from "../src/app.js";
import { listen } from "../src/listen.js";
import { readSettings } from "../src/settings.js";

const folder = mkdtempSync(join(tmpdir(), "tessera-example-hono-organizations-"));
const mailer = new MemoryMailer();
const { app } = await exampleApp({
  ...readSettings(
    {
      SECRET_KEY_BASE: "example-hono-organizations-".repeat(3),
      DATABASE_PATH: join(folder, "app.db"),
    },
    "hono",
  ),
  mailer,
});
let url = "";
let server: ServerType | undefined;
beforeAll(async () => {
  const listening = await listen(app, 0, "127.0.0.1");
  server = listening.server;
  url = `http://127.0.0.1:${listening.address.port}`;
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  rmSync(folder, { recursive: true, force: true });
});

const PASSWORD = "correct horse battery staple";

/** A JSON request, with a bearer token when given: the status and the parsed body. */
async function api(method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const answer = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await answer.text();
  // As loosely typed as JSON.parse's.
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

/** A same-origin form post, as a browser makes it, with the session cookie when given. */
function form(path: string, fields: Record<string, string>, cookie?: string) {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: url,
  };
  if (cookie) headers.cookie = cookie;
  return fetch(`${url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers,
    body: new URLSearchParams(fields),
  });
}

/** The path of the `/confirmations/…` or `/invitations/…` link of the last mail to `email`. */
function linkTo(email: string, path: string): string {
  const text = mailer.last(email)?.text ?? "";
  const found = text.match(new RegExp(`${url}(${path}/[A-Za-z0-9_-]+)`));
  if (!found) throw new Error(`no ${path} link in the mail to ${email}: ${text}`);
  return found[1]!;
}

/** A user who signed up with the form and confirmed their address with the mailed link. */
async function confirmedUser(name: string) {
  const email = `${name}@example.com`;
  const signup = await form("/signup", { email, password: PASSWORD });
  expect(signup.status).toBe(303);
  const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
  expect((await form(linkTo(email, "/confirmations"), {})).status).toBe(303);
  const token = await api("POST", "/api/auth/token", undefined, { email, password: PASSWORD });
  expect(token.status).toBe(200);
  return { email, cookie, token: String(token.body.token) };
}

describe("the Hono example's organizations", () => {
  it("lets members in by mailed invitation, and serves the projects as each role allows", async () => {
    const owner = await confirmedUser("owner");
    const created = await api("POST", "/api/orgs", owner.token, { name: "Acme Research" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: "acme-research", role: "owner" });
    const projects = "/api/orgs/acme-research/projects";

    // A member, who accepts with the JSON route and the token of the mailed link.
    const member = await confirmedUser("member");
    const invited = await api("POST", "/api/orgs/acme-research/invitations", owner.token, {
      email: member.email,
      role: "member",
    });
    expect(invited.status).toBe(201);
    expect(mailer.last(member.email)?.subject).toBe("You're invited to join Acme Research");
    const token = linkTo(member.email, "/invitations").slice("/invitations/".length);
    const accepted = await api("POST", `/api/invitations/${token}/accept`, member.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      organization: { slug: "acme-research" },
      role: "member",
    });
    expect((await api("POST", `/api/invitations/${token}/accept`, member.token)).status).toBe(404);

    // A viewer, who accepts on the page the mail links to, signed in with the cookie session.
    const viewer = await confirmedUser("viewer");
    await api("POST", "/api/orgs/acme-research/invitations", owner.token, {
      email: viewer.email,
      role: "viewer",
    });
    const page = linkTo(viewer.email, "/invitations");
    const visitor = await fetch(`${url}${page}`, { redirect: "manual" });
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get("location")).toMatch(/^\/login/);
    const shown = await fetch(`${url}${page}`, { headers: { cookie: viewer.cookie } });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("Acme Research");
    const joined = await form(page, {}, viewer.cookie);
    expect(joined.status).toBe(303);
    expect(joined.headers.get("location")).toBe("/account");

    const members = await api("GET", "/api/orgs/acme-research/members", owner.token);
    expect(members.body.map((each: { email: string; role: string }) => each.role)).toEqual([
      "owner",
      "member",
      "viewer",
    ]);

    // The member writes the organization's project; it is the organization's, made by them.
    const made = await api("POST", projects, member.token, { name: "Roadmap", status: "active" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Roadmap", status: "active" });
    expect(made.body.organization_id).toBe(created.body.id);
    expect(made.body).not.toHaveProperty("user_id");
    const me = await api("GET", "/api/auth/me", member.token);
    expect(made.body.created_by).toBe(me.body.id);
    const changed = await api("PATCH", `${projects}/${made.body.id}`, member.token, {
      status: "archived",
    });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe("archived");

    // The viewer reads it, and is refused a write with the permission its role lacks.
    const listed = await api("GET", projects, viewer.token);
    expect(listed.status).toBe(200);
    expect(listed.body.map((project: { name: string }) => project.name)).toEqual(["Roadmap"]);
    const refused = await api("POST", projects, viewer.token, { name: "Mine", status: "active" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "forbidden",
      message: "You need the projects:create permission.",
    });

    // A user of no organization gets the 404 of no such organization, for reads and writes.
    const stranger = await confirmedUser("stranger");
    expect((await api("GET", projects, stranger.token)).status).toBe(404);
    expect((await api("GET", `${projects}/${made.body.id}`, stranger.token)).status).toBe(404);
    const write = await api("POST", projects, stranger.token, { name: "Mine", status: "active" });
    expect(write.status).toBe(404);
    expect((await api("GET", "/api/orgs/acme-research", stranger.token)).status).toBe(404);
    expect((await api("GET", projects)).status).toBe(401);

    // What was refused wrote nothing.
    const all = await api("GET", projects, owner.token);
    expect(all.body.map((project: { name: string }) => project.name)).toEqual(["Roadmap"]);
  });

  it("refuses an invitation to a user whose address is not confirmed yet", async () => {
    const owner = await confirmedUser("founder");
    const created = await api("POST", "/api/orgs", owner.token, { name: "Second Team" });
    const email = "unconfirmed@example.com";
    expect(
      (await api("POST", "/api/auth/signup", undefined, { email, password: PASSWORD })).status,
    ).toBe(201);
    const token = await api("POST", "/api/auth/token", undefined, { email, password: PASSWORD });
    await api("POST", `/api/orgs/${created.body.slug}/invitations`, owner.token, {
      email,
      role: "member",
    });
    const invitation = linkTo(email, "/invitations").slice("/invitations/".length);
    const refused = await api("POST", `/api/invitations/${invitation}/accept`, token.body.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "invitation_email_mismatch",
      message: "Confirm your email address before you accept an invitation.",
    });
    const members = await api("GET", `/api/orgs/${created.body.slug}/members`, owner.token);
    expect(members.body).toHaveLength(1);
  });
});
