import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type TesseraHono = typeof import("@tessera/hono");
type HonoModule = typeof import("hono");
type Session = typeof import("@tessera/session");
type SessionHono = typeof import("@tessera/session/hono");
type Routes = import("@tessera/http").Route<import("@tessera/session").MaybeSessionContext>[];

const ORIGIN = "https://app.example";

export default {
  does: "mount routes on Hono with every middleware: params, client address, headers, cross-site, session",
  imports: () => ["@tessera/hono", "hono", "@tessera/session", "@tessera/session/hono"],
  async run({ load, check }) {
    const { clientAddress, crossSiteProtection, mount, securityHeaders } =
      await load<TesseraHono>("@tessera/hono");
    const { cookieSession } = await load<SessionHono>("@tessera/session/hono");
    const { Hono } = await load<HonoModule>("hono");
    const { createSessionCookies } = await load<Session>("@tessera/session");

    const sessions = createSessionCookies({
      appName: "tessera",
      secrets: { current: "a secret key base of at least thirty-two characters" },
    });
    const routes: Routes = [
      {
        method: "GET",
        path: "/things/:id",
        handle: async (_request, context) =>
          Response.json({
            params: context.params,
            clientAddress: context.clientAddress,
            session: context.session !== undefined,
          }),
      },
      { method: "GET", path: "/things/new", handle: async () => Response.json({ route: "new" }) },
      {
        method: "POST",
        path: "/sign-in",
        handle: async (_request, context) => {
          context.session?.signIn(7);
          return new Response("signed in");
        },
      },
    ];
    const app = new Hono<
      import("@tessera/hono").TesseraEnv & import("@tessera/session/hono").SessionEnv
    >();
    app.use(securityHeaders());
    app.use(crossSiteProtection({ allowedOrigins: ["https://partner.example"] }));
    // No socket in process: the address comes from the one trusted proxy hop.
    app.use(clientAddress({ getConnInfo: () => ({ remote: {} }), trustProxy: 1 }));
    app.use(cookieSession(sessions));
    mount(app, routes);

    const fixed = await app.fetch(new Request(`${ORIGIN}/things/new`));
    check(
      JSON.stringify(await fixed.json()) === '{"route":"new"}',
      "a static path wins over a parameter path",
    );
    const one = await app.fetch(
      new Request(`${ORIGIN}/things/caf%C3%A9`, {
        headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" },
      }),
    );
    const shown = (await one.json()) as {
      params: { id: string };
      clientAddress: string;
      session: boolean;
    };
    check(shown.params.id === "café", "the route gets its decoded path parameter");
    check(
      shown.clientAddress === "203.0.113.9",
      "the client address is one proxy hop from the right",
    );
    check(shown.session, "the route gets the middleware's session");
    check(
      one.headers.get("x-content-type-options") === "nosniff" &&
        one.headers.get("x-frame-options") === "SAMEORIGIN" &&
        one.headers.get("strict-transport-security") !== null,
      "answers carry the security headers, HSTS over https",
    );

    const forged = await app.fetch(
      new Request(`${ORIGIN}/sign-in`, {
        method: "POST",
        headers: { origin: "https://evil.example" },
      }),
    );
    check(
      forged.status === 403 && forged.headers.getSetCookie().length === 0,
      "a cross-site POST is refused without a cookie",
    );
    const partner = await app.fetch(
      new Request(`${ORIGIN}/sign-in`, {
        method: "POST",
        headers: { origin: "https://partner.example" },
      }),
    );
    check(
      partner.status === 200 &&
        partner.headers.get("access-control-allow-origin") === "https://partner.example",
      "an allowed origin passes with CORS headers",
    );
    const cookies = partner.headers.getSetCookie();
    check(cookies.length === 1, "the changed session is written once");
    const session = await sessions.read(
      new Request(ORIGIN, { headers: { cookie: cookies[0]?.split(";")[0] ?? "" } }),
    );
    check(session.userId === 7, "the cookie signs the browser in as the route's user");
  },
} satisfies RuntimeSmoke;
