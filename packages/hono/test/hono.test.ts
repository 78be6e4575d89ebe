import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Route } from "@tessera/http";
import { createSessionCookies, type MaybeSessionContext } from "@tessera/session";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import {
  clientAddress,
  cookieSession,
  crossSiteProtection,
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

async function served(app: Hono<TesseraEnv>): Promise<string> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () =>
      resolve(started),
    );
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function fullApp(trustProxy = 0) {
  const app = new Hono<TesseraEnv>();
  app.use(securityHeaders());
  app.use(crossSiteProtection({ allowedOrigins: ["https://partner.example"] }));
  app.use(clientAddress({ trustProxy }));
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
