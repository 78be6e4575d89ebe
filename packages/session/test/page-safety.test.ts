// An HTML route group answers with its own security headers when it is served by nothing but a
// bare fetch handler: no framework, no middleware.
import { escapeHtml, htmlPage, routeRequests, withMiddleware } from "@tessera/http";
import { describe, expect, it } from "vitest";
import { type HtmlRouteContext, pageSafety } from "../src/index.js";
import { browserRequest, testSessions } from "./fixtures.js";

/** A page whose one script carries the nonce its handler got, and a form post that redirects. */
const routes = [
  {
    method: "GET" as const,
    path: "/page",
    handle: async (_request: Request, context: HtmlRouteContext) =>
      htmlPage(
        200,
        `<!doctype html><script nonce="${escapeHtml(context.cspNonce)}">ran = true</script>`,
      ),
  },
  {
    method: "POST" as const,
    path: "/save",
    handle: async (_request: Request, context: HtmlRouteContext) => {
      context.session.flash("notice", "Saved.");
      return new Response(null, { status: 303, headers: { Location: "/page" } });
    },
  },
];

function policyNonce(response: Response): string | undefined {
  return /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
}

describe("pageSafety in a bare fetch handler", () => {
  const { sessions } = testSessions();
  const handle = routeRequests(withMiddleware(routes, pageSafety({ sessions })));

  it("gives a page its policy, with the nonce its script carries, and the page headers", async () => {
    const page = (await handle(browserRequest("http://app.test/page")))!;
    const nonce = policyNonce(page);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.text()).toContain(`<script nonce="${nonce}">`);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(Object.fromEntries(page.headers)).toMatchObject({
      "permissions-policy": expect.stringContaining("microphone=()"),
      "cross-origin-opener-policy": "same-origin",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
    });
  });

  it("makes a fresh nonce for every answer", async () => {
    const nonces = new Set<string | undefined>();
    for (let i = 0; i < 5; i++) {
      nonces.add(policyNonce((await handle(browserRequest("http://app.test/page")))!));
    }
    expect(nonces.size).toBe(5);
  });

  it("gives a redirect the three headers with the cookie kept, and a cross-site refusal a page", async () => {
    const saved = (await handle(
      browserRequest("http://app.test/save", undefined, {
        method: "POST",
        headers: { "sec-fetch-site": "same-origin" },
      }),
    ))!;
    expect(saved.status).toBe(303);
    expect(saved.headers.get("x-content-type-options")).toBe("nosniff");
    expect(saved.headers.getSetCookie()).toHaveLength(1);
    const refused = (await handle(
      browserRequest("http://app.test/save", undefined, {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site" },
      }),
    ))!;
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await refused.text()).toContain(
      "Cross-site request refused: add this origin to ALLOWED_ORIGINS to allow it.",
    );
    expect(refused.headers.get("x-frame-options")).toBe("DENY");
    expect(refused.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("takes the group's page header options", async () => {
    const extended = routeRequests(
      withMiddleware(
        routes,
        pageSafety({
          sessions,
          pageHeaders: {
            extendPolicy: { "img-src": ["https://images.example"] },
            headers: { "Permissions-Policy": "camera=(self)" },
          },
        }),
      ),
    );
    const page = (await extended(browserRequest("http://app.test/page")))!;
    expect(page.headers.get("content-security-policy")).toMatch(
      /img-src [^;]*https:\/\/images\.example/,
    );
    expect(page.headers.get("permissions-policy")).toBe("camera=(self)");
  });
});
