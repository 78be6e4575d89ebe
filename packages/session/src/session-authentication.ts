import type { Authenticate } from "@tessera/http";
import { requireConfirmedUser, requireUser, type UserLoader } from "./access-modes.js";
import type { SessionRouteContext } from "./session-routes.js";

/**
 * The `authenticate` option of HTML route groups: `{ user }`, the signed-in user of the cookie
 * session, or the 303 to sign-in of {@link requireUser} (its alert in the request's locale).
 */
export function sessionAuthentication<U>(
  loadUser: UserLoader<U>,
): Authenticate<{ readonly user: U }, SessionRouteContext> {
  return async (request, { session, locale }) => {
    const access = await requireUser(session, request, loadUser, locale);
    return access.ok ? { ok: true, value: { user: access.value } } : access;
  };
}

/** As {@link sessionAuthentication}, refusing an unconfirmed user as {@link requireConfirmedUser} does. */
export function confirmedSessionAuthentication<U extends { readonly confirmedAt: unknown }>(
  loadUser: UserLoader<U>,
): Authenticate<{ readonly user: U }, SessionRouteContext> {
  return async (request, { session, locale }) => {
    const access = await requireConfirmedUser(session, request, loadUser, locale);
    return access.ok ? { ok: true, value: { user: access.value } } : access;
  };
}
