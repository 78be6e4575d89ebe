import { systemClock } from "@tessera/core";
import type { KeyRing } from "@tessera/crypto";
import {
  attemptRateLimit,
  badRequest,
  jsonAnswer,
  jsonError,
  type Route,
  type RouteContext,
  type RouteHandler,
  rateLimitClientKey,
  readJsonBody,
  tooManyRequests,
} from "@tessera/http";
import type { Mailer } from "@tessera/mail";
import { emailCodeMail } from "../account-emails.js";
import { accountErrorAnswer } from "../account-errors.js";
import { accountEvents } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import { optionalBoolean, requireStrings } from "../json-input.js";
import type { JsonAccountRoutesOptions } from "../json-routes-options.js";
import { answerAfterFloor } from "../mail-answer-floor.js";
import { reportMailErrorToStderr } from "../mail-error-report.js";
import { type MissingMailer, noMailerMessage } from "../missing-mailer.js";
import { passwordErrors } from "../password/password-errors.js";
import { grantTokenSignIn, tokenGrantParts } from "../sign-in/sign-in-grant.js";
import { storeWithMail } from "../token-mail-delivery.js";
import type { TokenMailTransaction } from "../token-mail-transaction.js";
import { normalizeSubmittedEmail } from "../users/email.js";
import type { EmailCodeStore } from "./email-code-store.js";
import { consumeEmailCode, issueEmailCode } from "./email-codes.js";

/** What the emailed-code routes are built from: the JSON account routes' parts, the codes, mail. */
export interface JsonEmailCodeRoutesOptions
  extends Omit<JsonAccountRoutesOptions, "operatorColumns"> {
  readonly emailCodes: EmailCodeStore;
  /** The keys of code digests (`emailCodeKeys(secretKeyBase)`). */
  readonly emailCodeKeys: KeyRing;
  /** Where the codes go; a `missingMailer` makes `POST /api/auth/email_code` a 500 naming it. */
  readonly mailer: Mailer | MissingMailer;
  /** Stores each code and its mail in one transaction (see `TokenMailTransaction`). */
  readonly tokenMailTransaction?: TokenMailTransaction | undefined;
  /** Told of a code mail that could not be handed over (default: one line on stderr). */
  readonly onMailError?: ((error: unknown, purpose: string) => void) | undefined;
}

const PURPOSE = "email_code";

/**
 * Passwordless sign-in with a typed code, the JSON twin of the sign-in link:
 * - `POST /api/auth/email_code` `{email}`: 202 for any address (no account is revealed, nor by
 *   the time it takes: see `answerAfterFloor`), and for an account a six-digit code mailed to
 *   it, valid 10 minutes; the previous code stops;
 * - `POST /api/auth/token/email_code` `{email, code}`: the body of `POST /api/auth/token` (or its
 *   403 `mfa_required` for a user with a second factor); 401 for a wrong, used, replaced or
 *   expired code, and for every code after 5 wrong ones.
 * Both are limited per client and per address, like the other mail routes: 429 past the limit.
 */
export function jsonEmailCodeRoutes(options: JsonEmailCodeRoutesOptions): Route[] {
  const events = options.events ?? accountEvents();
  const clock = options.clock ?? systemClock;
  const reportMailError = options.onMailError ?? reportMailErrorToStderr;

  /** The body's normalized address, or the answer refusing the body, or the rate limit's. */
  async function readAddress<Names extends readonly string[]>(
    request: Request,
    context: RouteContext,
    group: string,
    names: Names,
  ): Promise<
    | {
        ok: true;
        email: string | undefined;
        fields: Record<Names[number], string>;
        refresh: boolean;
      }
    | { ok: false; response: Response }
  > {
    const body = await readJsonBody(request);
    if (!body.ok) return body;
    const fields = requireStrings(body.value, names);
    if (!fields.ok) return { ok: false, response: badRequest(fields.message) };
    const refresh = optionalBoolean(body.value, "refresh", false);
    if (!refresh.ok) return { ok: false, response: badRequest(refresh.message) };
    // Undefined for text longer than any address: no account has it, and it is not counted, so
    // a stranger cannot grow the counters with it.
    const email = normalizeSubmittedEmail((fields.value as Record<string, string>).email ?? "");
    const keys = [rateLimitClientKey(context.clientAddress)];
    if (email !== undefined) keys.push(`email:${email}`);
    const retryAfter = await attemptRateLimit(options.rateLimiter, group, keys);
    if (retryAfter !== undefined) {
      return { ok: false, response: tooManyRequests(retryAfter, context.locale) };
    }
    return { ok: true, email, fields: fields.value, refresh: refresh.value };
  }

  const unauthorized = (context: RouteContext) =>
    accountErrorAnswer(passwordErrors.invalidCredentials, context.locale);

  const handlers = {
    async requestCode(request, context) {
      const read = await readAddress(request, context, "api_email_code", ["email"] as const);
      if (!read.ok) return read.response;
      const { mailer } = options;
      if (!("send" in mailer)) return jsonError(500, noMailerMessage(mailer.missingSetting));
      const { email } = read;
      await answerAfterFloor(async () => {
        const user = email === undefined ? undefined : await options.users.findByEmail(email);
        if (!user) return;
        const mailing = {
          mailer,
          tokenMailTransaction: options.tokenMailTransaction,
          stores: { emailCodes: options.emailCodes },
          reportMailError,
        };
        await storeWithMail(mailing, PURPOSE, async ({ emailCodes }) => {
          if (!emailCodes) throw new Error("the token mail transaction has no email code store");
          const code = await issueEmailCode(emailCodes, options.emailCodeKeys, user.id, clock);
          return emailCodeMail({ to: user.email, code, locale: context.locale });
        });
      });
      const message = accountMessages.text(context.locale, "accounts.email_code_sent");
      return jsonAnswer({ message }, { status: 202, locale: context.locale });
    },

    async signIn(request, context) {
      const read = await readAddress(request, context, "api_token_email_code", [
        "email",
        "code",
      ] as const);
      if (!read.ok) return read.response;
      const user =
        read.email === undefined ? undefined : await options.users.findByEmail(read.email);
      if (!user) return unauthorized(context);
      const used = await consumeEmailCode(
        options.emailCodes,
        options.emailCodeKeys,
        user.id,
        read.fields.code,
        clock,
      );
      if (!used.ok) {
        await events.audited(
          "user.sign_in_failed",
          user.id,
          { ...context, request },
          {
            details: { method: "email_code", reason: "wrong_code" },
          },
        );
        return unauthorized(context);
      }
      return grantTokenSignIn(
        tokenGrantParts({ ...options, clock }, events),
        user,
        { method: "email_code" },
        {
          request,
          clientAddress: context.clientAddress,
          locale: context.locale,
          refresh: read.refresh,
        },
      );
    },
  } satisfies Record<string, RouteHandler>;

  return [
    { method: "POST", path: "/api/auth/email_code", handle: handlers.requestCode },
    { method: "POST", path: "/api/auth/token/email_code", handle: handlers.signIn },
  ];
}
