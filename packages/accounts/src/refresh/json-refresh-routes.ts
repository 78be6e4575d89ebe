import type { RefreshTokens } from "@tessera/bearer";
import { type Clock, signedInBeforeCredentialsChanged, systemClock } from "@tessera/core";
import { badRequest, type Route, type RouteHandler, readJsonBody } from "@tessera/http";
import { accountErrorAnswer } from "../account-errors.js";
import { requireStrings } from "../json-input.js";
import type { TokenIssuer } from "../json-routes-options.js";
import { passwordErrors } from "../password/password-errors.js";
import { tokenAnswer } from "../token-answer.js";
import { isBanned } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";

/** The path apps exchange and revoke refresh tokens at. */
export const REFRESH_PATH = "/api/auth/token/refresh";

/** What the refresh routes are built from. */
export interface JsonRefreshRoutesOptions {
  readonly refreshTokens: RefreshTokens;
  readonly tokens: TokenIssuer;
  /** Only `findById`: the user a family belongs to, as they are now. */
  readonly users: Pick<UserStore, "findById">;
  readonly clock?: Clock | undefined;
}

/**
 * The refresh routes of apps that signed in with `"refresh": true`:
 * - `POST /api/auth/token/refresh {refresh_token}`: 200 with a new access token and a new
 *   refresh token (the one given is used up), the access token carrying the original sign-in
 *   (`auth_time`, `amr`: never a recent one); 401 `invalid_credentials` for a token that is
 *   unknown, used (past the grace: its whole family is then revoked), revoked or expired, and
 *   for a family whose user is gone, banned, or changed credentials after its sign-in (that
 *   family is revoked too); 400 for a body without a string `refresh_token`.
 * - `DELETE /api/auth/token/refresh {refresh_token}`: 204, the family revoked (an app's
 *   sign-out); the same 204 for a token it does not know, so the answer tells nothing.
 *
 * They take no bearer: the refresh token is the credential. A refresh is not a sign-in, so
 * `beforeSignIn` is not asked; a ban is checked, and the sign-in grant was at the start.
 */
export function jsonRefreshRoutes(options: JsonRefreshRoutesOptions): Route[] {
  const clock = options.clock ?? systemClock;

  async function readRefreshToken(request: Request): Promise<string | Response> {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const fields = requireStrings(body.value, ["refresh_token"]);
    return fields.ok ? fields.value.refresh_token : badRequest(fields.message);
  }

  const handlers = {
    async refresh(request, context) {
      const token = await readRefreshToken(request);
      if (token instanceof Response) return token;
      const refused = () => accountErrorAnswer(passwordErrors.invalidCredentials, context.locale);
      const rotated = await options.refreshTokens.rotate(token);
      if (!rotated.ok) return refused();
      const user = await options.users.findById(rotated.userId);
      const { authentication } = rotated;
      if (
        !user ||
        isBanned(user, clock()) ||
        signedInBeforeCredentialsChanged(authentication.at, user.credentialsChangedAt)
      ) {
        await options.refreshTokens.revoke(rotated.refreshToken);
        return refused();
      }
      const issued = await options.tokens.issue(user.id, authentication);
      return tokenAnswer(issued, context.locale, rotated);
    },

    async revoke(request) {
      const token = await readRefreshToken(request);
      if (token instanceof Response) return token;
      await options.refreshTokens.revoke(token);
      return new Response(null, { status: 204 });
    },
  } satisfies Record<string, RouteHandler>;

  return [
    { method: "POST", path: REFRESH_PATH, handle: handlers.refresh },
    { method: "DELETE", path: REFRESH_PATH, handle: handlers.revoke },
  ];
}
