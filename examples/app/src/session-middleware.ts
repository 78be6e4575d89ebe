import type { Session, SessionCookies } from "@tessera/session";
import type { MiddlewareHandler } from "hono";

/** The Hono context variables the session middleware provides. */
export interface SessionVariables {
  session: Session;
}

/**
 * Reads the cookie session before every request and writes it back after, only when it
 * changed. A bad cookie is simply no session; with tracked sessions, a device whose row was
 * deleted (or expired) is signed out as the cookie is read, before any page looks at it.
 */
export function sessionMiddleware(
  sessions: SessionCookies,
): MiddlewareHandler<{ Variables: SessionVariables }> {
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
