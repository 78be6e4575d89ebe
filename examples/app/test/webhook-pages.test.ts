// The HTML page /account/webhooks: add (secret shown once), the 24-hour chart and attempts,
// disable, rotate, replay, remove; another user's endpoint a 404; the CSP nonce and French.
import { awaitWindowRoom } from "@tessera/ratelimit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1" });
});
afterAll(() => server.stop());

async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser(server.url);
  const answer = await browser.post("/signup", { email, password: "correct horse battery" });
  expect(answer.status).toBe(303);
  return browser;
}

describe("the webhooks page", () => {
  it("adds, lists, disables, rotates and removes an endpoint", async () => {
    const browser = await signedIn("pages@example.com");
    const empty = await browser.get("/account/webhooks");
    expect(empty.status).toBe(200);
    expect(empty.html).toContain("No endpoints yet.");
    expect(empty.headers.get("content-security-policy")).toMatch(/nonce-/);

    const refused = await browser.post("/account/webhooks", { url: "http://10.0.0.1/" });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("url: is not allowed");

    const added = await browser.post("/account/webhooks", {
      url: "http://127.0.0.1:9/hook",
      description: "Local",
    });
    expect(added).toMatchObject({ status: 303, location: "/account/webhooks" });
    const listed = await browser.get("/account/webhooks");
    expect(listed.html).toMatch(/signing secret, shown only this once: whsec_/);
    expect(listed.headers.get("cache-control")).toBe("no-store");
    expect(listed.html).toContain("http://127.0.0.1:9/hook");
    expect(listed.html).toContain("<svg");
    expect(listed.html).toContain("No attempts in the last 24 hours");
    const id = /\/account\/webhooks\/(ep_[^/]+)\/disable/.exec(listed.html)![1]!;
    // Shown once: the next view has no secret.
    expect((await browser.get("/account/webhooks")).html).not.toContain("whsec_");

    expect((await browser.post(`/account/webhooks/${id}/disable`)).status).toBe(303);
    expect((await browser.get("/account/webhooks")).html).toContain(
      `/account/webhooks/${id}/enable`,
    );
    expect((await browser.post(`/account/webhooks/${id}/rotate_secret`)).status).toBe(303);
    expect((await browser.get("/account/webhooks")).html).toContain("whsec_");

    const other = await signedIn("intruder@example.com");
    expect((await other.post(`/account/webhooks/${id}/delete`)).status).toBe(404);
    expect((await browser.post(`/account/webhooks/${id}/delete`)).status).toBe(303);
    expect((await browser.get("/account/webhooks")).html).toContain("The endpoint is removed.");
  });

  it("shows attempts with their answer and a success rate, in French too", async () => {
    const browser = await signedIn("attempts@example.com");
    // Port 9 (discard) on 127.0.0.1 refuses: a failed attempt with its reason.
    await browser.post("/account/webhooks", { url: "http://127.0.0.1:9/hook" });
    await browser.get("/account/webhooks");
    await browser.post("/notes", { title: "Hello" });
    await server.deliverWebhooks();
    const page = await browser.get("/account/webhooks");
    expect(page.html).toMatch(/0 % of \d+ attempts succeeded in the last 24 hours/);
    expect(page.html).toContain("note.created");
    expect(page.html).toContain("/replay");
    const message = /\/account\/webhooks\/messages\/(msg_[^/]+)\/replay/.exec(page.html)![1]!;
    // The counter's windows start on the clock's minute: all 11 replays go in one.
    await awaitWindowRoom(10_000);
    const replayed = await browser.post(`/account/webhooks/messages/${message}/replay`);
    expect(replayed.status).toBe(303);
    // The failed first attempt waits for its retry: the replay adds nothing, and says so.
    expect((await browser.get("/account/webhooks")).html).toContain(
      "A delivery of this message is still waiting to be made: it is not sent a second time.",
    );
    const deliveries = await server.query<{ count: number }>(
      "SELECT COUNT(*) AS count FROM outbox_items WHERE idempotency_key LIKE ?",
      `${message}.%`,
    );
    expect(Number(deliveries[0]!.count)).toBe(1);
    for (let replay = 2; replay <= 10; replay++) {
      expect((await browser.post(`/account/webhooks/messages/${message}/replay`)).status).toBe(303);
    }
    const limited = await browser.post(`/account/webhooks/messages/${message}/replay`);
    expect(limited.status).toBe(429);
    expect(limited.html).toContain("Too many requests. Try again later.");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const french = await browser.request("GET", "/account/webhooks", undefined, {
      "accept-language": "fr",
    });
    expect(french.html).toContain("Tentatives récentes");
  });

  it("refuses a 21st endpoint with a 409 page that keeps the form and says why", async () => {
    const browser = await signedIn("limit@example.com");
    for (let n = 1; n <= 20; n++) {
      const added = await browser.post("/account/webhooks", { url: `http://127.0.0.1:9/${n}` });
      expect(added.status).toBe(303);
    }
    const refused = await browser.post("/account/webhooks", {
      url: "http://127.0.0.1:9/21",
      description: "One too many",
    });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain(
      "You have 20 webhook endpoints, the most allowed: remove one to add another.",
    );
    expect(refused.html).toContain('value="One too many"');
    expect(refused.html).not.toContain("http://127.0.0.1:9/21</");
  });

  it("refuses a cross-site post and sends a visitor to sign in", async () => {
    const visitor = new Browser(server.url);
    const answer = await visitor.get("/account/webhooks");
    expect(answer.status).toBe(303);
    const browser = await signedIn("csrf@example.com");
    const forged = await browser.request(
      "POST",
      "/account/webhooks",
      "url=https%3A%2F%2Fevil.example%2F",
      {
        "sec-fetch-site": "cross-site",
      },
    );
    expect(forged.status).toBe(403);
  });
});
