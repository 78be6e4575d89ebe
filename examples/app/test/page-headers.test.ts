// Every HTML page of the example app carries its security headers over real HTTP: the app's own
// home page (the Hono middleware), the account pages and the record pages (their route groups),
// each with a fresh nonce that its scripts carry; JSON answers keep the three plain headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type BrowserResponse } from "./support/browser.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
});
afterAll(() => server.stop());

function policyNonce(response: BrowserResponse): string | undefined {
  return /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
}

function expectPageHeaders(response: BrowserResponse): void {
  const policy = response.headers.get("content-security-policy") ?? "";
  expect(policy).toMatch(/(^|; )script-src 'nonce-[A-Za-z0-9_-]{43}'(;|$)/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain("unsafe-inline");
  expect(response.headers.get("permissions-policy")).toContain("geolocation=()");
  expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("the example app's pages", () => {
  it("all carry the page headers: home, account forms and record pages", async () => {
    const browser = new Browser(server.url);
    for (const path of ["/", "/signup", "/login", "/magic_link", "/passwords/new"]) {
      const page = await browser.get(path);
      expect([path, page.status]).toEqual([path, 200]);
      expectPageHeaders(page);
      expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    }
    const signup = await browser.post("/signup", {
      email: `headers.${Date.now()}@example.com`,
      password: "correct horse battery",
    });
    expect(signup.status).toBe(303);
    expect(signup.headers.get("x-content-type-options")).toBe("nosniff");
    for (const path of ["/account", "/posts", "/posts/new", "/account/sessions"]) {
      const page = await browser.get(path);
      expect([path, page.status]).toEqual([path, 200]);
      expectPageHeaders(page);
    }
  });

  it("put the answer's nonce on every script, and on Trix's csp-nonce meta tag", async () => {
    const browser = new Browser(server.url);
    await browser.post("/signup", {
      email: `nonces.${Date.now()}@example.com`,
      password: "correct horse battery",
    });
    const first = await browser.get("/posts/new");
    const nonce = policyNonce(first);
    const scripts = [...first.html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts).toEqual([
      `<script src="/assets/trix.js" defer nonce="${nonce}">`,
      `<script src="/assets/rich-text.js" defer nonce="${nonce}">`,
    ]);
    expect(first.html).toContain(`<meta name="csp-nonce" nonce="${nonce}">`);
    const second = await browser.get("/posts/new");
    expect(policyNonce(second)).not.toBe(nonce);
    expect(second.html).toContain(`nonce="${policyNonce(second)}"`);
  });

  it("keep a token page's own Referrer-Policy", async () => {
    const page = await new Browser(server.url).get("/magic_link/some-token");
    expectPageHeaders(page);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("leave JSON answers with the three plain headers and no page policy", async () => {
    const health = await new Browser(server.url).get("/api/health");
    expect(health.headers.get("content-security-policy")).toBeNull();
    expect(health.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    expect(health.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });
});
