// An organization's page renames and deletes it, with the JSON routes' rules (one function each
// does both), and the header of the organization pages lists the user's organizations (the
// switcher), read at each page: the current one marked, one the user left gone at once.
import { MemoryMailer } from "@tessera/mail";
import { MemoryOrganizationStore } from "@tessera/organizations";
import {
  ORGANIZATION_SWITCHER_MENU,
  type OrganizationSwitcherContext,
  organizationSwitcher,
} from "@tessera/organizations/routes";
import { sessionPageContext } from "@tessera/session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, linkIn, pageText } from "./support/browser.js";
import { confirmedVisitor as confirmedVisitorOf } from "./support/confirmed-visitor.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const PASSWORD = "correct horse battery staple";
const mailer = new MemoryMailer();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1", APP_URL: "https://app.example" }, { mailer });
});
afterAll(() => server.stop());

/** A confirmed user's browser, signed in, and their user id. */
async function signedIn(name: string) {
  const visitor = await confirmedVisitorOf(server, mailer, name, PASSWORD);
  const login = await visitor.browser.post("/login", { email: visitor.email, password: PASSWORD });
  expect(login.status).toBe(303);
  const [row] = await server.query<{ id: number }>(
    "SELECT id FROM users WHERE email = ?",
    visitor.email,
  );
  return { ...visitor, id: Number(row!.id) };
}

/** A new organization of the browser's user, made from the page: its name, slug and path. */
async function createdBy(browser: Browser, prefix: string) {
  const name = `${prefix} ${crypto.randomUUID().slice(0, 6)}`;
  const created = await browser.post("/orgs", { name });
  expect(created.status).toBe(303);
  const path = created.location!;
  return { name, path, slug: path.replace("/orgs/", "") };
}

/** A new member of the organization at `path` with `role`, joined through the page's invitation. */
async function joined(ownerBrowser: Browser, path: string, name: string, role: string) {
  const member = await signedIn(name);
  const invited = await ownerBrowser.post(`${path}/invitations`, { email: member.email, role });
  expect(invited.status).toBe(303);
  await server.deliverMail();
  const accepted = await member.browser.post(
    linkIn(mailer.last(member.email)!.text, "/invitations").path,
  );
  expect(accepted.location).toBe("/orgs");
  return member;
}

/** The organization's row by its id: its name and slug, or undefined once it is gone. */
async function organizationRow(id: number) {
  const [row] = await server.query<{ name: string; slug: string }>(
    "SELECT name, slug FROM organizations WHERE id = ?",
    id,
  );
  return row;
}

async function organizationIdOf(slug: string): Promise<number> {
  const [row] = await server.query<{ id: number }>(
    "SELECT id FROM organizations WHERE slug = ?",
    slug,
  );
  return Number(row!.id);
}

describe("POST /orgs/{slug}/settings", () => {
  it("renames to a new name and address with the JSON route's checks, for organization:update only", async () => {
    const owner = await signedIn("renamer");
    const org = await createdBy(owner.browser, "Old");
    const other = await createdBy(owner.browser, "Other");
    const id = await organizationIdOf(org.slug);

    const page = await owner.browser.get(org.path);
    expect(page.html).toContain(`<form method="post" action="${org.path}/settings">`);
    expect(page.html).toContain(`value="${org.name}"`);

    // Another organization's address: 422, the form as sent, nothing written.
    const taken = await owner.browser.post(`${org.path}/settings`, {
      name: "Kept Name",
      slug: other.slug,
    });
    expect(taken.status).toBe(422);
    expect(pageText(taken.html)).toContain("has already been taken");
    expect(taken.html).toContain('value="Kept Name"');
    expect(taken.html).toContain('aria-invalid="true" aria-describedby="slug-error"');
    // A blank name and a malformed address: each field's own message.
    const malformed = await owner.browser.post(`${org.path}/settings`, {
      name: "  ",
      slug: "Not A Slug!",
    });
    expect(malformed.status).toBe(422);
    expect(pageText(malformed.html)).toContain("can't be blank");
    expect(pageText(malformed.html)).toContain(
      "may hold only lower-case letters, digits and single hyphens inside",
    );
    expect(malformed.html).toContain('aria-describedby="name-error"');
    expect(await organizationRow(id)).toEqual({ name: org.name, slug: org.slug });

    // Members who may not rename: a viewer's page has no form, and its post is a 403 page.
    const viewer = await joined(owner.browser, org.path, "reader", "viewer");
    expect((await viewer.browser.get(org.path)).html).not.toContain(
      `action="${org.path}/settings"`,
    );
    const refused = await viewer.browser.post(`${org.path}/settings`, {
      name: "Viewer's",
      slug: "viewers-own",
    });
    expect(refused.status).toBe(403);
    expect(pageText(refused.html)).toContain("You need the organization:update permission.");
    // A stranger: the 404 page of no such organization.
    const stranger = await signedIn("passerby");
    const hidden = await stranger.browser.post(`${org.path}/settings`, {
      name: "Mine",
      slug: "mine-now",
    });
    expect(hidden.status).toBe(404);
    expect(pageText(hidden.html)).toContain("There is no such organization");
    expect(await organizationRow(id)).toEqual({ name: org.name, slug: org.slug });

    const newSlug = `renamed-${crypto.randomUUID().slice(0, 6)}`;
    const renamed = await owner.browser.post(`${org.path}/settings`, {
      name: " New Name ",
      slug: newSlug,
    });
    expect([renamed.status, renamed.location]).toEqual([303, `/orgs/${newSlug}`]);
    const newPage = await owner.browser.follow(renamed);
    expect(newPage.status).toBe(200);
    expect(pageText(newPage.html)).toContain(
      `The organization was renamed: New Name, at ${newSlug}.`,
    );
    expect(await organizationRow(id)).toEqual({ name: "New Name", slug: newSlug });
    expect((await owner.browser.get(org.path)).status).toBe(404);
    // The members follow it to its new address.
    expect(pageText((await viewer.browser.get(`/orgs/${newSlug}`)).html)).toContain(
      "Your role: viewer.",
    );
  });
});

describe("POST /orgs/{slug}/delete", () => {
  it("deletes with the slug typed again, taking its members, invitations and projects; refuses a wrong confirmation and an admin", async () => {
    const owner = await signedIn("closer");
    const org = await createdBy(owner.browser, "Doomed");
    const id = await organizationIdOf(org.slug);
    const made = await owner.browser.post(`${org.path}/projects`, {
      name: "Doomed project",
      status: "active",
    });
    expect(made.status).toBe(303);
    const admin = await joined(owner.browser, org.path, "second", "admin");
    const pending = await owner.browser.post(`${org.path}/invitations`, {
      email: `pending.${crypto.randomUUID().slice(0, 6)}@example.com`,
      role: "member",
    });
    expect(pending.status).toBe(303);
    const count = async (table: string) => {
      const [row] = await server.query<{ count: number }>(
        `SELECT COUNT(*) AS count FROM ${table} WHERE organization_id = ?`,
        id,
      );
      return Number(row!.count);
    };
    const rowsOf = async () => ({
      organization: (await organizationRow(id)) !== undefined,
      members: await count("organization_members"),
      invitations: await count("organization_invitations"),
      projects: await count("projects"),
    });
    const before = { organization: true, members: 2, invitations: 2, projects: 1 };
    expect(await rowsOf()).toEqual(before);

    // An admin may rename but not delete: no form on their page, and a 403 naming the permission.
    const adminPage = await admin.browser.get(org.path);
    expect(adminPage.html).toContain(`action="${org.path}/settings"`);
    expect(adminPage.html).not.toContain(`action="${org.path}/delete"`);
    const byAdmin = await admin.browser.post(`${org.path}/delete`, { confirm: org.slug });
    expect(byAdmin.status).toBe(403);
    expect(pageText(byAdmin.html)).toContain("You need the organization:delete permission.");

    const ownerPage = await owner.browser.get(org.path);
    expect(ownerPage.html).toContain(`<form method="post" action="${org.path}/delete">`);
    expect(pageText(ownerPage.html)).toContain(`Type ${org.slug} to confirm`);
    for (const form of [{ confirm: "wrong-org" }, { confirm: "" }, {}]) {
      const unconfirmed = await owner.browser.post(`${org.path}/delete`, form);
      expect([form, unconfirmed.status]).toEqual([form, 422]);
      expect(pageText(unconfirmed.html)).toContain(
        `Type the organization's address, ${org.slug}, exactly as shown to confirm the deletion.`,
      );
      expect(unconfirmed.html).toContain('aria-describedby="confirm-error"');
    }
    expect(await rowsOf()).toEqual(before);

    const deleted = await owner.browser.post(`${org.path}/delete`, { confirm: org.slug });
    expect([deleted.status, deleted.location]).toEqual([303, "/orgs"]);
    expect(pageText((await owner.browser.follow(deleted)).html)).toContain(
      `${org.name} was deleted.`,
    );
    expect(await rowsOf()).toEqual({
      organization: false,
      members: 0,
      invitations: 0,
      projects: 0,
    });
    // Recorded as the JSON route records it: about who deleted it.
    const events = await server.query<{ user_id: number; details: string }>(
      "SELECT user_id, details FROM audit_events WHERE type = 'organization.deleted'",
    );
    const ours = events.filter((event) => JSON.parse(event.details).organization_id === id);
    expect(ours.map((event) => Number(event.user_id))).toEqual([owner.id]);
    expect(JSON.parse(ours[0]!.details).organization_slug).toBe(org.slug);
    // Gone for everyone: the admin's next page is the 404 page, a second delete too.
    expect((await admin.browser.get(org.path)).status).toBe(404);
    expect((await owner.browser.post(`${org.path}/delete`, { confirm: org.slug })).status).toBe(
      404,
    );
  });
});

describe("the rename and delete forms' cross-site check", () => {
  it("refuses a post from another site with the 403 page, before anything is read or written", async () => {
    const owner = await signedIn("guarded");
    const org = await createdBy(owner.browser, "Guarded");
    const id = await organizationIdOf(org.slug);
    const crossSite = { "sec-fetch-site": "cross-site", origin: "https://evil.example" };
    for (const [path, form] of [
      [`${org.path}/settings`, "name=Evil&slug=evil-org"],
      [`${org.path}/delete`, `confirm=${org.slug}`],
    ] as const) {
      const refused = await owner.browser.request("POST", path, form, crossSite);
      expect([path, refused.status]).toEqual([path, 403]);
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
    expect(await organizationRow(id)).toEqual({ name: org.name, slug: org.slug });
  });
});

describe("the rename and delete forms' rate limit", () => {
  it("counts them with the other organization writes: past the limit, a 429 page and nothing done", async () => {
    const owner = await signedIn("hasty");
    const org = await createdBy(owner.browser, "Busy");
    const id = await organizationIdOf(org.slug);
    // 30 writes a minute per user, in fixed windows: the 31st of one window at the latest by the
    // 61st attempt, whenever the loop starts.
    const untilRefused = async (path: string, form: Record<string, string>) => {
      for (let attempt = 1; attempt <= 61; attempt += 1) {
        const answer = await owner.browser.post(path, form);
        if (answer.status !== 422) return answer;
      }
      throw new Error(`${path} was never limited`);
    };
    for (const [path, form] of [
      [`${org.path}/settings`, { name: "", slug: "x" }],
      [`${org.path}/delete`, { confirm: "not-it" }],
    ] as const) {
      const limited = await untilRefused(path, form);
      expect([path, limited.status]).toEqual([path, 429]);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(pageText(limited.html)).toContain("Too many requests. Try again later.");
    }
    expect(await organizationRow(id)).toEqual({ name: org.name, slug: org.slug });
  });
});

/** The switcher's list in a page's header: each link's address and text, `*` on the current. */
function switcherLinks(html: string): string[] | undefined {
  const menu = html.match(/<details class="header-menu">([\s\S]*?)<\/details>/);
  if (!menu) return undefined;
  return [...menu[1]!.matchAll(/<a href="([^"]+)"( aria-current="true")?>([^<]*)<\/a>/g)].map(
    ([, href, current, text]) => `${current ? "*" : ""}${href} ${text}`,
  );
}

describe("the organization switcher in the header", () => {
  it("lists the user's organizations, marks the current one, and is read again at every page", async () => {
    const owner = await signedIn("switcher");
    const alpha = await createdBy(owner.browser, "Alpha");
    // The page a new organization leads to lists it at once.
    const beta = await createdBy(owner.browser, "Beta");
    const all = "/orgs All organizations, or a new one";
    const betaPage = await owner.browser.get(beta.path);
    expect(switcherLinks(betaPage.html)).toEqual([
      `${alpha.path} ${alpha.name}`,
      `*${beta.path} ${beta.name}`,
      all,
    ]);
    expect(betaPage.html).toContain(
      `<summary>Your organizations<span class="header-menu-current">: ${beta.name}</span></summary>`,
    );
    expect(switcherLinks((await owner.browser.get(alpha.path)).html)).toEqual([
      `*${alpha.path} ${alpha.name}`,
      `${beta.path} ${beta.name}`,
      all,
    ]);
    expect(switcherLinks((await owner.browser.get("/orgs")).html)).toEqual([
      `${alpha.path} ${alpha.name}`,
      `${beta.path} ${beta.name}`,
      `*${all}`,
    ]);

    // A member sees the organizations they joined; removed, they no longer do at their next page.
    const member = await joined(owner.browser, alpha.path, "crew", "member");
    expect(switcherLinks((await member.browser.get("/orgs")).html)).toEqual([
      `${alpha.path} ${alpha.name}`,
      `*${all}`,
    ]);
    const removed = await owner.browser.post(`${alpha.path}/members/${member.id}/remove`);
    expect(removed.status).toBe(303);
    expect(switcherLinks((await member.browser.get("/orgs")).html)).toEqual([`*${all}`]);

    // Renamed, it shows under its new name and address on the next page.
    const renamed = await owner.browser.post(`${beta.path}/settings`, {
      name: "Beta Renamed",
      slug: `${beta.slug}-2`,
    });
    expect(switcherLinks((await owner.browser.follow(renamed)).html)).toEqual([
      `${alpha.path} ${alpha.name}`,
      `*${beta.path}-2 Beta Renamed`,
      all,
    ]);
  });

  it("is not shown to a visitor", async () => {
    const { browser } = await confirmedVisitorOf(server, mailer, "stranger", PASSWORD);
    const sent = await browser.get("/orgs");
    expect([sent.status, sent.location]).toEqual([303, "/login"]);
    for (const path of ["/login", "/"]) {
      const page = await browser.get(path);
      expect([path, page.status]).toEqual([path, 200]);
      expect(page.html).not.toContain("header-menu");
    }
  });

  it("reads the organizations once per signed-in request, never for a visitor, and once when put twice", async () => {
    const store = new MemoryOrganizationStore(() => ({ email: "a@example.com", name: null }));
    await store.createOrganization({ name: "Acme", slug: "acme", ownerId: 7, now: 0 });
    let reads = 0;
    const counted = new Proxy(store, {
      get(target, property, receiver) {
        if (property === "listForUser") reads += 1;
        const value = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const switcher = organizationSwitcher<OrganizationSwitcherContext>({ organizations: counted });
    let seen: OrganizationSwitcherContext | undefined;
    const page = switcher(
      switcher(
        async (_request, context) => {
          seen = context;
          return new Response("page");
        },
        { method: "GET", path: "/orgs/:slug" },
      ),
      { method: "GET", path: "/orgs/:slug" },
    );
    const request = new Request("http://app.example/orgs/acme/projects");
    const context = (userId: number | undefined) => ({
      params: {},
      clientAddress: "203.0.113.1",
      session: { userId },
    });

    await page(request, context(undefined));
    expect(reads).toBe(0);
    expect(seen?.headerMenus).toBeUndefined();

    await page(request, context(7));
    expect(reads).toBe(1);
    expect(seen?.headerMenus).toEqual([
      {
        id: ORGANIZATION_SWITCHER_MENU,
        label: "Your organizations",
        links: [
          { href: "/orgs/acme", text: "Acme", current: true },
          { href: "/orgs", text: "All organizations, or a new one" },
        ],
      },
    ]);

    // The page context hands the menus on to a signed-in user's page only.
    const pageRequest = {
      session: { takeFlashes: () => [], get: () => undefined },
      cspNonce: "nonce",
      headerMenus: seen?.headerMenus,
    };
    expect(sessionPageContext(pageRequest, "a@example.com").headerMenus).toEqual(seen?.headerMenus);
    expect(sessionPageContext(pageRequest, undefined).headerMenus).toBeUndefined();
  });
});
