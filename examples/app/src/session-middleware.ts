import type { Clock } from "@tessera/crypto";
import {
  checkTrackedSession,
  type Session,
  type SessionCookies,
  type TrackedSessionStore,
} from "@tessera/session";
import type { MiddlewareHandler } from "hono";

/** The Hono context variables the session middleware provides. */
export interface SessionVariables {
  session: Session;
}

/**
 * Reads the cookie session before every request and writes it back after, only when it
 * changed. A bad cookie is simply no session. With tracked sessions, a device whose row was
 * deleted (or expired) is signed out here, before any page looks at the session.
 */
export function sessionMiddleware(
  sessions: SessionCookies,
  tracked: { readonly store: TrackedSessionStore; readonly clock: Clock } | undefined,
): MiddlewareHandler<{ Variables: SessionVariables }> {
  return async (context, next) => {
    const session = await sessions.read(context.req.raw);
    if (tracked) await checkTrackedSession(tracked.store, session, tracked.clock);
    context.set("session", session);
    await next();
    // Appended through Hono, which copies an immutable response; replacing `context.res` with a
    // copy of our own would lose the cookie (Hono keeps the old response's Set-Cookie headers).
    const cookie = await sessions.setCookie(session);
    if (cookie !== undefined) context.header("Set-Cookie", cookie, { append: true });
  };
}
