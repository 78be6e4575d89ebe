import type { Clock } from "@tessera/core";
import type { Mailer } from "@tessera/mail";
import type { PasswordHashOptions } from "@tessera/password";
import type { RateLimiter } from "@tessera/ratelimit";
import type { HtmlRouteContext, HtmlRouteSafety } from "@tessera/session";
import type { AccountEvents } from "../account-hooks.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { EmailChangeStore } from "../email-change/email-change-store.js";
import type { EmailedTokenStore } from "../email-link/emailed-token-store.js";
import type { MissingMailer } from "../missing-mailer.js";
import type { AccountNotices } from "../notice-mail-delivery.js";
import type { Passkeys } from "../passkey/passkeys.js";
import type { BreachedPasswordCheck } from "../password/breached-passwords.js";
import type { OperatorColumn } from "../profile/operator-columns.js";
import type { SecondFactors } from "../second-factor/second-factors.js";
import type { AccountThrottle } from "../sign-in/account-throttle.js";
import type { SessionSignIns } from "../sign-in/session-sign-ins.js";
import type { TokenMailTransaction } from "../token-mail-transaction.js";
import type { User } from "../users/user.js";
import type { UserStore } from "../users/user-store.js";
import type { AccountPages } from "./account-pages.js";

/**
 * What an HTML handler gets besides the Request: params, client address, cookie session, and
 * the CSP nonce of its page.
 */
export type HtmlRequestContext = HtmlRouteContext;

/** The context of an HTML route that requires a signed-in user: `user`, loaded from the session. */
export type SignedInContext = HtmlRequestContext & { readonly user: User };

/** What the HTML account routes are built from. */
export interface HtmlAccountRoutesOptions extends HtmlRouteSafety {
  readonly users: UserStore;
  readonly operatorColumns?: readonly OperatorColumn[] | undefined;
  readonly emailedTokens: EmailedTokenStore;
  /**
   * Where account mails go. Undefined: the app sends no mail, so the pages offer no sign-in
   * links, password reset or confirmation mails and `htmlEmailLinkRoutes` mounts nothing. A
   * `missingMailer(setting)` (production without `MAIL_ADAPTER`) keeps them offered and makes
   * the routes that send a mail answer 500 naming the setting. Neither says a mail was sent.
   */
  readonly mailer: Mailer | MissingMailer | undefined;
  /**
   * Stores each emailed token and its mail in one transaction (`sqlTokenMailTransaction` of
   * `@tessera/accounts/sql`, with an outbox mailer): a crash or a failed write then never keeps
   * a token whose mail was lost. Without it the token is written, then the mail handed over.
   */
  readonly tokenMailTransaction?: TokenMailTransaction | undefined;
  /**
   * `APP_URL`: mail links use the request's origin only when it is this one or one of
   * `allowedOrigins`; otherwise this one (a forged `Host` never receives a token).
   */
  readonly appUrl?: string | undefined;
  /** Limits every route that checks a password or sends a mail (per client, and per email). */
  readonly rateLimiter: RateLimiter;
  /**
   * Slows down guesses at one account, from however many clients (`accountThrottle`;
   * `accountRoutes` always gives one). Without it, passwords and second-factor answers are
   * limited per client only.
   */
  readonly throttle?: AccountThrottle | undefined;
  /** Where the owner of an account whose guesses start waiting is told. */
  readonly notices?: AccountNotices | undefined;
  readonly pages: AccountPages;
  readonly clock?: Clock | undefined;
  readonly passwords?: PasswordHashOptions | undefined;
  /** Refuses a new password (sign-up, reset, change) seen in data breaches (`pwnedPasswords`). */
  readonly breachedPasswords?: BreachedPasswordCheck | undefined;
  /**
   * Mails are sent after the answer, so a mail route answers alike, and as fast, whether or not
   * the account exists. A failed delivery is reported here (default: one line on stderr naming
   * the recipient's purpose, never the token).
   */
  readonly onMailError?: ((error: unknown, purpose: string) => void) | undefined;
  /** Where sign-ups, sign-ins and deletions are announced (`accountEvents({ hooks })`). */
  readonly events?: AccountEvents | undefined;
  /**
   * The sign-in grant's cookie transport (`accountRoutes(...).signIns`), shared with the ways
   * in other packages add; default: one made from these options.
   */
  readonly signIns?: SessionSignIns | undefined;
  /**
   * Second factors: a user who turned one on is signed in (by password or sign-in link) only
   * after answering it on `/login/second_factor`.
   */
  readonly secondFactors?: SecondFactors | undefined;
  /** Passkeys: the login page offers signing in with one (see `htmlPasskeySignInRoutes`). */
  readonly passkeys?: Passkeys | undefined;
  /** The audit trail: the account page links `/account/activity` (see `htmlActivityRoutes`). */
  readonly auditLog?: AuditLog | undefined;
  /** Pending email changes: the account page links `/account/email` (see `emailChangeRoutes`). */
  readonly emailChanges?: EmailChangeStore | undefined;
}
