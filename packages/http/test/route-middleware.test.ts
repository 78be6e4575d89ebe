import { describe, expect, it } from "vitest";
import {
  type Authenticate,
  attemptRateLimit,
  authenticated,
  bodyLimit,
  composeMiddleware,
  crossSiteCheck,
  type Route,
  type RouteContext,
  type RouteMiddleware,
  rateLimit,
  routeRequests,
  routeSecurityHeaders,
  withMiddleware,
} from "../src/index.js";

const context: RouteContext = { params: {}, clientAddress: "192.0.2.1" };

/** A middleware that writes its name into a trace before and after the handler it wraps. */
function traced(name: string, trace: string[]): RouteMiddleware {
  return (next) => async (request, routeContext) => {
    trace.push(`${name} in`);
    const response = await next(request, routeContext);
    trace.push(`${name} out`);
    return response;
  };
}

describe("withMiddleware", () => {
  it("runs the first middleware outermost and keeps each route's method and path", async () => {
    const trace: string[] = [];
    const routes: Route[] = [
      {
        method: "POST",
        path: "/notes",
        handle: async () => {
          trace.push("handler");
          return new Response("ok");
        },
      },
    ];
    const [wrapped] = withMiddleware(routes, traced("a", trace), traced("b", trace));
    expect(wrapped).toMatchObject({ method: "POST", path: "/notes" });
    const response = await wrapped!.handle(new Request("http://app.test/notes"), context);
    expect(await response.text()).toBe("ok");
    expect(trace).toEqual(["a in", "b in", "handler", "b out", "a out"]);
  });

  it("applies each middleware once per route, when the routes are built, with the route", () => {
    const seen: string[] = [];
    const recording: RouteMiddleware = (next, route) => {
      seen.push(`${route.method} ${route.path}`);
      return next;
    };
    const handle = async () => new Response("ok");
    withMiddleware(
      [
        { method: "GET", path: "/a", handle },
        { method: "DELETE", path: "/a/:id", handle },
      ],
      recording,
    );
    expect(seen).toEqual(["GET /a", "DELETE /a/:id"]);
  });

  it("types the context each handler gets from the middleware before it", async () => {
    const withUser: RouteMiddleware<RouteContext, RouteContext & { user: string }> =
      (next) => (request, routeContext) =>
        next(request, { ...routeContext, user: "ada" });
    const needsUser: Route<RouteContext & { user: string }> = {
      method: "GET",
      path: "/me",
      handle: async (_request, { user }) => new Response(user),
    };
    const [me] = withMiddleware([needsUser], crossSiteCheck(), withUser);
    expect(await (await me!.handle(new Request("http://app.test/me"), context)).text()).toBe("ada");
    const mountable: Route[] = withMiddleware([needsUser], crossSiteCheck(), withUser);
    expect(mountable).toHaveLength(1);
    // @ts-expect-error: a handler that reads context.user needs a middleware that adds it
    const unmountable: Route[] = withMiddleware([needsUser], crossSiteCheck());
    expect(unmountable).toHaveLength(1);
  });

  it("composes middleware into one, in the same order", async () => {
    const trace: string[] = [];
    const both = composeMiddleware(traced("a", trace), traced("b", trace));
    const [route] = withMiddleware(
      [{ method: "GET", path: "/", handle: async () => new Response("ok") }],
      both,
    );
    await route!.handle(new Request("http://app.test/"), context);
    expect(trace).toEqual(["a in", "b in", "b out", "a out"]);
  });
});

describe("crossSiteCheck", () => {
  const [page] = withMiddleware(
    [{ method: "GET", path: "/live", handle: async () => new Response("ok") }],
    crossSiteCheck(),
  );
  const open = (headers: Record<string, string>) =>
    page!.handle(new Request("https://app.test/live", { headers }), context);
  const upgrade = { upgrade: "websocket", connection: "Upgrade" };

  it("refuses a cross-site WebSocket upgrade of a GET route with the cross-site 403", async () => {
    for (const headers of [
      { ...upgrade, "sec-fetch-site": "cross-site" },
      { ...upgrade, origin: "https://evil.test", host: "app.test" },
    ]) {
      const refused = await open(headers);
      expect([
        refused.status,
        ((await refused.json()) as { error: { code: string } }).error.code,
      ]).toEqual([403, "cross_site_request"]);
    }
  });

  it("passes a same-origin upgrade, and any GET that is not an upgrade", async () => {
    for (const headers of [
      { ...upgrade, "sec-fetch-site": "same-origin" },
      { ...upgrade, origin: "https://app.test", host: "app.test" },
      { "sec-fetch-site": "cross-site" },
      { origin: "https://evil.test", host: "app.test" },
    ]) {
      expect(await (await open(headers)).text()).toBe("ok");
    }
  });
});

describe("authenticated", () => {
  const authenticate: Authenticate<{ user: { id: number } }> = async (request) =>
    request.headers.get("authorization") === "Bearer good"
      ? { ok: true, value: { user: { id: 7 } } }
      : { ok: false, response: new Response("refused", { status: 401 }) };
  let ran = 0;
  const [me] = withMiddleware(
    [
      {
        method: "GET",
        path: "/me",
        handle: async (_request, { user }: RouteContext & { user: { id: number } }) => {
          ran += 1;
          return Response.json(user);
        },
      },
    ],
    authenticated(authenticate),
  );

  it("answers the refusal itself, before the handler runs", async () => {
    ran = 0;
    const response = await me!.handle(new Request("http://app.test/me"), context);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("refused");
    expect(ran).toBe(0);
  });

  it("puts who the request acts for into the handler's context", async () => {
    const request = new Request("http://app.test/me", {
      headers: { authorization: "Bearer good" },
    });
    expect(await (await me!.handle(request, context)).json()).toEqual({ id: 7 });
  });
});

describe("rateLimit", () => {
  /** Allows `limit` attempts per group and key, and remembers every attempt. */
  function countingLimiter(limit: number) {
    const attempts: string[] = [];
    return {
      attempts,
      async attempt(group: string, key: string) {
        attempts.push(`${group} ${key}`);
        const count = attempts.filter((each) => each === `${group} ${key}`).length;
        return { allowed: count <= limit, retryAfterSeconds: 42 };
      },
    };
  }

  it("counts the client address and answers the JSON 429 with Retry-After over the limit", async () => {
    const limiter = countingLimiter(1);
    let ran = 0;
    const [route] = withMiddleware(
      [{ method: "POST", path: "/login", handle: async () => new Response(`ran ${++ran}`) }],
      rateLimit({ limiter, group: "login" }),
    );
    const request = () => new Request("http://app.test/login", { method: "POST" });
    expect((await route!.handle(request(), context)).status).toBe(200);
    const refused = await route!.handle(request(), context);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("42");
    expect((await refused.json()).error.code).toBe("rate_limited");
    expect(ran).toBe(1);
    expect(limiter.attempts).toEqual(["login 192.0.2.1", "login 192.0.2.1"]);
  });

  it("counts no key after a refused one", async () => {
    const limiter = countingLimiter(1);
    await attemptRateLimit(limiter, "mail", ["ip", "email:a"]);
    expect(await attemptRateLimit(limiter, "mail", ["ip", "email:a"])).toBe(42);
    expect(limiter.attempts).toEqual(["mail ip", "mail email:a", "mail ip"]);
    expect(await attemptRateLimit(limiter, "mail", ["other", "email:b"])).toBeUndefined();
  });

  it("counts the key it is given and answers with the refusal it is given", async () => {
    const limiter = countingLimiter(0);
    const [route] = withMiddleware(
      [{ method: "POST", path: "/", handle: async () => new Response("ran") }],
      rateLimit({
        limiter,
        group: "mail",
        key: () => "email:a@example.com",
        refusal: (_request, _context, seconds) => new Response(`page ${seconds}`, { status: 429 }),
      }),
    );
    const refused = await route!.handle(
      new Request("http://app.test/", { method: "POST" }),
      context,
    );
    expect(await refused.text()).toBe("page 42");
    expect(limiter.attempts).toEqual(["mail email:a@example.com"]);
  });
});

describe("bodyLimit", () => {
  let ran = 0;
  const routes: Route[] = [
    {
      method: "POST",
      path: "/upload",
      handle: async () => new Response(`ran ${++ran}`),
    },
    { method: "GET", path: "/upload", handle: async () => new Response("form") },
  ];
  const handle = routeRequests(
    withMiddleware(
      routes,
      bodyLimit({
        maximumBytes: 4,
        refusal: (_request, _context, maximumBytes) =>
          new Response(`over ${maximumBytes}`, { status: 413 }),
      }),
    ),
  );

  it("refuses a declared Content-Length over the limit with the route's answer, unread", async () => {
    ran = 0;
    const response = await handle(
      new Request("http://app.test/upload", {
        method: "POST",
        body: "12345",
        headers: { "content-length": "5" },
      }),
    );
    expect(response?.status).toBe(413);
    expect(await response?.text()).toBe("over 4");
    expect(ran).toBe(0);
  });

  it("lets a body at the limit through, and leaves GET routes as they are", async () => {
    ran = 0;
    const response = await handle(
      new Request("http://app.test/upload", { method: "POST", body: "1234" }),
    );
    expect(await response?.text()).toBe("ran 1");
    const check = bodyLimit({ maximumBytes: 1, refusal: () => new Response("no") });
    const get = async () => new Response("form");
    expect(check(get, { method: "GET", path: "/" })).toBe(get);
  });
});

describe("routeSecurityHeaders", () => {
  it("adds the security headers, and HSTS on HTTPS, leaving the handler's own", async () => {
    const [route] = withMiddleware(
      [
        {
          method: "GET",
          path: "/",
          handle: async () => new Response("ok", { headers: { "Referrer-Policy": "no-referrer" } }),
        },
      ],
      routeSecurityHeaders(),
    );
    const secure = await route!.handle(new Request("https://app.test/"), context);
    expect(secure.headers.get("x-content-type-options")).toBe("nosniff");
    expect(secure.headers.get("referrer-policy")).toBe("no-referrer");
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000");
    const plain = await route!.handle(new Request("http://app.test/"), context);
    expect(plain.headers.has("strict-transport-security")).toBe(false);
  });
});
