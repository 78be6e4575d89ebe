import type { SignInOptions } from "./session.js";
import type { SessionCookies } from "./session-cookies.js";
import type { SessionRouteContext } from "./session-routes.js";
import { endCurrentTrackedSession, startTrackedSession } from "./tracked-sessions.js";

/**
 * Signs the user in (the session is emptied first) and, when the cookies track devices,
 * records this browser as one, with the `factors` that signed it in (`password`, `totp`…):
 * every route that signs someone in goes through here.
 */
export async function signInDevice(
  cookies: SessionCookies,
  request: Request,
  context: SessionRouteContext,
  userId: number,
  options: SignInOptions & { readonly factors?: readonly string[] | undefined } = {},
): Promise<void> {
  context.session.signIn(userId, options);
  if (!cookies.trackedSessions) return;
  await startTrackedSession(cookies.trackedSessions, context.session, {
    ipAddress: context.clientAddress,
    userAgent: request.headers.get("user-agent"),
    clock: cookies.clock,
    ...(options.factors ? { factors: options.factors } : {}),
  });
}

/** Signs the session out and, when the cookies track devices, ends this browser's row. */
export async function signOutDevice(
  cookies: SessionCookies,
  context: SessionRouteContext,
): Promise<void> {
  if (cookies.trackedSessions)
    await endCurrentTrackedSession(cookies.trackedSessions, context.session);
  else context.session.signOut();
}
