import type { RouteContext, RouteMiddleware } from "@tessera/http";
import { accountErrorAnswer } from "../account-errors.js";
import type { BearerUserContext } from "../bearer-user.js";
import { isRecentFullSignIn, type RecentSignInParts } from "./recent-sign-in.js";
import { signInErrors } from "./sign-in-errors.js";

type BearerContext = RouteContext & BearerUserContext;

/**
 * The 403 for a caller who may never change credentials or factors: `api_key_not_allowed` for
 * an API key, `impersonation_not_allowed` for a token an operator acts as the user with;
 * undefined for the user's own token.
 */
export function refuseApiKeyOrActor(context: BearerContext): Response | undefined {
  if (context.caller.credential === "jwt") return refuseActor(context);
  return accountErrorAnswer(signInErrors.apiKeyNotAllowed, context.locale);
}

/** The 403 `impersonation_not_allowed` for an operator acting as the user; else undefined. */
function refuseActor(context: BearerContext): Response | undefined {
  if (context.caller.authentication?.actor === undefined) return undefined;
  return accountErrorAnswer(signInErrors.impersonationNotAllowed, context.locale);
}

/**
 * The route middleware of {@link refuseApiKeyOrActor}: only the user's own token passes, for a
 * route that changes no credential yet is theirs alone (ending a device). Put it after
 * `bearerUser`.
 */
export function ownTokenRequired<C extends BearerContext>(): RouteMiddleware<C, C> {
  return (next) => async (request, context) =>
    refuseApiKeyOrActor(context) ?? next(request, context);
}

/**
 * The route middleware refusing an operator acting as the user (403
 * `impersonation_not_allowed`), for a route that changes credentials an API key may change
 * too (revoking a key): put it after `bearerUser`.
 */
export function notWhileImpersonating<C extends BearerContext>(): RouteMiddleware<C, C> {
  return (next) => async (request, context) => refuseActor(context) ?? next(request, context);
}

/**
 * For a JSON route that changes credentials or factors: undefined when the caller may, else the
 * 403 to answer: `api_key_not_allowed` for an API key and `impersonation_not_allowed` for an
 * operator acting as the user (never allowed, see {@link refuseApiKeyOrActor}),
 * `reauthentication_required` for a token without a recent, full sign-in (see
 * {@link isRecentFullSignIn}; the client then signs in again or calls
 * `POST /api/auth/reauthenticate`).
 */
export async function refuseWithoutRecentSignIn(
  parts: RecentSignInParts,
  context: BearerContext,
  confirmed: { readonly passwordConfirmed?: boolean | undefined } = {},
): Promise<Response | undefined> {
  const refused = refuseApiKeyOrActor(context);
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
