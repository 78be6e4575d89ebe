// Every kind of answer carries the security headers, whether it was made with them (the JSON
// and redirect helpers, the static files) or had them added by the middleware (pages, Hono's
// own answers), and HSTS when the browser came over HTTPS: a helper that skipped the middleware
// must not lose one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;

beforeAll(async () => {
  // Behind a trusted proxy, X-Forwarded-Proto says whether the browser used HTTPS.
  server = await startTestServer({ TRUST_PROXY: "1" });
});
afterAll(() => server.stop());

const JSON_TYPE = { "content-type": "application/json" };

/** One request of each kind of answer, and what it must be. */
const ANSWERS = [
  { kind: "static JSON", path: "/api/health", status: 200, page: false },
  { kind: "the OpenAPI document", path: "/api/openapi.json", status: 200, page: false },
  { kind: "a 404 envelope", path: "/api/no-such-route", status: 404, page: false },
  { kind: "a 401 envelope", path: "/api/auth/me", status: 401, page: false },
  {
    kind: "a 422 envelope",
    path: "/api/auth/signup",
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ email: "not an address", password: "x" }),
    status: 422,
    page: false,
  },
  {
    kind: "a 400 envelope",
    path: "/api/auth/token",
    method: "POST",
    headers: JSON_TYPE,
    body: "{not json",
    status: 400,
    page: false,
  },
  { kind: "a redirect", path: "/account", status: 303, page: false },
  { kind: "a stylesheet", path: "/assets/app.css", status: 200, page: false },
  { kind: "a script", path: "/assets/passkeys.js", status: 200, page: false },
  { kind: "the home page", path: "/", status: 200, page: true },
  { kind: "an account page", path: "/login", status: 200, page: true },
] as const;

describe("the security headers of every kind of answer", () => {
  for (const https of [false, true]) {
    it(`are all there over ${https ? "HTTPS (with HSTS)" : "HTTP"}`, async () => {
      for (const answer of ANSWERS) {
        const response = await fetch(`${server.url}${answer.path}`, {
          method: "method" in answer ? answer.method : "GET",
          headers: {
            ...("headers" in answer ? answer.headers : {}),
            ...(https ? { "x-forwarded-proto": "https" } : {}),
          },
          redirect: "manual",
          ...("body" in answer ? { body: answer.body } : {}),
        });
        await response.arrayBuffer();
        const seen = {
          kind: answer.kind,
          status: response.status,
          nosniff: response.headers.get("x-content-type-options"),
          frames: response.headers.get("x-frame-options"),
          referrer: response.headers.get("referrer-policy"),
          hsts: response.headers.get("strict-transport-security"),
          policy: response.headers.get("content-security-policy")?.includes("frame-ancestors"),
          permissions: response.headers.has("permissions-policy"),
        };
        expect(seen).toEqual({
          kind: answer.kind,
          status: answer.status,
          nosniff: "nosniff",
          frames: answer.page ? "DENY" : "SAMEORIGIN",
          referrer: "strict-origin-when-cross-origin",
          hsts: https ? "max-age=31536000" : null,
          policy: answer.page ? true : undefined,
          permissions: answer.page,
        });
      }
    });
  }
});
