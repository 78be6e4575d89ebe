import {
  type Authenticate,
  authenticated,
  type RouteContext,
  type RouteMiddleware,
  unauthorized,
} from "@tessera/http";
import type { BearerAuthentication, BearerCaller } from "./json-routes-options.js";
import type { User } from "./users/user.js";

/**
 * The context of a JSON account route once the bearer is known: `user`, and `caller`, which
 * says with which credential (see `recentSignInRequired`).
 */
export interface BearerUserContext {
  readonly user: User;
  readonly caller: BearerCaller;
}

const BEARER_CHALLENGE = { "WWW-Authenticate": "Bearer" };

/**
 * The route middleware of the JSON account routes that need a bearer token: the token's user
 * in `context.user`, or the 401 with `WWW-Authenticate: Bearer` before the handler runs.
 */
export function bearerUser(
  bearer: BearerAuthentication,
): RouteMiddleware<RouteContext, RouteContext & BearerUserContext> {
  const authenticate: Authenticate<BearerUserContext> = async (request, context) => {
    const who = await bearer.authenticate(request);
    return who.ok
      ? { ok: true, value: { user: who.value.user, caller: who.value } }
      : { ok: false, response: unauthorized(BEARER_CHALLENGE, context.locale) };
  };
  return authenticated(authenticate);
}
