import type { BearerAuthenticator } from "@tessera/bearer";
import { optionalUser, type SessionCookies } from "@tessera/session";
import type { User } from "./users/user.js";
import type { UserStore } from "./users/user-store.js";

/** Options of {@link CurrentUser}. */
export interface CurrentUserOptions {
  /**
   * Also accept `Authorization: Bearer` (a JWT or an API key), for routes that answer JSON
   * clients as well as browsers. A request that carries the header is judged by it alone: a
   * bad token gives no user, whatever its cookie says. Default: the cookie session only.
   */
  readonly bearer?: boolean | undefined;
}

/**
 * The signed-in user of a request in the app's own routes, or undefined: one call, whatever the
 * framework (Hono: `c.req.raw`; Express and Fastify: `toRequest(req)` of `@tessera/node`).
 * Reads the cookie session the account pages signed in, without writing it back (a session
 * signed in before the user's credentials changed gives no user); never throws on the request. A cookie alone rides along on cross-site requests: a route that changes
 * something for this user must refuse those itself (or be a Tessera route, which does).
 */
export type CurrentUser = (
  request: Request,
  options?: CurrentUserOptions,
) => Promise<User | undefined>;

/** The {@link CurrentUser} of these sessions, bearer authenticator and users. */
export function currentUserReader(
  sessions: SessionCookies,
  bearer: BearerAuthenticator<User>,
  users: UserStore,
): CurrentUser {
  return async (request, options = {}) => {
    if (options.bearer && request.headers.has("authorization")) {
      const identity = await bearer.authenticate(request);
      return identity.ok ? identity.value.user : undefined;
    }
    // Through optionalUser, as every page: a session signed in before the user's credentials
    // changed names nobody here either.
    return optionalUser(await sessions.read(request), (id) => users.findById(id));
  };
}
