// The cookie session as Hono middleware, on its own entry so that the main one stays free of
// any framework. Types only come from Hono: this file imports nothing of it at run time.
import type { MiddlewareHandler } from "hono";
import type { Session } from "./session.js";
import type { SessionCookies } from "./session-cookies.js";

/** What {@link cookieSession} puts on the Hono context: `c.get("session")`. */
export interface SessionVariables {
  session: Session;
}

/**
 * The Hono environment of an app using {@link cookieSession}; combine it with
 * `@tessera/hono`'s: `Hono<{ Variables: TesseraVariables & SessionVariables }>`.
 */
export interface SessionEnv {
  Variables: SessionVariables;
}

/**
 * Opens the cookie session into `c.get("session")` before the request and writes it back after,
 * only when it changed. Routes mounted with `mount` of `@tessera/hono` use this session instead
 * of opening the cookie again, so a request reads and writes its cookie once.
 *
 * @example
 * ```ts
 * import { createSessionCookies } from "@tessera/session";
 * import { cookieSession, type SessionEnv } from "@tessera/session/hono";
 * import { Hono } from "hono";
 *
 * const sessions = createSessionCookies({
 *   appName: "notes",
 *   secrets: { current: process.env.SECRET_KEY_BASE! },
 * });
 * const app = new Hono<SessionEnv>();
 * app.use(cookieSession(sessions));
 * app.get("/", (c) => c.text(c.get("session").userId === undefined ? "Signed out" : "Signed in"));
 * ```
 */
export function cookieSession(sessions: SessionCookies): MiddlewareHandler<SessionEnv> {
  return async (context, next) => {
    const session = await sessions.read(context.req.raw);
    context.set("session", session);
    await next();
    const cookie = await sessions.setCookie(session);
    if (cookie === undefined) return;
    // In place where the headers are mutable: Hono's `context.header` copies a finished
    // response through its body stream, which makes @hono/node-server stream the page instead
    // of writing it at once (a quarter of a flash page's CPU).
    try {
      context.res.headers.append("Set-Cookie", cookie);
      return;
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
    }
    // An immutable response (a redirect, a fetch answer) is copied by Hono; replacing
    // `context.res` with a copy of our own would lose the cookie (Hono keeps the old response's
    // Set-Cookie headers).
    context.header("Set-Cookie", cookie, { append: true });
  };
}
