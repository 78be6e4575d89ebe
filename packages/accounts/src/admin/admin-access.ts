import {
  type Authenticate,
  authenticated,
  notFound,
  type RouteContext,
  type RouteMiddleware,
} from "@tessera/http";
import type { BearerUserContext } from "../bearer-user.js";
import type { BearerAuthentication } from "../json-routes-options.js";
import type { User } from "../users/user.js";

/**
 * Whether `user` is an operator: the `admin` role (`tessera admin grant`), or a confirmed
 * address among `adminEmails` (`ADMIN_EMAILS`): an unconfirmed one could be anyone's sign-up.
 */
export function isAdmin(user: User, adminEmails: readonly string[] = []): boolean {
  return user.role === "admin" || (user.confirmedAt !== null && adminEmails.includes(user.email));
}

/**
 * The route middleware of every `/api/admin` route: a token (not an API key) of an operator
 * (see {@link isAdmin}) in `context.user`; anyone else, signed in or not, gets the 404 of a
 * path the app does not serve, so the routes' existence is not revealed.
 */
export function adminBearer(
  bearer: BearerAuthentication,
  adminEmails: readonly string[] = [],
): RouteMiddleware<RouteContext, RouteContext & BearerUserContext> {
  const authenticate: Authenticate<BearerUserContext> = async (request, context) => {
    const who = await bearer.authenticate(request);
    const admin = who.ok && who.value.credential === "jwt" && isAdmin(who.value.user, adminEmails);
    return admin
      ? { ok: true, value: { user: who.value.user, caller: who.value } }
      : { ok: false, response: notFound(context.locale) };
  };
  return authenticated(authenticate);
}

/**
 * The route middleware of `POST /api/admin/impersonation/stop`: a token an operator acts as a
 * user with (its `act` claim), the impersonated user in `context.user`; anyone else gets the
 * 404 every `/api/admin` route gives a caller who is not an operator.
 */
export function impersonatorBearer(
  bearer: BearerAuthentication,
): RouteMiddleware<RouteContext, RouteContext & BearerUserContext> {
  const authenticate: Authenticate<BearerUserContext> = async (request, context) => {
    const who = await bearer.authenticate(request);
    return who.ok && who.value.authentication?.actor !== undefined
      ? { ok: true, value: { user: who.value.user, caller: who.value } }
      : { ok: false, response: notFound(context.locale) };
  };
  return authenticated(authenticate);
}
