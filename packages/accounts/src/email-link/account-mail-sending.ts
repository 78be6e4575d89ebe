import { type Clock, fail, type Locale, ok, type Result } from "@tessera/core";
import type { Mailer } from "@tessera/mail";
import { accountEmail, mailLinkOrigin } from "../account-emails.js";
import { type MissingMailer, noMailerMessage } from "../missing-mailer.js";
import { storeWithMail } from "../token-mail-delivery.js";
import type { TokenMailTransaction } from "../token-mail-transaction.js";
import type { User } from "../users/user.js";
import type { EmailedTokenPurpose, EmailedTokenStore } from "./emailed-token-store.js";
import { issueEmailedToken } from "./emailed-tokens.js";

/** Where mail links may point: `APP_URL` and `ALLOWED_ORIGINS`. */
export interface LinkOriginOptions {
  readonly appUrl?: string | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
}

/** The origin for mail links, or a failure when none may be used (a configuration error). */
export function linkOriginOf(options: LinkOriginOptions, request: Request): Result<string, string> {
  try {
    return ok(
      mailLinkOrigin(request, {
        appUrl: options.appUrl,
        allowedOrigins: options.allowedOrigins ?? [],
      }),
    );
  } catch (error) {
    return fail((error as Error).message);
  }
}

/**
 * For a route that exists to send a mail: the origin for its links, or the plain-text 500 to
 * answer under a `missingMailer` (or none). A link origin that cannot be trusted is a
 * configuration error and throws.
 */
export function mailLinkOriginOrRefusal(
  options: LinkOriginOptions & { readonly mailer: Mailer | MissingMailer | undefined },
  request: Request,
): { ok: true; origin: string } | { ok: false; response: Response } {
  const { mailer } = options;
  if (mailer === undefined || "missingSetting" in mailer) {
    const setting = mailer?.missingSetting ?? "mailer";
    return {
      ok: false,
      // A configuration error, said in plain text: htmlPage would label it as HTML.
      response: new Response(noMailerMessage(setting), {
        status: 500,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      }),
    };
  }
  const origin = linkOriginOf(options, request);
  if (!origin.ok) throw new Error(origin.reason);
  return { ok: true, origin: origin.value };
}

/** What sending an emailed token's mail writes through. */
export interface AccountMailSending {
  /** A mailer that delivers; undefined sends nothing. */
  readonly mailer: Mailer | undefined;
  readonly tokenMailTransaction?: TokenMailTransaction | undefined;
  readonly emailedTokens: EmailedTokenStore;
  readonly reportMailError: (error: unknown, purpose: string) => void;
  readonly clock: Clock;
}

/**
 * Issues a token of `purpose` for the user and sends its mail, in `locale` (the request's),
 * without waiting for the delivery; a mailer that `stores` (an outbox) is awaited, so the
 * answer comes once the mail is safe. With a `tokenMailTransaction` both are written in one
 * transaction, and a failure there is reported like a failed mail (the previous token, if any,
 * stays as it was). Does nothing without a mailer.
 */
export async function sendAccountEmail(
  sending: AccountMailSending,
  user: User,
  purpose: EmailedTokenPurpose,
  origin: string,
  locale: Locale | undefined,
): Promise<void> {
  const { mailer, clock } = sending;
  if (!mailer) return;
  const mailing = {
    mailer,
    tokenMailTransaction: sending.tokenMailTransaction,
    stores: { emailedTokens: sending.emailedTokens },
    reportMailError: sending.reportMailError,
  };
  await storeWithMail(mailing, purpose, async ({ emailedTokens }) => {
    if (!emailedTokens) throw new Error("the token mail transaction has no emailed token store");
    const token = await issueEmailedToken(emailedTokens, user.id, purpose, clock);
    return accountEmail(purpose, { to: user.email, origin, token, locale });
  });
}
