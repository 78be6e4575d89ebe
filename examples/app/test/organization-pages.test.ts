// The organization pages in a browser's shoes: the list and the form that creates one, an
// organization's page with its members, invitations and leaving, and the page an invitation
// mail links to (a visitor is sent to sign in and comes back; the invited user accepts with one
// button; another account is told why it cannot; a used link says it cannot be accepted).
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, linkIn, pageText } from "./support/browser.js";
import { confirmedVisitor as confirmedVisitorOf } from "./support/confirmed-visitor.js";
import { callJsonApi } from "./support/json-api.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const PASSWORD = "correct horse battery staple";
const mailer = new MemoryMailer();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1", APP_URL: "https://app.example" }, { mailer });
});
afterAll(() => server.stop());

/** A browser of a new user who signed up and confirmed their address; not signed in. */
const confirmedVisitor = (name: string) => confirmedVisitorOf(server, mailer, name, PASSWORD);

/** An organization of a new owner's, and the path of an invitation it sent to `email`. */
async function invitationTo(email: string, role = "member") {
  const owner = await confirmedVisitor("owner");
  const token = (
    await callJsonApi(server.url, "POST", "/api/auth/token", undefined, {
      email: owner.email,
      password: PASSWORD,
    })
  ).body.token as string;
  const name = `Team ${crypto.randomUUID().slice(0, 6)}`;
  const created = await callJsonApi(server.url, "POST", "/api/orgs", token, { name });
  const slug = created.body.slug as string;
  const invited = await callJsonApi(server.url, "POST", `/api/orgs/${slug}/invitations`, token, {
    email,
    role,
  });
  expect(invited.status).toBe(201);
  await server.deliverMail();
  return {
    name,
    slug,
    ownerToken: token,
    path: linkIn(mailer.last(email)!.text, "/invitations").path,
  };
}

describe("GET|POST /invitations/{token}", () => {
  it("sends a visitor to sign in and back, and lets the invited user join with one button", async () => {
    const { browser, email } = await confirmedVisitor("invitee");
    const { name, slug, ownerToken, path } = await invitationTo(email, "viewer");

    const visitor = await browser.get(path);
    expect([visitor.status, visitor.location]).toEqual([303, "/login"]);
    const signedIn = await browser.post("/login", { email, password: PASSWORD });
    expect(signedIn.location).toBe(path);

    const page = await browser.follow(signedIn);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(pageText(page.html)).toContain(`You are invited to join ${name} as viewer.`);
    expect(page.html).toContain(`<form method="post" action="${path}">`);

    const accepted = await browser.post(path);
    expect([accepted.status, accepted.location]).toEqual([303, "/orgs"]);
    expect(pageText((await browser.follow(accepted)).html)).toContain(
      `You joined ${name} as viewer.`,
    );
    const members = await callJsonApi(server.url, "GET", `/api/orgs/${slug}/members`, ownerToken);
    expect(members.body.map((member: { email: string; role: string }) => member.role)).toEqual([
      "owner",
      "viewer",
    ]);
    expect(members.body[1].email).toBe(email);

    // The link is used up: its page says so, and a second post changes nothing.
    const used = await browser.get(path);
    expect(used.status).toBe(404);
    expect(pageText(used.html)).toContain("This invitation cannot be accepted");
    expect((await browser.post(path)).status).toBe(404);
  });

  it("tells another account why it cannot accept, and leaves the invitation to its addressee", async () => {
    const invitee = await confirmedVisitor("invitee");
    const other = await confirmedVisitor("other");
    const { slug, ownerToken, path } = await invitationTo(invitee.email);
    await other.browser.post("/login", { email: other.email, password: PASSWORD });

    const page = await other.browser.get(path);
    expect(page.status).toBe(403);
    expect(pageText(page.html)).toContain("This invitation was sent to another email address");
    expect(page.html).not.toContain(`action="${path}"`);
    expect((await other.browser.post(path)).status).toBe(403);
    const members = await callJsonApi(server.url, "GET", `/api/orgs/${slug}/members`, ownerToken);
    expect(members.body).toHaveLength(1);

    await invitee.browser.post("/login", { email: invitee.email, password: PASSWORD });
    expect((await invitee.browser.post(path)).location).toBe("/orgs");
  });

  it("answers a token of no invitation, or of no possible shape, with the same 404 page", async () => {
    const { browser, email } = await confirmedVisitor("visitor");
    await browser.post("/login", { email, password: PASSWORD });
    for (const token of ["a".repeat(43), "%00", "x"]) {
      const page = await browser.get(`/invitations/${token}`);
      expect([token, page.status]).toEqual([token, 404]);
      expect(pageText(page.html)).toContain("Invitation not available");
    }
  });
});

/** A confirmed user's browser, signed in. */
async function signedIn(name: string) {
  const visitor = await confirmedVisitor(name);
  const login = await visitor.browser.post("/login", { email: visitor.email, password: PASSWORD });
  expect(login.status).toBe(303);
  return visitor;
}

describe("GET|POST /orgs and /orgs/{slug}", () => {
  it("lists the user's organizations and creates one, refusing a blank name and a taken slug", async () => {
    const { browser, email } = await signedIn("founder");
    const empty = await browser.get("/orgs");
    expect(empty.status).toBe(200);
    expect(pageText(empty.html)).toContain("You are not a member of any organization yet.");
    // The header's organization switcher: no organization yet, the list itself marked current.
    expect(empty.html).toContain(
      '<a href="/orgs" aria-current="true">All organizations, or a new one</a>',
    );

    const name = `Acme ${crypto.randomUUID().slice(0, 6)}`;
    const created = await browser.post("/orgs", { name, slug: "" });
    expect(created.status).toBe(303);
    const slug = created.location!.replace("/orgs/", "");
    expect(slug).toMatch(/^acme-[a-z0-9]+$/);
    const page = await browser.follow(created);
    expect(page.status).toBe(200);
    expect(pageText(page.html)).toContain(`The organization ${name} was created.`);
    expect(pageText(page.html)).toContain("Your role: owner.");
    expect(pageText(page.html)).toContain(email);
    expect(pageText((await browser.get("/orgs")).html)).toContain(`${name} (owner)`);

    const blank = await browser.post("/orgs", { name: "  " });
    expect(blank.status).toBe(422);
    expect(blank.html).toContain('aria-invalid="true"');
    expect(pageText(blank.html)).toContain("can't be blank");
    const taken = await browser.post("/orgs", { name: "Another", slug });
    expect(taken.status).toBe(422);
    expect(pageText(taken.html)).toContain("has already been taken");
    expect(taken.html).toContain('value="Another"');
    const [count] = await server.query<{ count: number }>(
      "SELECT COUNT(*) AS count FROM organizations WHERE slug = ?",
      slug,
    );
    expect(Number(count!.count)).toBe(1);
  });

  it("invites from the page, shows a viewer no invite form, refuses strangers, and lets members leave but not the last owner", async () => {
    const owner = await signedIn("owner");
    const created = await owner.browser.post("/orgs", {
      name: `Team ${crypto.randomUUID().slice(0, 6)}`,
    });
    const path = created.location!;

    const viewer = await signedIn("viewer");
    const refused = await owner.browser.post(`${path}/invitations`, {
      email: "not an address",
      role: "viewer",
    });
    expect(refused.status).toBe(422);
    expect(pageText(refused.html)).toContain("is invalid");
    const invited = await owner.browser.post(`${path}/invitations`, {
      email: viewer.email,
      role: "viewer",
    });
    expect([invited.status, invited.location]).toEqual([303, path]);
    const withInvitation = await owner.browser.follow(invited);
    expect(pageText(withInvitation.html)).toContain(`An invitation was sent to ${viewer.email}.`);
    expect(pageText(withInvitation.html)).toContain(`${viewer.email} as viewer, until`);
    await server.deliverMail();
    const link = linkIn(mailer.last(viewer.email)!.text, "/invitations");
    expect((await viewer.browser.post(link.path)).location).toBe("/orgs");

    const asViewer = await viewer.browser.get(path);
    expect(pageText(asViewer.html)).toContain("Your role: viewer.");
    expect(asViewer.html).not.toContain(`action="${path}/invitations"`);
    const notAllowed = await viewer.browser.post(`${path}/invitations`, {
      email: "x@example.com",
      role: "viewer",
    });
    expect(notAllowed.status).toBe(403);
    expect(pageText(notAllowed.html)).toContain("You need the members:invite permission.");

    const stranger = await signedIn("stranger");
    const hidden = await stranger.browser.get(path);
    expect(hidden.status).toBe(404);
    expect(pageText(hidden.html)).toContain("There is no such organization");
    expect((await stranger.browser.post(`${path}/leave`)).status).toBe(404);
    // A slug no organization can have is not looked up (PostgreSQL refuses a NUL as text).
    for (const odd of ["/orgs/%00", "/orgs/ac%00me/leave"]) {
      const answer = odd.endsWith("leave")
        ? await stranger.browser.post(odd)
        : await stranger.browser.get(odd);
      expect([odd, answer.status]).toEqual([odd, 404]);
    }

    const lastOwner = await owner.browser.post(`${path}/leave`);
    expect(lastOwner.status).toBe(409);
    expect(pageText(lastOwner.html)).toContain("An organization needs an owner");
    const left = await viewer.browser.post(`${path}/leave`);
    expect([left.status, left.location]).toEqual([303, "/orgs"]);
    expect((await viewer.browser.get(path)).status).toBe(404);
  });
});

describe("an organization's project pages, /orgs/{slug}/projects", () => {
  it("let members work on its projects by role, and are a 404 page to strangers", async () => {
    const owner = await signedIn("lead");
    const created = await owner.browser.post("/orgs", {
      name: `Studio ${crypto.randomUUID().slice(0, 6)}`,
    });
    const path = created.location!;
    const orgPage = await owner.browser.get(path);
    expect(orgPage.html).toContain(`<a href="${path}/projects">Projects</a>`);

    const made = await owner.browser.post(`${path}/projects`, {
      name: "Launch",
      status: "active",
    });
    expect(made.status).toBe(303);
    expect(made.location).toMatch(new RegExp(`^${path}/projects/\\d+$`));
    const shown = await owner.browser.follow(made);
    expect(shown.status).toBe(200);
    expect(pageText(shown.html)).toContain("Launch");
    expect(shown.html).toContain(`href="${made.location}/edit"`);
    const listed = await owner.browser.get(`${path}/projects`);
    expect(listed.html).toContain(`href="${made.location}"`);
    expect(listed.html).toContain(`href="${path}/projects/new"`);
    const [row] = await server.query<{ created_by: number; organization_id: number }>(
      "SELECT created_by, organization_id FROM projects WHERE name = 'Launch' ORDER BY id DESC",
    );
    expect(row?.created_by).toBeGreaterThan(0);

    // A viewer reads them, and is refused every form that writes, with the permission named.
    const viewer = await signedIn("watcher");
    await owner.browser.post(`${path}/invitations`, { email: viewer.email, role: "viewer" });
    await server.deliverMail();
    const link = linkIn(mailer.last(viewer.email)!.text, "/invitations");
    await viewer.browser.post(link.path);
    expect((await viewer.browser.get(made.location!)).status).toBe(200);
    expect(pageText((await viewer.browser.get(`${path}/projects`)).html)).toContain("Launch");
    const newForm = await viewer.browser.get(`${path}/projects/new`);
    expect(newForm.status).toBe(403);
    expect(pageText(newForm.html)).toContain("You need the projects:create permission.");
    const write = await viewer.browser.post(`${path}/projects`, { name: "X", status: "active" });
    expect(write.status).toBe(403);
    const removal = await viewer.browser.post(`${made.location}/delete`);
    expect(removal.status).toBe(403);
    expect(pageText(removal.html)).toContain("You need the projects:delete permission.");

    // Someone else's organization, or none: the same 404 page.
    const stranger = await signedIn("outsider");
    for (const page of [`${path}/projects`, made.location!, "/orgs/no-such-org/projects"]) {
      const answer = await stranger.browser.get(page);
      expect([page, answer.status]).toEqual([page, 404]);
    }
    expect((await stranger.browser.post(`${made.location}/delete`)).status).toBe(404);
    const [still] = await server.query<{ count: number }>(
      "SELECT COUNT(*) AS count FROM projects WHERE name = 'Launch'",
    );
    expect(Number(still!.count)).toBeGreaterThan(0);

    const deleted = await owner.browser.post(`${made.location}/delete`);
    expect([deleted.status, deleted.location]).toEqual([303, `${path}/projects`]);
  });
});

describe("managing members from /orgs/{slug}", () => {
  /** A member of the owner's organization with `role`, joined through the page's invitation. */
  async function joined(ownerBrowser: Browser, path: string, name: string, role: string) {
    const member = await signedIn(name);
    await ownerBrowser.post(`${path}/invitations`, { email: member.email, role });
    await server.deliverMail();
    await member.browser.post(linkIn(mailer.last(member.email)!.text, "/invitations").path);
    const [row] = await server.query<{ id: number }>(
      "SELECT id FROM users WHERE email = ?",
      member.email,
    );
    return { ...member, id: row!.id };
  }

  it("changes roles and removes members within one's own role, keeps an owner, and revokes invitations", async () => {
    const owner = await signedIn("boss");
    const path = (
      await owner.browser.post("/orgs", { name: `Crew ${crypto.randomUUID().slice(0, 6)}` })
    ).location!;
    const admin = await joined(owner.browser, path, "deputy", "admin");
    const member = await joined(owner.browser, path, "hand", "member");
    const [ownerRow] = await server.query<{ id: number }>(
      "SELECT id FROM users WHERE email = ?",
      owner.email,
    );

    // The owner's page has a role form and a remove button on the others' rows, not their own.
    const page = await owner.browser.get(path);
    expect(page.html).toContain(`action="${path}/members/${member.id}/role"`);
    expect(page.html).toContain(`action="${path}/members/${member.id}/remove"`);
    expect(page.html).not.toContain(`action="${path}/members/${ownerRow!.id}/role"`);

    const demoted = await owner.browser.post(`${path}/members/${member.id}/role`, {
      role: "viewer",
    });
    expect([demoted.status, demoted.location]).toEqual([303, path]);
    expect(pageText((await owner.browser.follow(demoted)).html)).toContain(
      `${member.email} is now viewer.`,
    );
    // An admin may not touch the owner, nor give the owner role; a viewer has no forms at all.
    const adminPage = await admin.browser.get(path);
    expect(adminPage.html).not.toContain(`action="${path}/members/${ownerRow!.id}/role"`);
    const overreach = await admin.browser.post(`${path}/members/${ownerRow!.id}/role`, {
      role: "member",
    });
    expect(overreach.status).toBe(403);
    expect(pageText(overreach.html)).toContain("owner");
    const promote = await admin.browser.post(`${path}/members/${member.id}/role`, {
      role: "owner",
    });
    expect(promote.status).toBe(403);
    const viewerPage = await member.browser.get(path);
    expect(viewerPage.html).not.toContain('/role"');
    expect((await member.browser.post(`${path}/members/${admin.id}/remove`)).status).toBe(403);
    for (const odd of ["0", "abc", "999999"]) {
      expect((await owner.browser.post(`${path}/members/${odd}/remove`)).status).toBe(404);
    }
    expect(
      (await owner.browser.post(`${path}/members/${member.id}/role`, { role: "king" })).status,
    ).toBe(422);

    // The last owner cannot be demoted, from the page either.
    const lastOwner = await owner.browser.post(`${path}/members/${ownerRow!.id}/role`, {
      role: "member",
    });
    expect(lastOwner.status).toBe(409);

    const removed = await admin.browser.post(`${path}/members/${member.id}/remove`);
    expect([removed.status, removed.location]).toEqual([303, path]);
    expect((await member.browser.get(path)).status).toBe(404);

    const invited = await owner.browser.post(`${path}/invitations`, {
      email: `later.${crypto.randomUUID().slice(0, 6)}@example.com`,
      role: "member",
    });
    expect(invited.status).toBe(303);
    const [invitation] = await server.query<{ id: number }>(
      "SELECT id FROM organization_invitations ORDER BY id DESC LIMIT 1",
    );
    const withInvitation = await owner.browser.get(path);
    expect(withInvitation.html).toContain(`action="${path}/invitations/${invitation!.id}/revoke"`);
    const revoked = await owner.browser.post(`${path}/invitations/${invitation!.id}/revoke`);
    expect([revoked.status, revoked.location]).toEqual([303, path]);
    expect((await owner.browser.post(`${path}/invitations/${invitation!.id}/revoke`)).status).toBe(
      404,
    );
  });
});
