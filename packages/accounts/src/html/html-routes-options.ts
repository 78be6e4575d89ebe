import type { Clock } from "@tessera/crypto";
import type { Mailer } from "@tessera/mail";
import type { PasswordHashOptions } from "@tessera/password";
import type { RateLimiter } from "@tessera/ratelimit";
import type { Session, TrackedSessionStore } from "@tessera/session";
import type { MailLinkOriginOptions } from "../account-emails.js";
import type { EmailedTokenStore } from "../emailed-token-store.js";
import type { RequestContext } from "../json-routes-options.js";
import type { OperatorColumn } from "../operator-columns.js";
import type { User } from "../user.js";
import type { UserStore } from "../user-store.js";
import type { AccountPages } from "./account-pages.js";

/** What an HTML handler gets besides the Request: the client address and the cookie session. */
export interface HtmlRequestContext extends RequestContext {
  /** Read before the handler runs; the framework commits it onto the response afterwards. */
  readonly session: Session;
}

/** A ready HTML route handler. */
export type HtmlRouteHandler = (request: Request, context: HtmlRequestContext) => Promise<Response>;

/** A ready HTML route handler for a path that carries an emailed token. */
export type HtmlTokenRouteHandler = (
  request: Request,
  context: HtmlRequestContext,
  token: string,
) => Promise<Response>;

/** What the HTML account routes are built from. */
export interface HtmlAccountRoutesOptions {
  readonly users: UserStore;
  readonly operatorColumns?: readonly OperatorColumn[];
  readonly emailedTokens: EmailedTokenStore;
  /**
   * Where account mails go. Undefined (production without `MAIL_ADAPTER`) makes the routes
   * that exist to send a mail answer 500; sign-up then sends no confirmation mail.
   */
  readonly mailer: Mailer | undefined;
  /** `APP_URL` and `ALLOWED_ORIGINS`: which origin mail links may use. */
  readonly mailLinks: MailLinkOriginOptions;
  /** Limits every route that checks a password or sends a mail (per client, and per email). */
  readonly rateLimiter: RateLimiter;
  readonly pages: AccountPages;
  readonly clock?: Clock;
  readonly passwords?: PasswordHashOptions;
  /**
   * Mails are sent after the answer, so a mail route answers alike, and as fast, whether or not
   * the account exists. A failed delivery is reported here (default: one line on stderr naming
   * the recipient's purpose, never the token).
   */
  readonly onMailError?: (error: unknown, purpose: string) => void;
  /**
   * Runs after every sign-in these routes make (sign-up, login, sign-in link), once the session
   * was emptied and holds the user: where tracked sessions record the device.
   */
  readonly afterSignIn?: (
    user: User,
    request: Request,
    context: HtmlRequestContext,
  ) => Promise<void>;
  /** Runs at logout before the session is emptied: where tracked sessions delete the device. */
  readonly beforeSignOut?: (request: Request, context: HtmlRequestContext) => Promise<void>;
  /**
   * With tracked sessions on: the password reset form offers to sign out of every other
   * session, so a password change can also end every other device's session.
   */
  readonly trackedSessions?: TrackedSessionStore;
}
