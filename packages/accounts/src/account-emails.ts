import { html, type Locale } from "@tessera/core";
import type { MailMessage } from "@tessera/mail";
import { type AccountMessageId, accountMessages } from "./account-messages.js";
import { EMAIL_CODE_LIFETIME_MS } from "./email-code/email-codes.js";
import type { EmailedTokenPurpose } from "./email-link/emailed-token-store.js";
import { EMAILED_TOKEN_LIFETIME_MS, isEmailedTokenShape } from "./email-link/emailed-tokens.js";

interface AccountEmailContent {
  readonly subject: AccountMessageId;
  readonly path: string;
  readonly intro: AccountMessageId;
  readonly ignore: AccountMessageId;
}

// Subjects and paths are the documented ones (docs/routes.md, "The mails"); the sentences are ours.
const CONTENT: Readonly<Record<EmailedTokenPurpose, AccountEmailContent>> = {
  email_confirmation: {
    subject: "accounts.mail.confirmation_subject",
    path: "/confirmations/",
    intro: "accounts.mail.confirmation_intro",
    ignore: "accounts.mail.confirmation_ignore",
  },
  magic_link: {
    subject: "accounts.mail.magic_link_subject",
    path: "/magic_link/",
    intro: "accounts.mail.magic_link_intro",
    ignore: "accounts.mail.magic_link_ignore",
  },
  password_reset: {
    subject: "accounts.mail.password_reset_subject",
    path: "/passwords/",
    intro: "accounts.mail.password_reset_intro",
    ignore: "accounts.mail.password_reset_ignore",
  },
};

/** What an account mail is made of. */
export interface AccountEmailInput {
  /** The user's (normalized) address: the recipient, also named in the mail. */
  readonly to: string;
  /** Where the link points, as {@link mailLinkOrigin} returns it, e.g. `https://app.example`. */
  readonly origin: string;
  /** The token from `issueEmailedToken` for the same purpose. */
  readonly token: string;
  /** The language of the request that sends the mail (`context.locale`); English when absent. */
  readonly locale?: Locale | undefined;
}

/**
 * Builds the mail that carries an emailed token: `Confirm your email address` with
 * `{origin}/confirmations/<token>`, `Your sign-in link` with `{origin}/magic_link/<token>`, or
 * `Reset your password` with `{origin}/passwords/<token>`. The text part has the link alone on
 * its own line and says how long it is valid; the HTML part says the same, escaped. Subject and
 * sentences are in `input.locale` ({@link accountMessages}).
 * @throws RangeError when `origin` is not an http(s) origin or `token` is not a token (both are
 * the caller's values, never a visitor's).
 */
export function accountEmail(purpose: EmailedTokenPurpose, input: AccountEmailInput): MailMessage {
  if (!isEmailedTokenShape(input.token)) throw new RangeError("not an emailed token");
  const content = CONTENT[purpose];
  const link = `${checkedOrigin(input.origin)}${content.path}${input.token}`;
  const { locale } = input;
  const intro = accountMessages.text(locale, content.intro, { email: input.to });
  const lifetime = describeLifetime(EMAILED_TOKEN_LIFETIME_MS[purpose], locale);
  const validity = accountMessages.text(locale, "accounts.mail.validity", { lifetime });
  const outro = `${validity} ${accountMessages.text(locale, content.ignore)}`;
  return {
    to: input.to,
    subject: accountMessages.text(locale, content.subject),
    text: `${intro}\n\n${link}\n\n${outro}\n`,
    html: `${html`<p>${intro}</p>
<p><a href="${link}">${link}</a></p>
<p>${outro}</p>`}\n`,
  };
}

/** What the mail of an emailed sign-in code is made of. */
export interface EmailCodeMailInput {
  /** The user's (normalized) address: the recipient, also named in the mail. */
  readonly to: string;
  /** The code from `issueEmailCode`. */
  readonly code: string;
  /** The language of the request that sends the mail; English when absent. */
  readonly locale?: Locale | undefined;
}

/**
 * Builds the mail that carries a sign-in code: `Your sign-in code`, the six digits alone on
 * their own line (so a phone offers to copy them), how long they are valid, and what to do if
 * the mail was not asked for; the HTML part says the same, escaped.
 * @throws RangeError when `code` is not six digits (the caller's value, never a visitor's).
 */
export function emailCodeMail(input: EmailCodeMailInput): MailMessage {
  if (!/^\d{6}$/.test(input.code)) throw new RangeError("not an emailed sign-in code");
  const { locale, code } = input;
  const intro = accountMessages.text(locale, "accounts.mail.email_code_intro", { email: input.to });
  const lifetime = describeLifetime(EMAIL_CODE_LIFETIME_MS, locale);
  const validity = accountMessages.text(locale, "accounts.mail.email_code_validity", { lifetime });
  const outro = `${validity} ${accountMessages.text(locale, "accounts.mail.email_code_ignore")}`;
  return {
    to: input.to,
    subject: accountMessages.text(locale, "accounts.mail.email_code_subject"),
    text: `${intro}\n\n${code}\n\n${outro}\n`,
    html: `${html`<p>${intro}</p>
<p style="font-size: 1.5em; letter-spacing: 0.2em"><strong>${code}</strong></p>
<p>${outro}</p>`}\n`,
  };
}

/** Where mail links may point. */
export interface MailLinkOriginOptions {
  /** `APP_URL`: the app's public address (only its origin is used). */
  readonly appUrl?: string | undefined;
  /** `ALLOWED_ORIGINS`, parsed (e.g. with `parseAllowedOrigins` of @tessera/http). */
  readonly allowedOrigins?: readonly string[] | undefined;
}

/**
 * The origin for links in mails sent while answering `request`. The request's own origin (from
 * its URL, so from `Host`) is used only when it is `APP_URL`'s origin or in `allowedOrigins`;
 * otherwise `APP_URL`'s origin: a forged `Host` never receives a token. The `Origin` header
 * plays no part. Without `APP_URL`, an unlisted request origin is accepted only on a loopback
 * host (development on localhost, where the link reaches no one else).
 * Call it before looking the account up, so a configuration error cannot tell accounts apart.
 * @throws Error when `APP_URL` is not set and the request's origin is neither listed nor
 * loopback, or when `APP_URL` is not an http(s) URL: configuration errors.
 */
export function mailLinkOrigin(request: Request, options: MailLinkOriginOptions): string {
  const requestUrl = new URL(request.url);
  const requestOrigin = requestUrl.origin;
  const listed = (options.allowedOrigins ?? []).map((entry) => httpUrl(entry)?.origin);
  if (options.appUrl === undefined || options.appUrl === "") {
    if (listed.includes(requestOrigin) || isLoopbackUrl(requestUrl)) return requestOrigin;
    throw new Error(
      `APP_URL is not set, so mail links cannot point to ${requestOrigin}: set APP_URL to the app's public address`,
    );
  }
  const appOrigin = httpUrl(options.appUrl)?.origin;
  if (appOrigin === undefined) throw new Error("APP_URL is not an http(s) URL");
  return requestOrigin === appOrigin || listed.includes(requestOrigin) ? requestOrigin : appOrigin;
}

/** The text as an http(s) URL, or undefined when it is none. */
function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

function isLoopbackUrl(url: URL): boolean {
  const { protocol, hostname } = url;
  if (protocol !== "http:" && protocol !== "https:") return false;
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}

function checkedOrigin(origin: string): string {
  const url = httpUrl(origin);
  // Only a bare origin (a trailing "/" allowed): a path, query or credentials would otherwise
  // be silently dropped or end up inside the link.
  if (!url || url.href !== `${url.origin}/`) {
    throw new RangeError(`not an http(s) origin: ${origin}`);
  }
  return url.origin;
}

function describeLifetime(milliseconds: number, locale: Locale | undefined): string {
  const hours = milliseconds / 3_600_000;
  if (Number.isInteger(hours)) {
    return hours === 1
      ? accountMessages.text(locale, "accounts.mail.one_hour")
      : accountMessages.text(locale, "accounts.mail.hours", { hours });
  }
  const minutes = Math.round(milliseconds / 60_000);
  return minutes === 1
    ? accountMessages.text(locale, "accounts.mail.one_minute")
    : accountMessages.text(locale, "accounts.mail.minutes", { minutes });
}
