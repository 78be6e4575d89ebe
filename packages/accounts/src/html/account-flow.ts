import { fail, type Locale, type MessageParams, ok, type Result, systemClock } from "@tessera/core";
import type { PageContext, RouteMiddleware } from "@tessera/http";
import {
  attemptRateLimit,
  authenticated,
  DEFAULT_MAXIMUM_BODY_BYTES,
  htmlPage,
  rateLimit,
  readFormBody,
} from "@tessera/http";
import { optionalUser, sessionAuthentication, signOutDevice } from "@tessera/session";
import { accountEmail, mailLinkOrigin } from "../account-emails.js";
import { accountEvents, type SignInMethod } from "../account-hooks.js";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import type { EmailedTokenPurpose } from "../email-link/emailed-token-store.js";
import {
  consumeEmailedToken,
  issueEmailedToken,
  peekEmailedToken,
} from "../email-link/emailed-tokens.js";
import { reportMailErrorToStderr } from "../mail-error-report.js";
import { deliversMail, noMailerMessage } from "../missing-mailer.js";
import { isRecentFullSignIn } from "../sign-in/recent-sign-in.js";
import { readSessionAuthentication } from "../sign-in/session-authentication.js";
import { sessionSignIns } from "../sign-in/session-sign-ins.js";
import type { SignInProof } from "../sign-in/sign-in-factors.js";
import type { SessionSignInOutcome } from "../sign-in/sign-in-grant.js";
import { storeWithMail } from "../token-mail-delivery.js";
import type { User } from "../users/user.js";
import type {
  HtmlAccountRoutesOptions,
  HtmlRequestContext,
  SignedInContext,
} from "./html-routes-options.js";

const FORM_MEGABYTES = DEFAULT_MAXIMUM_BODY_BYTES / (1024 * 1024);

export {
  PENDING_MFA_REMEMBER,
  PENDING_MFA_TOKEN,
  SECOND_FACTOR_PATH,
} from "../sign-in/sign-in-grant.js";
/**
 * The first factor of a waiting sign-in, as sessions kept it before the challenge did: only
 * read, for a challenge stored before its first factor was.
 */
export const PENDING_MFA_METHOD = "mfa_method";
// Session values allow no underscore: each method is kept under a name of its own.
const METHOD_IN_SESSION: Readonly<Record<SignInMethod, string>> = {
  password: "password",
  email_link: "email-link",
  email_code: "email-code",
  oauth: "oauth",
  passkey: "passkey",
};

/**
 * The sign-in method a waiting sign-in started with, as a session written before the challenge
 * kept it says (`password` when it says nothing).
 */
export function pendingSignInMethod(value: string | undefined): SignInMethod {
  const entry = Object.entries(METHOD_IN_SESSION).find(([, stored]) => stored === value);
  return (entry?.[0] as SignInMethod | undefined) ?? "password";
}

/** The page's sentence for a body that is not an urlencoded form, in English. */
export const UNREADABLE_FORM_MESSAGE = accountMessages.english["accounts.unreadable_form"];
/** The page's sentence for a form over the 1 MiB an account form may be, in English. */
export const FORM_TOO_LARGE_MESSAGE = accountMessages.text(undefined, "accounts.form_too_large", {
  megabytes: FORM_MEGABYTES,
});

/**
 * The steps every HTML account route shares, bound to the routes' options: loading the user,
 * the page context, form reading, rate limits and mail delivery.
 */
export function accountFlow(options: HtmlAccountRoutesOptions) {
  const clock = options.clock ?? systemClock;
  const passwordOptions = { clock, ...(options.passwords ? { passwords: options.passwords } : {}) };
  const reportMailError = options.onMailError ?? reportMailErrorToStderr;

  const events = options.events ?? accountEvents();
  const signIns =
    options.signIns ??
    sessionSignIns({
      sessions: options.sessions,
      events,
      clock,
      secondFactors: options.secondFactors,
    });
  const mailer = deliversMail(options.mailer) ? options.mailer : undefined;

  const flow = {
    clock,
    events,
    signIns,
    passwordOptions,
    reportMailError,
    /** Whether mails are really delivered: only then may a page say one was sent. */
    deliversMail: mailer !== undefined,
    /**
     * Whether the pages offer what takes a mail (sign-in links, password reset, a new
     * confirmation link): with a mailer, and with a `missingMailer`, whose routes answer 500.
     */
    offersEmailLinks: options.mailer !== undefined,

    loadUser: (id: number): Promise<User | undefined> => options.users.findById(id),

    currentUser: (context: HtmlRequestContext) => optionalUser(context.session, flow.loadUser),

    /**
     * Takes the waiting flashes: call it once, for the page being rendered. The page is written
     * in the request's locale.
     */
    pageContext(context: HtmlRequestContext, user: User | undefined): PageContext {
      return {
        signedInEmail: user?.email,
        flashes: context.session.takeFlashes(),
        cspNonce: context.cspNonce,
        ...(context.locale === undefined ? {} : { locale: context.locale }),
      };
    },

    /** Puts a flash of {@link accountMessages} in the session, in the request's locale. */
    flash(
      context: HtmlRequestContext,
      kind: "notice" | "alert",
      id: AccountMessageId,
      params?: MessageParams,
    ): void {
      context.session.flash(kind, accountMessages.text(context.locale, id, params));
    },

    /** Whether the sessions record devices (then the pages link the device list). */
    tracksDevices: options.sessions.trackedSessions !== undefined,

    /**
     * Ends a way in through the sign-in grant's cookie transport (`grantSessionSignIn`): not
     * signed in while the user's second factor is due or `beforeSignIn` refused (send the
     * browser to the outcome's `continueAt`). Every HTML sign-in of accounts goes through here.
     */
    grantSignIn(
      user: User,
      proof: SignInProof,
      request: Request,
      context: HtmlRequestContext,
      signInOptions: { readonly rememberMe?: boolean } = {},
    ): Promise<SessionSignInOutcome> {
      return signIns.grant(user, proof, request, context, signInOptions);
    },

    /**
     * Whether this browser's sign-in (or its last confirming it is them) is a recent, full one
     * of `user` (see `isRecentFullSignIn`): what changing credentials and factors needs.
     */
    recentFullSignIn(
      context: HtmlRequestContext,
      user: User,
      confirmed: { readonly passwordConfirmed?: boolean } = {},
    ): Promise<boolean> {
      const parts = { clock, secondFactors: options.secondFactors };
      const authentication = readSessionAuthentication(context.session);
      return isRecentFullSignIn(parts, user, authentication, confirmed);
    },

    /** Signs out, ending this device's row when tracked. */
    signOut: (context: HtmlRequestContext): Promise<void> =>
      signOutDevice(options.sessions, context),

    /** Uses an emailed token of `purpose` up: its owner, or `invalid`. */
    consumeToken: (token: string, purpose: EmailedTokenPurpose) =>
      consumeEmailedToken(options.emailedTokens, token, purpose, clock),

    /** Checks an emailed token of `purpose` without using it up. */
    peekToken: (token: string, purpose: EmailedTokenPurpose) =>
      peekEmailedToken(options.emailedTokens, token, purpose, clock),

    /**
     * The form's values, or the page that refuses a body which is not one: 413 over the size
     * cap, else 400. A browser sends neither, but the answer is still a page, as on every
     * HTML route (the JSON envelope would show a person raw JSON).
     */
    async readForm(
      request: Request,
      context: HtmlRequestContext,
    ): Promise<{ ok: true; value: URLSearchParams } | { ok: false; response: Response }> {
      const form = await readFormBody(request);
      if (form.ok) return form;
      const tooLarge = form.reason === "too-large";
      const user = await flow.currentUser(context);
      const { locale } = context;
      const page = options.pages.unreadableForm({
        context: flow.pageContext(context, user),
        title: accountMessages.text(
          locale,
          tooLarge ? "accounts.form_too_large_title" : "accounts.bad_request_title",
        ),
        message: tooLarge
          ? accountMessages.text(locale, "accounts.form_too_large", { megabytes: FORM_MEGABYTES })
          : accountMessages.text(locale, "accounts.unreadable_form"),
      });
      return { ok: false, response: htmlPage(tooLarge ? 413 : 400, page) };
    },

    /**
     * A route middleware requiring a signed-in user, put in `context.user`; anyone else gets
     * the 303 to sign-in of `requireUser`.
     */
    signedIn(): RouteMiddleware<HtmlRequestContext, SignedInContext> {
      return authenticated<{ readonly user: User }, HtmlRequestContext>(
        sessionAuthentication(flow.loadUser),
      );
    },

    /** The 429 page, with `Retry-After`, of every rate-limited HTML account route. */
    async tooManyRequestsPage(
      context: HtmlRequestContext,
      retryAfterSeconds: number,
    ): Promise<Response> {
      const user = await flow.currentUser(context);
      return htmlPage(
        429,
        options.pages.tooManyRequests({ context: flow.pageContext(context, user) }),
        { "Retry-After": String(retryAfterSeconds) },
      );
    },

    /**
     * A route middleware counting one attempt of `group` for the client before the handler
     * runs, and answering {@link tooManyRequestsPage} once it is over the limit.
     */
    rateLimit<C extends HtmlRequestContext = HtmlRequestContext>(
      group: string,
    ): RouteMiddleware<C, C> {
      return rateLimit<C>({
        limiter: options.rateLimiter,
        group,
        refusal: (_request, context, seconds) => flow.tooManyRequestsPage(context, seconds),
      });
    },

    /**
     * One attempt of `group` for each key, in order (the client's, `rateLimitClientKey`, then
     * each target's, `email:<address>`), and the 429 page once one is over the limit. The keys
     * after a refused one are not counted, so a refused stranger neither adds counters nor uses
     * up a target's allowance. Mail routes call it in their handler, once they know the target.
     */
    async refuseOverLimit(
      context: HtmlRequestContext,
      group: string,
      keys: readonly string[],
    ): Promise<Response | undefined> {
      const retryAfter = await attemptRateLimit(options.rateLimiter, group, keys);
      return retryAfter === undefined ? undefined : flow.tooManyRequestsPage(context, retryAfter);
    },

    /**
     * For a route that exists to send a mail: the origin for its links, or the 500 to answer
     * under a `missingMailer`. A link origin that cannot be trusted is a configuration
     * error and throws.
     */
    mailLinkOriginOrRefusal(
      request: Request,
    ): { ok: true; origin: string } | { ok: false; response: Response } {
      if (!mailer) {
        const setting =
          options.mailer && "missingSetting" in options.mailer
            ? options.mailer.missingSetting
            : "mailer";
        return {
          ok: false,
          // A configuration error, said in plain text: htmlPage would label it as HTML.
          response: new Response(noMailerMessage(setting), {
            status: 500,
            headers: { "Content-Type": "text/plain; charset=utf-8" },
          }),
        };
      }
      const origin = flow.linkOrigin(request);
      if (!origin.ok) throw new Error(origin.reason);
      return { ok: true, origin: origin.value };
    },

    /** The origin for mail links, or a failure when none may be used (a configuration error). */
    linkOrigin(request: Request): Result<string, string> {
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
    },

    /**
     * Issues a token of `purpose` for the user and sends its mail, in `locale` (the request's),
     * without waiting for the delivery (see `onMailError`); a mailer that `stores` (an outbox)
     * is awaited, so the answer comes once the mail is safe. With a `tokenMailTransaction`
     * both are written in one transaction, and a failure there is reported like a failed
     * mail (the previous token, if any, stays as it was). Does nothing without a mailer.
     */
    async sendAccountEmail(
      user: User,
      purpose: EmailedTokenPurpose,
      origin: string,
      locale: Locale | undefined,
    ): Promise<void> {
      if (!mailer) return;
      const mailing = {
        mailer,
        tokenMailTransaction: options.tokenMailTransaction,
        stores: { emailedTokens: options.emailedTokens },
        reportMailError,
      };
      await storeWithMail(mailing, purpose, async ({ emailedTokens }) => {
        if (!emailedTokens)
          throw new Error("the token mail transaction has no emailed token store");
        const token = await issueEmailedToken(emailedTokens, user.id, purpose, clock);
        return accountEmail(purpose, { to: user.email, origin, token, locale });
      });
    },
  };
  return flow;
}

/** The shared steps of the HTML account routes. */
export type AccountFlow = ReturnType<typeof accountFlow>;
