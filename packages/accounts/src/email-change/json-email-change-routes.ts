import { localizeFieldMessages, systemClock } from "@tessera/core";
import { INVALID, TAKEN } from "@tessera/fields/messages";
import {
  attemptRateLimit,
  badRequest,
  jsonAnswer,
  jsonError,
  type Route,
  type RouteContext,
  rateLimit,
  readJsonBody,
  tooManyRequests,
  validationFailed,
  withMiddleware,
} from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import { mailLinkOrigin } from "../account-emails.js";
import { accountEvents } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import { type BearerUserContext, bearerUser } from "../bearer-user.js";
import { requireStrings } from "../json-input.js";
import type { JsonAccountRoutesOptions } from "../json-routes-options.js";
import { reportMailErrorToStderr } from "../mail-error-report.js";
import type { FieldErrors } from "../messages.js";
import { type MissingMailer, noMailerMessage } from "../missing-mailer.js";
import { refuseWithoutCurrentPassword } from "../password/current-password.js";
import type { TokenMailTransaction } from "../token-mail-transaction.js";
import { normalizeEmail } from "../users/email.js";
import { userJson } from "../users/user.js";
import { confirmEmailChange } from "./email-change-confirmation.js";
import { requestEmailChange } from "./email-change-request.js";
import type { EmailChangeStore } from "./email-change-store.js";
import { newEmailErrors } from "./new-email-address.js";

/** What the JSON email change routes are built from: the JSON routes' parts, the store, mail. */
export interface JsonEmailChangeRoutesOptions
  extends Pick<
    JsonAccountRoutesOptions,
    | "users"
    | "operatorColumns"
    | "bearer"
    | "rateLimiter"
    | "clock"
    | "passwords"
    | "events"
    | "secondFactors"
  > {
  readonly emailChanges: EmailChangeStore;
  /** Where the links go; a `missingMailer` makes `POST /api/auth/email` a 500 naming it. */
  readonly mailer: Mailer | MissingMailer;
  /** Stores each change and its link's mail in one transaction (see `TokenMailTransaction`). */
  readonly tokenMailTransaction?: TokenMailTransaction | undefined;
  /** `APP_URL` and `ALLOWED_ORIGINS`: where the links may point (see `mailLinkOrigin`). */
  readonly appUrl?: string | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
  /** Told of a mail that could not be handed over (default: one line on stderr). */
  readonly onMailError?: ((error: unknown, purpose: string) => void) | undefined;
}

type Context = RouteContext & BearerUserContext;

const REQUEST_GROUP = "api_email_change";
const CONFIRM_GROUP = "api_email_change_confirm";

/**
 * Changing the account's address, confirmed by the new one:
 * - `POST /api/auth/email` (a token, never an API key) `{email, current_password}` (a user
 *   without a password leaves `current_password` out and needs a sign-in of the last 10
 *   minutes): 202 `Check your new address for a confirmation link.`, a link mailed to the new
 *   address and a notice to the current one; nothing changes yet. 403 as
 *   `refuseWithoutCurrentPassword` answers, 422 on `email` (`is invalid`, `has already been
 *   taken`, the user's own address included), 400 for a malformed body. Limited per client and
 *   per new address.
 * - `POST /api/auth/email/confirm` `{token}` (no bearer: the link is the proof): 200 with the
 *   user as changed; 422 on `token` (`is invalid`) for an unknown, used, replaced or expired
 *   link, on `email` (`has already been taken`) when another account took the address meanwhile.
 *   Limited per client.
 */
export function jsonEmailChangeRoutes(options: JsonEmailChangeRoutesOptions): Route[] {
  const clock = options.clock ?? systemClock;
  const events = options.events ?? accountEvents();
  const reportMailError = options.onMailError ?? reportMailErrorToStderr;
  const proof = {
    users: options.users,
    clock,
    passwords: options.passwords,
    secondFactors: options.secondFactors,
  };
  const confirmation = { users: options.users, emailChanges: options.emailChanges, events, clock };

  async function requestChange(request: Request, context: Context): Promise<Response> {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const fields = requireStrings(body.value, ["email"]);
    if (!fields.ok) return badRequest(fields.message);
    const { mailer } = options;
    if ("missingSetting" in mailer) return jsonError(500, noMailerMessage(mailer.missingSetting));
    const refused = await refuseWithoutCurrentPassword(proof, context, body.value);
    if (refused) return refused;
    const { user, locale } = context;
    const email = normalizeEmail(fields.value.email);
    const errors = await newEmailErrors(options.users, email);
    if (errors) return validationFailed(localizeFieldMessages(errors, locale), locale);
    // The client was counted by the middleware; the new address, a mailbox not yet proven the
    // user's, is counted here, so no one can flood it from many clients.
    const retryAfter = await attemptRateLimit(options.rateLimiter, REQUEST_GROUP, [
      `email:${email}`,
    ]);
    if (retryAfter !== undefined) return tooManyRequests(retryAfter, locale);
    const origin = mailLinkOrigin(request, {
      appUrl: options.appUrl,
      allowedOrigins: options.allowedOrigins ?? [],
    });
    const mailing = {
      emailChanges: options.emailChanges,
      mailer,
      tokenMailTransaction: options.tokenMailTransaction,
      reportMailError,
      clock,
    };
    await requestEmailChange(mailing, user, email, origin, locale);
    await events.audited(
      "user.email_change_requested",
      user.id,
      { ...context, request },
      {
        details: { new_email: email },
      },
    );
    const message = accountMessages.text(locale, "accounts.email_change.sent");
    return jsonAnswer({ message }, { status: 202, locale });
  }

  async function confirm(request: Request, context: RouteContext): Promise<Response> {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const fields = requireStrings(body.value, ["token"]);
    if (!fields.ok) return badRequest(fields.message);
    const { locale, clientAddress } = context;
    const changed = await confirmEmailChange(confirmation, fields.value.token, {
      request,
      clientAddress,
    });
    if (!changed.ok) {
      // A refused link is a field of the request that cannot be used, as a 422 says of a form.
      const refusal: FieldErrors =
        changed.reason === "email-taken" ? { email: [TAKEN] } : { token: [INVALID] };
      return validationFailed(localizeFieldMessages(refusal, locale), locale);
    }
    return jsonAnswer(userJson(changed.value, options.operatorColumns ?? []), { locale });
  }

  return [
    // The bearer first: a request without one is a 401 and uses up none of the client's attempts.
    ...withMiddleware(
      [{ method: "POST", path: "/api/auth/email", handle: requestChange }],
      bearerUser(options.bearer),
      rateLimit<Context>({ limiter: options.rateLimiter, group: REQUEST_GROUP }),
    ),
    ...withMiddleware(
      [{ method: "POST", path: "/api/auth/email/confirm", handle: confirm }],
      rateLimit({ limiter: options.rateLimiter, group: CONFIRM_GROUP }),
    ),
  ];
}
