import { localizeFieldMessages } from "@tessera/core";
import {
  badRequest,
  jsonAnswer,
  jsonError,
  type Route,
  type RouteContext,
  type RouteHandler,
  rateLimit,
  readJsonBody,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import { accountErrorAnswer } from "../account-errors.js";
import { accountEvents } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import { optionalBoolean, refuseUnstorableText, requireStrings } from "../json-input.js";
import type { JsonAccountRoutesOptions } from "../json-routes-options.js";
import { passwordErrors } from "../password/password-errors.js";
import { checkPassword, signInWithPassword } from "../password/password-sign-in.js";
import { secondFactorMethods } from "../second-factor/second-factor-sign-in.js";
import { accountThrottledAnswer } from "../sign-in/account-throttle.js";
import {
  refuseApiKeyOrActor,
  refuseWithoutRecentSignIn,
} from "../sign-in/recent-sign-in-refusal.js";
import { grantTokenSignIn, tokenGrantParts } from "../sign-in/sign-in-grant.js";
import { deleteUser } from "./account-deletion.js";
import { normalizeEmail } from "./email.js";
import { signUp } from "./signup.js";
import { userJson } from "./user.js";

/** Message of the 403 of `DELETE /api/auth/me` when the confirmation does not match, in English. */
export const ACCOUNT_DELETION_REFUSED =
  accountMessages.english[passwordErrors.passwordIncorrect.message];

/** Reads a JSON body with `email` and `password` texts, or the 400 to answer. */
async function readCredentials(request: Request): Promise<
  | {
      readonly ok: true;
      readonly body: Record<string, unknown>;
      readonly value: { readonly email: string; readonly password: string };
    }
  | { readonly ok: false; readonly response: Response }
> {
  const body = await readJsonBody(request);
  if (!body.ok) return body;
  const credentials = requireStrings(body.value, ["email", "password"], {
    hashedOnly: ["password"],
  });
  if (!credentials.ok) return { ok: false, response: badRequest(credentials.message) };
  return { ok: true, body: body.value, value: credentials.value };
}

/**
 * The JSON account routes (API keys: see `jsonApiKeyRoutes`):
 * - `POST /api/auth/signup`: 201 with the user; 422 with every failing field;
 * - `POST /api/auth/token`: `{ token, token_type: "Bearer", expires_in }`; 401 otherwise; 403
 *   `mfa_required` with `mfa_token` and `methods` for a user with a second factor (see
 *   `jsonSecondFactorRoutes`);
 * - `GET /api/auth/me`: the bearer's user (and `mfa: { totp, passkeys }` when second factors or
 *   passkeys are on);
 * - `DELETE /api/auth/me` with `password` (or `email` for users without one): 204; 403 for a
 *   wrong one, an API key, or a token without a recent, full sign-in (see
 *   `refuseWithoutRecentSignIn`; the right password stands for the sign-in's first step).
 * - `POST /api/auth/reauthenticate` `{password}` (a token, never an API key): the bearer's
 *   password again, answered as `POST /api/auth/token` answers it (403 `mfa_required` first for
 *   a user with a second factor): a fresh token of a full sign-in, for the routes that change
 *   credentials. A user without a password signs in again instead.
 * Sign-up, token, deletion and reauthentication are rate limited per client.
 */
export function jsonAccountRoutes(options: JsonAccountRoutesOptions): Route[] {
  const operatorColumns = options.operatorColumns ?? [];
  const signupColumns = operatorColumns
    .filter((column) => column.acceptedAtSignup)
    .map((column) => column.name);
  const events = options.events ?? accountEvents();
  const grant = tokenGrantParts(options, events);
  const passwordOptions = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.passwords ? { passwords: options.passwords } : {}),
  };

  const handlers = {
    async signup(request, context) {
      const credentials = await readCredentials(request);
      if (!credentials.ok) return credentials.response;
      const unstorable = refuseUnstorableText(credentials.body, signupColumns);
      if (unstorable) return badRequest(unstorable.message);
      const result = await signUp(
        {
          users: options.users,
          operatorColumns,
          ...passwordOptions,
          breachedPasswords: options.breachedPasswords,
        },
        { ...credentials.body, ...credentials.value },
        { events, request, clientAddress: context.clientAddress, locale: context.locale },
      );
      if (!result.ok) {
        const { locale } = context;
        return validationFailed(localizeFieldMessages(result.fields, locale), locale);
      }
      return jsonAnswer(userJson(result.user, operatorColumns), {
        status: 201,
        locale: context.locale,
      });
    },

    async token(request, context) {
      const credentials = await readCredentials(request);
      if (!credentials.ok) return credentials.response;
      const refresh = optionalBoolean(credentials.body, "refresh", false);
      if (!refresh.ok) return badRequest(refresh.message);
      const { email, password } = credentials.value;
      const { locale } = context;
      const signIn = await signInWithPassword({ ...options, events }, email, password, {
        request,
        clientAddress: context.clientAddress,
        locale,
      });
      if (!signIn.ok) {
        return signIn.reason === "throttled"
          ? accountThrottledAnswer(signIn.retryAfterSeconds, locale)
          : accountErrorAnswer(passwordErrors.invalidCredentials, locale);
      }
      return grantTokenSignIn(
        grant,
        signIn.user,
        { method: "password" },
        {
          request,
          clientAddress: context.clientAddress,
          locale: context.locale,
          refresh: refresh.value,
        },
      );
    },
  } satisfies Record<string, RouteHandler>;

  const bearerHandlers = {
    async me(_request, { user, locale }) {
      const json = userJson(user, operatorColumns);
      if (!options.secondFactors && !options.passkeys) return jsonAnswer(json, { locale });
      if (options.findFactorSummary) {
        const summary = await options.findFactorSummary(user.id);
        const mfa = {
          totp: options.secondFactors ? summary.totp : false,
          passkeys: options.passkeys ? summary.passkeys : 0,
        };
        return jsonAnswer({ ...json, mfa }, { locale });
      }
      const methods = options.secondFactors
        ? await secondFactorMethods(options.secondFactors, user.id)
        : [];
      const passkeys = options.passkeys ? await options.passkeys.store.countPasskeys(user.id) : 0;
      return jsonAnswer({ ...json, mfa: { totp: methods.includes("totp"), passkeys } }, { locale });
    },

    async deleteMe(request, context) {
      const { user } = context;
      const apiKey = refuseApiKeyOrActor(context);
      if (apiKey) return apiKey;
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      // Users who only sign in through a provider have no password: they confirm with their email.
      const confirmation = requireStrings(
        body.value,
        [user.passwordDigest === "" ? "email" : "password"],
        { hashedOnly: ["password"] },
      );
      if (!confirmation.ok) return badRequest(confirmation.message);
      const confirmed =
        user.passwordDigest === ""
          ? normalizeEmail(body.value.email as string) === user.email
          : await checkPassword(
              options.users,
              user,
              body.value.password as string,
              passwordOptions,
            );
      if (!confirmed) return accountErrorAnswer(passwordErrors.passwordIncorrect, context.locale);
      const passwordConfirmed = user.passwordDigest !== "";
      const stale = await refuseWithoutRecentSignIn(grant, context, { passwordConfirmed });
      if (stale) return stale;
      const deletion = await deleteUser(options.users, events, user, {
        request,
        clientAddress: context.clientAddress,
      });
      if (!deletion.ok) {
        const { code, message } = deletion.refusal;
        return jsonError(409, message, { code, locale: context.locale });
      }
      return new Response(null, { status: 204 });
    },

    async reauthenticate(request, context) {
      const apiKey = refuseApiKeyOrActor(context);
      if (apiKey) return apiKey;
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const fields = requireStrings(body.value, ["password"], { hashedOnly: ["password"] });
      if (!fields.ok) return badRequest(fields.message);
      const refresh = optionalBoolean(body.value, "refresh", false);
      if (!refresh.ok) return badRequest(refresh.message);
      const { user, locale } = context;
      if (!(await checkPassword(options.users, user, fields.value.password, passwordOptions))) {
        return accountErrorAnswer(passwordErrors.invalidCredentials, locale);
      }
      return grantTokenSignIn(
        grant,
        user,
        { method: "password" },
        {
          request,
          clientAddress: context.clientAddress,
          locale,
          refresh: refresh.value,
        },
      );
    },
  } satisfies Record<string, RouteHandler<RouteContext & BearerUserContext>>;

  const limited = <C extends RouteContext>(group: string) =>
    rateLimit<C>({ limiter: options.rateLimiter, group });
  const signedIn = bearerUser(options.bearer);
  return [
    ...withMiddleware(
      [{ method: "POST", path: "/api/auth/signup", handle: handlers.signup }],
      limited("api_signup"),
    ),
    ...withMiddleware(
      [{ method: "POST", path: "/api/auth/token", handle: handlers.token }],
      limited("api_token"),
    ),
    ...withMiddleware(
      [{ method: "GET", path: "/api/auth/me", handle: bearerHandlers.me }],
      signedIn,
    ),
    // The bearer first: a request without one is a 401 and uses up none of the client's attempts.
    ...withMiddleware(
      [{ method: "DELETE", path: "/api/auth/me", handle: bearerHandlers.deleteMe }],
      signedIn,
      limited<RouteContext & BearerUserContext>("api_delete_account"),
    ),
    ...withMiddleware(
      [{ method: "POST", path: "/api/auth/reauthenticate", handle: bearerHandlers.reauthenticate }],
      signedIn,
      limited<RouteContext & BearerUserContext>("api_reauthenticate"),
    ),
  ];
}
