// The page an invitation mail links to, in a browser's shoes: a visitor is sent to sign in and
// comes back to it; the invited user accepts it with one button and is a member; another
// account is told why it cannot; a used link says it cannot be accepted any more.
import { MemoryMailer } from "@tessera/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, linkIn, pageText } from "./support/browser.js";
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
async function confirmedVisitor(name: string): Promise<{ browser: Browser; email: string }> {
  const email = `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const browser = new Browser(server.url);
  expect((await browser.post("/signup", { email, password: PASSWORD })).status).toBe(303);
  await server.deliverMail();
  const confirmation = linkIn(mailer.last(email)!.text, "/confirmations");
  expect((await browser.post(confirmation.path)).status).toBe(303);
  await browser.post("/logout");
  return { browser: new Browser(server.url), email };
}

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
    expect([accepted.status, accepted.location]).toEqual([303, "/account"]);
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
    expect((await invitee.browser.post(path)).location).toBe("/account");
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
