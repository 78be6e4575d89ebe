import type { Authenticate } from "@tessera/http";
import { requireConfirmedUser, requireUser, type UserLoader } from "./access-modes.js";
import type { SessionRouteContext } from "./session-routes.js";

/**
 * The `authenticate` option of HTML route groups: the signed-in user of the cookie session, or
 * the 303 to sign-in of {@link requireUser}.
 */
export function sessionAuthentication<U>(
  loadUser: UserLoader<U>,
): Authenticate<U, SessionRouteContext> {
  return async (request, { session }) => requireUser(session, request, loadUser);
}

/** As {@link sessionAuthentication}, refusing an unconfirmed user as {@link requireConfirmedUser} does. */
export function confirmedSessionAuthentication<U extends { readonly confirmedAt: string | null }>(
  loadUser: UserLoader<U>,
): Authenticate<U, SessionRouteContext> {
  return async (request, { session }) => requireConfirmedUser(session, request, loadUser);
}
