import { localizeFieldMessages, systemClock } from "@tessera/core";
import {
  badRequest,
  type Route,
  type RouteContext,
  rateLimit,
  readJsonBody,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import type { TrackedSessionStore } from "@tessera/session";
import { accountEvents } from "../account-hooks.js";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import { optionalBoolean, requireStrings } from "../json-input.js";
import type { JsonAccountRoutesOptions } from "../json-routes-options.js";
import type { AccountNotices } from "../notice-mail-delivery.js";
import { tokenAnswer } from "../token-answer.js";
import { changePassword } from "./change-password.js";
import { refuseWithoutCurrentPassword } from "./current-password.js";

/** What `POST /api/auth/password` is built from: the JSON routes' parts, devices, notices. */
export interface JsonPasswordRoutesOptions extends JsonAccountRoutesOptions {
  /** The device list: signing the others out ends their browser sessions too. */
  readonly trackedSessions?: TrackedSessionStore | undefined;
  /** Where `Your password was changed` goes; without it no notice is mailed. */
  readonly notices?: AccountNotices | undefined;
}

type Context = RouteContext & BearerUserContext;

/**
 * `POST /api/auth/password` (a token, never an API key) `{current_password, password,
 * sign_out_others?}`: 200 with a fresh token body (as `POST /api/auth/token`). `sign_out_others`
 * (default true) ends every token and session signed in before the change; API keys stay.
 * 403 `invalid_credentials` for a wrong current password, `reauthentication_required` without
 * the recent second factor (or, for a user without a password, who omits it, a sign-in of the
 * last 10 minutes); 422 on `password` for the policy; 400 for a malformed body. Rate limited per
 * client.
 */
export function jsonPasswordRoutes(options: JsonPasswordRoutesOptions): Route[] {
  const clock = options.clock ?? systemClock;
  const parts = {
    users: options.users,
    clock,
    passwords: options.passwords,
    secondFactors: options.secondFactors,
    events: options.events ?? accountEvents(),
    trackedSessions: options.trackedSessions,
    notices: options.notices,
    breachedPasswords: options.breachedPasswords,
  };

  async function changeOwnPassword(request: Request, context: Context): Promise<Response> {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const password = requireStrings(body.value, ["password"], { hashedOnly: ["password"] });
    if (!password.ok) return badRequest(password.message);
    const signOutOthers = optionalBoolean(body.value, "sign_out_others", true);
    if (!signOutOthers.ok) return badRequest(signOutOthers.message);
    const refused = await refuseWithoutCurrentPassword(parts, context, body.value);
    if (refused) return refused;
    const { user, locale, caller } = context;
    const changed = await changePassword(
      parts,
      user,
      password.value.password,
      { signOutOthers: signOutOthers.value },
      { request, clientAddress: context.clientAddress, locale },
    );
    if (!changed.ok) return validationFailed(localizeFieldMessages(changed.fields, locale), locale);
    // A new token (its iat after the change), standing for the same sign-in as the one that
    // asked: a change proves the password, not a new second factor.
    const authentication = caller.authentication ?? { at: clock(), factors: ["password"] };
    return tokenAnswer(await options.tokens.issue(user.id, authentication), locale);
  }

  return withMiddleware(
    [{ method: "POST", path: "/api/auth/password", handle: changeOwnPassword }],
    bearerUser(options.bearer),
    rateLimit<Context>({ limiter: options.rateLimiter, group: "api_change_password" }),
  );
}
