import type { SessionCookies } from "@tessera/session";
import type { MiddlewareHandler } from "hono";
import type { TesseraEnv } from "./variables.js";

/**
 * Opens the cookie session into `c.get("session")` before the request and writes it back after,
 * only when it changed. Routes mounted with {@link mount} use this session instead of opening
 * the cookie again, so a request reads and writes its cookie once.
 *
 * @example
 * ```ts
 * import { cookieSession, type TesseraEnv } from "@tessera/hono";
 * import { createSessionCookies } from "@tessera/session";
 * import { Hono } from "hono";
 *
 * const sessions = createSessionCookies({
 *   appName: "notes",
 *   secrets: { current: process.env.SECRET_KEY_BASE! },
 * });
 * const app = new Hono<TesseraEnv>();
 * app.use(cookieSession(sessions));
 * app.get("/", (c) => c.text(c.get("session").userId === undefined ? "Signed out" : "Signed in"));
 * ```
 */
export function cookieSession(sessions: SessionCookies): MiddlewareHandler<TesseraEnv> {
  return async (context, next) => {
    const session = await sessions.read(context.req.raw);
    context.set("session", session);
    await next();
    // Appended through Hono, which copies an immutable response; replacing `context.res` with a
    // copy of our own would lose the cookie (Hono keeps the old response's Set-Cookie headers).
    const cookie = await sessions.setCookie(session);
    if (cookie !== undefined) context.header("Set-Cookie", cookie, { append: true });
  };
}
