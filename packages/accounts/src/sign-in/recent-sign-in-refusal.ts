import type { RouteContext, RouteMiddleware } from "@tessera/http";
import { accountErrorAnswer } from "../account-errors.js";
import type { BearerUserContext } from "../bearer-user.js";
import { isRecentFullSignIn, type RecentSignInParts } from "./recent-sign-in.js";
import { signInErrors } from "./sign-in-errors.js";

type BearerContext = RouteContext & BearerUserContext;

/** The 403 `api_key_not_allowed` for a caller with an API key; undefined for a token. */
export function refuseApiKey(context: BearerContext): Response | undefined {
  if (context.caller.credential === "jwt") return undefined;
  return accountErrorAnswer(signInErrors.apiKeyNotAllowed, context.locale);
}

/**
 * For a JSON route that changes credentials or factors: undefined when the caller may, else the
 * 403 to answer: `api_key_not_allowed` for an API key (never allowed), `reauthentication_required`
 * for a token without a recent, full sign-in (see {@link isRecentFullSignIn}; the client then
 * signs in again or calls `POST /api/auth/reauthenticate`).
 */
export async function refuseWithoutRecentSignIn(
  parts: RecentSignInParts,
  context: BearerContext,
  confirmed: { readonly passwordConfirmed?: boolean } = {},
): Promise<Response | undefined> {
  const refused = refuseApiKey(context);
  if (refused) return refused;
  const { caller, user, locale } = context;
  if (await isRecentFullSignIn(parts, user, caller.authentication, confirmed)) return undefined;
  return accountErrorAnswer(signInErrors.reauthenticationRequired, locale);
}

/**
 * The route middleware of {@link refuseWithoutRecentSignIn}, for routes that take no password:
 * put it after `bearerUser`.
 */
export function recentSignInRequired<C extends BearerContext>(
  parts: RecentSignInParts,
): RouteMiddleware<C, C> {
  return (next) => async (request, context) =>
    (await refuseWithoutRecentSignIn(parts, context)) ?? next(request, context);
}
