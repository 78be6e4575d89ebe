import type { SessionCookies } from "@tessera/session";
import type { MiddlewareHandler } from "hono";
import type { TesseraEnv } from "./variables.js";

/**
 * Opens the cookie session into `c.get("session")` before the request and writes it back after,
 * only when it changed. Routes mounted with {@link mount} use this session instead of opening
 * the cookie again, so a request reads and writes its cookie once.
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
