import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { cookieSession, type SessionEnv } from "../src/hono.js";
import { requireUser, type Session, type SessionCookies } from "../src/index.js";
import { cookiePair, testSessions } from "./fixtures.js";

interface AppUser {
  readonly id: number;
  readonly email: string;
  readonly confirmedAt: string | null;
}

const users = new Map<number, AppUser>([
  [5, { id: 5, email: "ada@example.com", confirmedAt: null }],
]);
const loadUser = async (id: number) => users.get(id);

/** The README's wiring: read in a middleware, write back after the handler with `c.header`. */
function createApp(sessions: SessionCookies) {
  const app = new Hono<{ Variables: { session: Session } }>();
  app.use(async (c, next) => {
    const session = await sessions.read(c.req.raw);
    c.set("session", session);
    await next();
    const setCookie = await sessions.setCookie(session);
    if (setCookie) c.header("Set-Cookie", setCookie, { append: true });
  });
  app.get("/login", (c) => c.json(c.var.session.takeFlashes()));
  app.post("/login", async (c) => {
    const form = await c.req.parseBody();
    const session = c.var.session;
    const destination = session.takeRememberedPage() ?? "/";
    session.signIn(Number(form.user_id), { rememberMe: form.remember_me === "1" });
    session.flash("notice", "Signed in.");
    return c.redirect(destination, 303);
  });
  app.get("/posts", async (c) => {
    const access = await requireUser(c.var.session, c.req.raw, loadUser);
    if (!access.ok) return access.response;
    c.header("Set-Cookie", "theme=dark; Path=/", { append: true });
    return c.json({ email: access.value.email, flashes: c.var.session.takeFlashes() });
  });
  app.post("/logout", (c) => {
    c.var.session.signOut();
    return Response.redirect("http://app.test/", 303);
  });
  return app;
}

/** Just enough of a browser's cookie jar for one host and Path=/. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  receive(response: Response): void {
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = cookiePair(setCookie);
      const name = pair.slice(0, pair.indexOf("="));
      if (/; Max-Age=0(;|$)/.test(setCookie)) this.#cookies.delete(name);
      else this.#cookies.set(name, pair);
    }
  }

  get header(): string {
    return [...this.#cookies.values()].join("; ");
  }

  has(name: string): boolean {
    return this.#cookies.has(name);
  }
}

describe("in a Hono app", () => {
  it("protect, remember, sign in, return, read the flash, log out", async () => {
    const { sessions } = testSessions();
    const app = createApp(sessions);
    const jar = new CookieJar();
    const visit = async (path: string, init: RequestInit = {}) => {
      const response = await app.request(`http://app.test${path}`, {
        ...init,
        headers: { cookie: jar.header, ...init.headers },
      });
      jar.receive(response);
      return response;
    };

    const refused = await visit("/posts?page=2");
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/login");

    const loginPage = await visit("/login");
    expect(await loginPage.json()).toEqual([
      { kind: "alert", message: "Please log in to continue." },
    ]);

    const login = await visit("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "user_id=5&remember_me=1",
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/posts?page=2");
    expect(login.headers.getSetCookie()[0]).toMatch(/^_tessera_session=[\w-]+; Max-Age=1209600;/);

    const posts = await visit("/posts?page=2");
    expect(posts.status).toBe(200);
    expect(await posts.json()).toEqual({
      email: "ada@example.com",
      flashes: [{ kind: "notice", message: "Signed in." }],
    });
    // The handler's own cookie and the session's both reach the browser.
    expect(posts.headers.getSetCookie()).toHaveLength(2);
    expect(jar.has("theme")).toBe(true);

    const again = await visit("/posts");
    expect(await again.json()).toEqual({ email: "ada@example.com", flashes: [] });
    // Nothing in the session changed (the flash was gone already): only the handler's cookie.
    expect(again.headers.getSetCookie()).toEqual(["theme=dark; Path=/"]);

    // Response.redirect has immutable headers; the cookie still gets out.
    const logout = await visit("/logout", { method: "POST" });
    expect(logout.status).toBe(303);
    expect(logout.headers.getSetCookie()).toEqual([
      "_tessera_session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax",
    ]);
    expect(jar.has("_tessera_session")).toBe(false);
    expect((await visit("/posts")).status).toBe(303);
  });

  it("a plain fetch handler writes the cookie with commit", async () => {
    const { sessions } = testSessions();
    const handler = async (request: Request): Promise<Response> => {
      const session = await sessions.read(request);
      let body = `hello ${session.userId}`;
      if (session.userId === undefined) {
        session.signIn(11);
        body = "signed in";
      }
      const response = new Response(body);
      return sessions.commit(session, response);
    };
    const first = await handler(new Request("https://app.test/"));
    const cookie = cookiePair(first.headers.getSetCookie()[0]!);
    const second = await handler(new Request("https://app.test/", { headers: { cookie } }));
    expect(await second.text()).toBe("hello 11");
    expect(second.headers.getSetCookie()).toEqual([]);
  });
});

describe("cookieSession", () => {
  /** An app whose route answers `answer()`, noting what the outermost middleware got back. */
  function appAnswering(answer: () => Response) {
    const { sessions } = testSessions();
    const seen: { handed?: Response; finished?: Response } = {};
    const app = new Hono<SessionEnv>();
    app.use(async (c, next) => {
      await next();
      seen.finished = c.res;
    });
    app.use(cookieSession(sessions));
    app.get("/", (c) => {
      c.get("session").flash("notice", "Saved.");
      seen.handed = answer();
      return seen.handed;
    });
    return { app, seen };
  }

  it("writes a changed session's cookie into the handler's own answer, not a copy", async () => {
    // A copy would go through the body stream, and @hono/node-server would then stream the page.
    const { app, seen } = appAnswering(() => new Response("<p>page</p>", { status: 200 }));
    const response = await app.request("http://app.test/");
    expect(seen.finished).toBe(seen.handed);
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^_tessera_session=/)]);
    expect(await response.text()).toBe("<p>page</p>");
  });

  it("still sets the cookie on an answer whose headers cannot change", async () => {
    const { app } = appAnswering(() => Response.redirect("http://app.test/next", 303));
    const response = await app.request("http://app.test/");
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^_tessera_session=/)]);
  });
});
