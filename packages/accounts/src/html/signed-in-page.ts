import { authenticated, type RouteMiddleware } from "@tessera/http";
import { sessionAuthentication } from "@tessera/session";
import { isRecentFullSignIn, type RecentSignInParts } from "../sign-in/recent-sign-in.js";
import { readSessionAuthentication } from "../sign-in/session-authentication.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";
import type { HtmlRequestContext, SignedInContext } from "./html-routes-options.js";

/**
 * A route middleware requiring a signed-in user, put in `context.user`; anyone else gets the
 * 303 to sign-in of `requireUser`.
 */
export function signedInPage(
  users: UserStore,
): RouteMiddleware<HtmlRequestContext, SignedInContext> {
  return authenticated<{ readonly user: User }, HtmlRequestContext>(
    sessionAuthentication((id) => users.findById(id)),
  );
}

/**
 * Whether this browser's sign-in (or its last confirming it is them) is a recent, full one of
 * `user` (see `isRecentFullSignIn`): what changing credentials and factors needs.
 */
export function isRecentPageSignIn(
  parts: RecentSignInParts,
  context: HtmlRequestContext,
  user: User,
  confirmed: { readonly passwordConfirmed?: boolean | undefined } = {},
): Promise<boolean> {
  const authentication = readSessionAuthentication(context.session);
  return isRecentFullSignIn(parts, user, authentication, confirmed);
}
