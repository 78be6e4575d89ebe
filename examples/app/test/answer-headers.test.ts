// Every kind of answer carries the security headers, whether it was made with them (the JSON
// and redirect helpers, the static files) or had them added by the middleware (pages, Hono's
// own answers), and HSTS when the browser came over HTTPS: a helper that skipped the middleware
// must not lose one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerTokenFor } from "./support/json-api.js";
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

describe("a translated JSON answer", () => {
  // The language headers are added after the route answered, to an answer made with the
  // security headers in its init: the server must send both.
  it("carries Content-Language, Vary and every security header over HTTP", async () => {
    const token = await bearerTokenFor(server.url, "translated@example.com", {
      client: "192.0.2.33",
    });
    const authorization = { authorization: `Bearer ${token}` };
    const requests = [
      { path: "/api/auth/me", init: { headers: authorization } },
      {
        path: "/api/notes",
        init: {
          method: "POST",
          headers: { ...authorization, ...JSON_TYPE },
          body: JSON.stringify({ title: "Bonjour", body: "Le monde" }),
        },
      },
    ];
    for (const { path, init } of requests) {
      for (const [language, tag] of [
        ["fr-CA,fr;q=0.9", "fr"],
        ["en-US", "en"],
      ] as const) {
        const response = await fetch(`${server.url}${path}`, {
          ...init,
          headers: { ...init.headers, "accept-language": language },
        });
        await response.arrayBuffer();
        expect({
          path,
          status: response.ok,
          type: response.headers.get("content-type"),
          language: response.headers.get("content-language"),
          vary: response.headers.get("vary"),
          nosniff: response.headers.get("x-content-type-options"),
          frames: response.headers.get("x-frame-options"),
          referrer: response.headers.get("referrer-policy"),
        }).toEqual({
          path,
          status: true,
          type: "application/json",
          language: tag,
          vary: "Accept-Language",
          nosniff: "nosniff",
          frames: "SAMEORIGIN",
          referrer: "strict-origin-when-cross-origin",
        });
      }
    }
  });
});
