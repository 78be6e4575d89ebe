import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import {
  escapeHtml,
  htmlPage,
  jsonAnswer,
  localeNegotiation,
  type Route,
  type RouteContext,
  withMiddleware,
} from "@tessera/http";
import {
  createSessionCookies,
  type HtmlRouteContext,
  type MaybeSessionContext,
  pageSafety,
  type Session,
} from "@tessera/session";
import { cookieSession, type SessionEnv } from "@tessera/session/hono";
import { type Env, Hono } from "hono";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  clientAddress,
  crossSiteProtection,
  cspNonce,
  hostCheck,
  type MountedRouteContext,
  mount,
  securityHeaders,
  type TesseraEnv,
} from "../src/index.js";

const sessions = createSessionCookies({
  appName: "tessera",
  secrets: { current: "a test secret key base that is long enough to use" },
});

/** Routes that show what the context held, and one that signs user 7 in. */
const routes: Route<MaybeSessionContext>[] = [
  {
    method: "GET",
    path: "/things/:id",
    handle: async (_request, context) =>
      Response.json({
        route: "one",
        params: context.params,
        clientAddress: context.clientAddress,
        sessionFromMiddleware: context.session !== undefined,
      }),
  },
  {
    method: "GET",
    path: "/things/new",
    handle: async () => Response.json({ route: "new" }),
  },
  {
    method: "POST",
    path: "/sign-in",
    handle: async (_request, context) => {
      context.session?.signIn(7);
      return new Response("signed in");
    },
  },
];

const servers: ReturnType<typeof serve>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function served<E extends Env>(app: Hono<E>): Promise<string> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () =>
      resolve(started),
    );
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function fullApp(trustProxy = 0) {
  const app = new Hono<TesseraEnv & SessionEnv>();
  app.use(securityHeaders());
  app.use(crossSiteProtection({ allowedOrigins: ["https://partner.example"] }));
  app.use(clientAddress({ getConnInfo, trustProxy }));
  app.use(cookieSession(sessions));
  return mount(app, routes);
}

describe("mount", () => {
  it("registers static paths before parameter paths, whatever the list's order", async () => {
    const app = mount(new Hono(), routes);
    expect(await (await app.request("/things/new")).json()).toEqual({ route: "new" });
    expect(await (await app.request("/things/caf%C3%A9")).json()).toMatchObject({
      route: "one",
      params: { id: "café" },
      clientAddress: "unknown",
      sessionFromMiddleware: false,
    });
  });
});

describe("mount's route context", () => {
  it("holds the session of the type the app's environment declares, and none without one", () => {
    expectTypeOf<MountedRouteContext<TesseraEnv & SessionEnv>["session"]>().toEqualTypeOf<
      Session | undefined
    >();
    expectTypeOf<MountedRouteContext<TesseraEnv>>().not.toHaveProperty("session");
    expectTypeOf<MountedRouteContext<{ Variables: { session: { id: string } } }>>().toHaveProperty(
      "session",
    );
    // A route wanting a session of another type than the app's is refused where it is mounted.
    const otherSession: Route<RouteContext & { readonly session?: { id: string } | undefined }> = {
      method: "GET",
      path: "/other",
      handle: async (_request, context) => new Response(context.session?.id ?? "none"),
    };
    // @ts-expect-error: the app's `session` variable is a Session of @tessera/session.
    mount(new Hono<TesseraEnv & SessionEnv>(), [otherSession]);
    expect(mount(new Hono<{ Variables: { session: { id: string } } }>(), [])).toBeInstanceOf(Hono);
  });
});

describe("clientAddress", () => {
  it("takes the socket address from the runtime's getConnInfo", async () => {
    const app = new Hono<TesseraEnv>();
    app.use(clientAddress({ getConnInfo: () => ({ remote: { address: "192.0.2.55" } }) }));
    mount(app, routes);
    expect((await (await app.request("/things/1")).json()).clientAddress).toBe("192.0.2.55");
  });

  it("answers unknown when the runtime's getConnInfo cannot read a request made in process", async () => {
    const app = new Hono<TesseraEnv>();
    app.use(clientAddress({ getConnInfo }));
    mount(app, routes);
    expect((await (await app.request("/things/1")).json()).clientAddress).toBe("unknown");
  });
});

describe("the middleware on @hono/node-server", () => {
  it("gives routes the socket address, the session, and security headers", async () => {
    const base = await served(fullApp());
    const response = await fetch(`${base}/things/1`);
    expect(await response.json()).toMatchObject({
      clientAddress: "127.0.0.1",
      sessionFromMiddleware: true,
    });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("takes TRUST_PROXY hops from the right of X-Forwarded-For", async () => {
    const base = await served(fullApp(1));
    const response = await fetch(`${base}/things/1`, {
      headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" },
    });
    expect((await response.json()).clientAddress).toBe("203.0.113.9");
  });

  it("commits a changed session once: one Set-Cookie that signs the browser in", async () => {
    const base = await served(fullApp());
    const response = await fetch(`${base}/sign-in`, { method: "POST" });
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    const session = await sessions.read(
      new Request(base, { headers: { cookie: cookies[0]!.split(";")[0]! } }),
    );
    expect(session.userId).toBe(7);
  });

  it("refuses a cross-site POST with 403 and lets an allowed origin through with CORS", async () => {
    const base = await served(fullApp());
    const forged = await fetch(`${base}/sign-in`, {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie()).toEqual([]);
    const partner = await fetch(`${base}/sign-in`, {
      method: "POST",
      headers: { origin: "https://partner.example" },
    });
    expect(partner.status).toBe(200);
    expect(partner.headers.get("access-control-allow-origin")).toBe("https://partner.example");
  });
});

describe("crossSiteProtection without allowed origins", () => {
  function guardedApp() {
    const app = new Hono<TesseraEnv>();
    app.use(crossSiteProtection());
    app.post("/things", (c) => c.json({ made: true }, 201));
    app.get("/broken", () => {
      throw new Error("the route failed");
    });
    app.onError((error, c) => c.json({ caught: error.message }, 500));
    return app;
  }

  it("refuses a cross-site POST and lets a same-site one through, with no CORS headers", async () => {
    const app = guardedApp();
    const forged = await app.request("/things", {
      method: "POST",
      headers: { host: "app.example", origin: "https://evil.example" },
    });
    expect(forged.status).toBe(403);
    expect((await forged.json()).error.code).toBe("cross_site_request");
    const sameSite = await app.request("/things", {
      method: "POST",
      headers: { host: "app.example", origin: "https://app.example" },
    });
    expect(sameSite.status).toBe(201);
    expect(await sameSite.json()).toEqual({ made: true });
    expect(sameSite.headers.get("access-control-allow-origin")).toBeNull();
    expect(sameSite.headers.get("vary")).toBeNull();
  });

  it("answers no preflight and lets an error of the route reach onError", async () => {
    const app = guardedApp();
    const preflight = await app.request("/things", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const broken = await app.request("/broken");
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ caught: "the route failed" });
  });
});

/** An HTML route group as packages hand them out: a page whose script carries its nonce. */
const pageRoutes = withMiddleware(
  [
    {
      method: "GET",
      path: "/page",
      handle: async (_request, context: HtmlRouteContext) =>
        htmlPage(200, `<script nonce="${escapeHtml(context.cspNonce)}">ran = true</script>`),
    },
  ],
  pageSafety({ sessions }),
);

function policyNonce(response: Response): string | undefined {
  return /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
}

describe("translated JSON answers on @hono/node-server", () => {
  it("carry Content-Language, Vary and every security header, made in their init", async () => {
    const translated = withMiddleware(
      [{ method: "GET", path: "/greeting", handle: async () => jsonAnswer({ hello: "monde" }) }],
      localeNegotiation({ catalogs: { fr: {} } }),
    );
    const app = new Hono<TesseraEnv>();
    app.use(securityHeaders());
    app.use(crossSiteProtection());
    app.use(clientAddress({ getConnInfo }));
    const base = await served(mount(app, translated));
    for (const [language, tag] of [
      ["fr-CA,fr;q=0.9", "fr"],
      ["de", "en"],
    ] as const) {
      const response = await fetch(`${base}/greeting`, {
        headers: { "accept-language": language },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ hello: "monde" });
      expect(response.headers.get("content-language")).toBe(tag);
      expect(response.headers.get("vary")).toBe("Accept-Language");
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    }
  });
});

describe("page headers on Hono", () => {
  it("come with an HTML route group mounted without any middleware", async () => {
    const base = await served(mount(new Hono<TesseraEnv>(), pageRoutes));
    const page = await fetch(`${base}/page`);
    const nonce = policyNonce(page);
    expect(await page.text()).toBe(`<script nonce="${nonce}">ran = true</script>`);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(page.headers.get("permissions-policy")).toContain("camera=()");
    expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });

  it("stay the route group's under securityHeaders, which adds HSTS over HTTPS", async () => {
    const app = new Hono<TesseraEnv>();
    app.use(securityHeaders({ https: () => true, pages: { headers: { "X-Frame-Options": "X" } } }));
    const page = await mount(app, pageRoutes).request("https://app.example/page");
    expect(await page.text()).toContain(`nonce="${policyNonce(page)}"`);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("go on the app's own pages with securityHeaders, with the nonce of cspNonce(c)", async () => {
    const app = new Hono<TesseraEnv>();
    app.use(securityHeaders({ pages: { extendPolicy: { "img-src": ["https://cdn.example"] } } }));
    app.get("/own", (c) => c.html(`<script nonce="${cspNonce(c)}"></script>${cspNonce(c)}`));
    app.get("/plain", (c) => c.html("<p>no script</p>"));
    app.get("/json", (c) => c.json({ ok: true }));
    const own = await app.request("/own");
    const nonce = policyNonce(own);
    expect(await own.text()).toBe(`<script nonce="${nonce}"></script>${nonce}`);
    expect(own.headers.get("content-security-policy")).toMatch(
      /img-src [^;]*https:\/\/cdn\.example/,
    );
    expect(own.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    const plain = await app.request("/plain");
    expect(policyNonce(plain)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(policyNonce(plain)).not.toBe(nonce);
    const json = await app.request("/json");
    expect(json.headers.has("content-security-policy")).toBe(false);
    expect(json.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });
});

describe("hostCheck", () => {
  function checkedApp() {
    const app = new Hono<TesseraEnv>();
    app.use(securityHeaders());
    app.use(hostCheck({ allowedHosts: ["app.example", "[::1]"] }));
    let ran = 0;
    app.get("/things", (c) => {
      ran += 1;
      return c.text("ran");
    });
    return { app, ran: () => ran };
  }

  it("lets a listed host through, with any port and in any case", async () => {
    const { app, ran } = checkedApp();
    for (const host of ["app.example", "APP.example:8443", "[::1]:3000"]) {
      const response = await app.request("/things", { headers: { host } });
      expect([host, response.status]).toEqual([host, 200]);
    }
    expect(ran()).toBe(3);
  });

  it("refuses an unknown or missing host with the 400 envelope before the route runs", async () => {
    const { app, ran } = checkedApp();
    const unknown = await app.request("/things", { headers: { host: "evil.example" } });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      error: {
        code: "unknown_host",
        message: "Unknown host: add it to ALLOWED_HOSTS to serve it.",
        status: 400,
      },
    });
    expect(unknown.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await app.request("/things")).status).toBe(400);
    expect(ran()).toBe(0);
  });

  it("reads the Host a real server received", async () => {
    const app = new Hono<TesseraEnv>();
    app.use(hostCheck({ allowedHosts: ["127.0.0.1"] }));
    app.get("/things", (c) => c.text("ran"));
    const base = await served(app);
    expect((await fetch(`${base}/things`)).status).toBe(200);
    const { port } = new URL(base);
    const forged = await new Promise<number | undefined>((resolve, reject) => {
      const sent = httpRequest(
        { host: "127.0.0.1", port, path: "/things", headers: { host: "evil.example" } },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      sent.on("error", reject);
      sent.end();
    });
    expect(forged).toBe(400);
  });
});
