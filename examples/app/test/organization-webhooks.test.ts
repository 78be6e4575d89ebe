// An organization's webhook endpoints: the endpoint routes under /api/orgs/{slug}, for members
// whose role has webhooks:manage; its projects' events reach them, signed, and never its
// members' own endpoints; its endpoints are stored apart from users' (owner -<id>) and go with it.
// Its page, /orgs/{slug}/webhooks, is the user's webhooks page for the organization, with the
// same check: a 403 page naming the permission, the 404 page to a non-member.
import { MemoryMailer } from "@tessera/mail";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { Browser, pageText } from "./support/browser.js";
import { callJsonApi } from "./support/json-api.js";
import { type OrganizationMembers, organizationMembers } from "./support/organization-members.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;
let receiver: RecordingService;
let people: OrganizationMembers;

beforeAll(async () => {
  receiver = await startRecordingService({ status: 204, body: "" });
  server = await startTestServer(
    { TRUST_PROXY: "1", OUTBOUND_ALLOW_HOSTS: "127.0.0.1", OUTBOUND_RETRY_SCHEDULE: "0,0,0" },
    { mailer },
  );
  people = organizationMembers(server, mailer);
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

const api = (method: string, path: string, token?: string, json?: unknown) =>
  callJsonApi(server.url, method, path, token, json);
const deliveriesTo = (path: string) => receiver.requests.filter((request) => request.path === path);

describe("an organization's webhook endpoints", () => {
  it("receive its projects' events, apart from its members' own endpoints, for roles that manage webhooks", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["member"]);
    const member = members[0]!;
    const origin = new URL(receiver.url).origin;
    const orgEndpoints = `/api/orgs/${slug}/webhook_endpoints`;

    const added = await api("POST", orgEndpoints, owner.token, {
      url: `${origin}/org-hook`,
      events: ["project.*"],
    });
    expect(added.status).toBe(201);
    const secret = added.body.secret as string;
    const mine = await api("POST", "/api/webhook_endpoints", owner.token, {
      url: `${origin}/own-hook`,
    });
    expect(mine.status).toBe(201);

    // Each list holds its own owner's endpoint only; the organization's is stored under -<id>.
    expect(
      (await api("GET", orgEndpoints, owner.token)).body.map((e: { id: string }) => e.id),
    ).toEqual([added.body.id]);
    expect(
      (await api("GET", "/api/webhook_endpoints", owner.token)).body.map(
        (e: { id: string }) => e.id,
      ),
    ).toEqual([mine.body.id]);
    const [organization] = await server.query<{ id: number }>(
      "SELECT id FROM organizations WHERE slug = ?",
      slug,
    );
    const owners = await server.query<{ owner_id: number }>(
      "SELECT owner_id FROM webhook_endpoints WHERE id = ?",
      added.body.id,
    );
    expect(owners.map((row) => Number(row.owner_id))).toEqual([-organization!.id]);

    // A member without webhooks:manage is refused, a stranger does not see the organization.
    const refused = await api("GET", orgEndpoints, member.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("You need the webhooks:manage permission.");
    const stranger = await people.confirmedUser("stranger");
    expect((await api("GET", orgEndpoints, stranger.token)).status).toBe(404);

    const project = await api("POST", `/api/orgs/${slug}/projects`, member.token, {
      name: "Launch",
      status: "active",
    });
    expect(project.status).toBe(201);
    await server.deliverWebhooks();
    await expect.poll(() => deliveriesTo("/org-hook").length).toBe(1);
    const [delivery] = deliveriesTo("/org-hook");
    const event = new Webhook(secret).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as { type: string; data: unknown };
    expect(event.type).toBe("project.created");
    expect(event.data).toEqual(project.body);
    expect(deliveriesTo("/own-hook")).toEqual([]);

    // Deleting the organization deletes its endpoints (and, by their key, its projects).
    expect((await api("DELETE", `/api/orgs/${slug}`, owner.token)).status).toBe(204);
    const left = await server.query<{ id: string }>(
      "SELECT id FROM webhook_endpoints WHERE owner_id = ?",
      -organization!.id,
    );
    expect(left).toEqual([]);
    expect((await api("GET", "/api/webhook_endpoints", owner.token)).body).toHaveLength(1);
  });
});

/** A browser signed in as `user` (made by `organizationMembers`, whose password this is). */
async function signedIn(user: { readonly email: string }): Promise<Browser> {
  const browser = new Browser(server.url);
  const answer = await browser.post("/login", {
    email: user.email,
    password: "correct horse battery staple",
  });
  expect(answer.status).toBe(303);
  return browser;
}

/** The id of the organization called `slug`. */
async function organizationId(slug: string): Promise<number> {
  const [row] = await server.query<{ id: number }>(
    "SELECT id FROM organizations WHERE slug = ?",
    slug,
  );
  return Number(row!.id);
}

describe("an organization's webhooks page, /orgs/{slug}/webhooks", () => {
  it("lets a role with webhooks:manage add, list, change and replay the organization's endpoints", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["admin", "member"]);
    const [admin, member] = [members[0]!, members[1]!];
    const browser = await signedIn(admin);
    const page = `/orgs/${slug}/webhooks`;

    // The organization's page links to it for a role that may manage webhooks.
    expect((await browser.get(`/orgs/${slug}`)).html).toContain(`<a href="${page}">Webhooks</a>`);
    const empty = await browser.get(page);
    expect(empty.status).toBe(200);
    expect(empty.html).toContain("No endpoints yet.");
    expect(empty.html).toContain(`<form method="post" action="${page}">`);
    // The organization switcher, with this organization marked.
    expect(empty.html).toContain(`<a href="/orgs/${slug}" aria-current="true">`);

    const origin = new URL(receiver.url).origin;
    const added = await browser.post(page, { url: `${origin}/org-page-hook`, description: "Team" });
    expect([added.status, added.location]).toEqual([303, page]);
    const listed = await browser.follow(added);
    expect(listed.status).toBe(200);
    expect(listed.html).toMatch(/signing secret, shown only this once: whsec_/);
    expect(listed.html).toContain(`${origin}/org-page-hook`);
    expect(listed.html).toContain("<svg");
    const id = new RegExp(`${page}/(ep_[^/]+)/disable`).exec(listed.html)![1]!;
    const rows = await server.query<{ owner_id: number; url: string }>(
      "SELECT owner_id, url FROM webhook_endpoints WHERE id = ?",
      id,
    );
    expect(rows.map((row) => [Number(row.owner_id), row.url])).toEqual([
      [-(await organizationId(slug)), `${origin}/org-page-hook`],
    ]);
    // The JSON routes see the same endpoint: one owner, two ways in.
    const json = await api("GET", `/api/orgs/${slug}/webhook_endpoints`, owner.token);
    expect(json.body.map((endpoint: { id: string }) => endpoint.id)).toEqual([id]);

    const disabled = await browser.post(`${page}/${id}/disable`);
    expect([disabled.status, disabled.location]).toEqual([303, page]);
    expect((await browser.get(page)).html).toContain(`${page}/${id}/enable`);
    expect((await browser.post(`${page}/${id}/enable`)).location).toBe(page);
    expect((await browser.post(`${page}/${id}/rotate_secret`)).location).toBe(page);
    expect((await browser.get(page)).html).toContain("whsec_");

    // A project's event reaches it, and is replayed from the page.
    const project = await api("POST", `/api/orgs/${slug}/projects`, member.token, {
      name: "Paged",
      status: "active",
    });
    expect(project.status).toBe(201);
    await server.deliverWebhooks();
    await expect.poll(() => deliveriesTo("/org-page-hook").length).toBe(1);
    const withAttempt = await browser.get(page);
    expect(withAttempt.html).toContain("project.created");
    const message = new RegExp(`${page}/messages/(msg_[^/]+)/replay`).exec(withAttempt.html)![1]!;
    const replayed = await browser.post(`${page}/messages/${message}/replay`);
    expect([replayed.status, replayed.location]).toEqual([303, page]);
    expect(pageText((await browser.get(page)).html)).toContain("The message is sent again.");

    const removed = await browser.post(`${page}/${id}/delete`);
    expect([removed.status, removed.location]).toEqual([303, page]);
    expect(await server.query("SELECT id FROM webhook_endpoints WHERE id = ?", id)).toEqual([]);
  });

  it("is a 403 page naming the permission to a viewer, the 404 page to a stranger, and finds no other owner's endpoint", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["admin", "viewer"]);
    const [admin, viewer] = [members[0]!, members[1]!];
    const page = `/orgs/${slug}/webhooks`;
    const origin = new URL(receiver.url).origin;
    const own = await api("POST", `/api/orgs/${slug}/webhook_endpoints`, owner.token, {
      url: `${origin}/kept`,
    });
    expect(own.status).toBe(201);
    const count = async () =>
      Number(
        (
          await server.query<{ count: number }>(
            "SELECT COUNT(*) AS count FROM webhook_endpoints WHERE owner_id = ?",
            -(await organizationId(slug)),
          )
        )[0]!.count,
      );

    // A viewer sees no link, and a page that says which permission it needs, with their header.
    const asViewer = await signedIn(viewer);
    expect((await asViewer.get(`/orgs/${slug}`)).html).not.toContain(page);
    const refused = await asViewer.get(page);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
    expect(pageText(refused.html)).toContain("You need the webhooks:manage permission.");
    expect(pageText(refused.html)).toContain(viewer.email);
    expect(refused.html).not.toContain(`${origin}/kept`);
    const french = await asViewer.request("GET", page, undefined, { "accept-language": "fr" });
    expect(french.status).toBe(403);
    expect(pageText(french.html)).toContain("Il vous faut la permission webhooks:manage.");
    const write = await asViewer.post(page, { url: `${origin}/viewer` });
    expect(write.status).toBe(403);
    expect((await asViewer.post(`${page}/${own.body.id}/delete`)).status).toBe(403);
    expect(await count()).toBe(1);

    // A stranger, and an organization that does not exist: the same 404 page.
    const stranger = await signedIn(await people.confirmedUser("stranger"));
    for (const path of [page, "/orgs/no-such-org/webhooks"]) {
      const hidden = await stranger.get(path);
      expect([path, hidden.status]).toEqual([path, 404]);
      expect(hidden.headers.get("content-type")).toMatch(/^text\/html/);
      expect(pageText(hidden.html)).toContain("Not found");
    }
    expect((await stranger.post(`${page}/${own.body.id}/delete`)).status).toBe(404);
    expect(await count()).toBe(1);

    // Another organization's endpoint, and a member's own, are not this organization's: 404.
    const other = await people.organizationWith(owner, []);
    const elsewhere = await api("POST", `/api/orgs/${other.slug}/webhook_endpoints`, owner.token, {
      url: `${origin}/elsewhere`,
    });
    const personal = await api("POST", "/api/webhook_endpoints", admin.token, {
      url: `${origin}/personal`,
    });
    const asAdmin = await signedIn(admin);
    for (const foreign of [elsewhere.body.id as string, personal.body.id as string]) {
      const answer = await asAdmin.post(`${page}/${foreign}/delete`);
      expect([foreign, answer.status]).toEqual([foreign, 404]);
      expect(pageText(answer.html)).toContain("That endpoint does not exist.");
      const kept = await server.query("SELECT id FROM webhook_endpoints WHERE id = ?", foreign);
      expect(kept).toHaveLength(1);
    }
    expect((await asAdmin.post(`${page}/${elsewhere.body.id}/disable`)).status).toBe(404);
    const stillEnabled = await api(
      "GET",
      `/api/orgs/${other.slug}/webhook_endpoints/${elsewhere.body.id}`,
      owner.token,
    );
    expect(stillEnabled.body.enabled).toBe(true);
  });

  it("sends a visitor to sign in", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug } = await people.organizationWith(owner, []);
    const visitor = new Browser(server.url);
    const answer = await visitor.get(`/orgs/${slug}/webhooks`);
    expect([answer.status, answer.location]).toEqual([303, "/login"]);
  });
});
