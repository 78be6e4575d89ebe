import type { PageContext } from "@tessera/http";
import {
  htmlPage,
  NO_REFERRER,
  type Route,
  type RouteHandler,
  rateLimitClientKey,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import { hashPassword } from "@tessera/password";
import { endOtherTrackedSessions, type MaybeSessionContext, pageSafety } from "@tessera/session";
import { type AccountMessageId, accountMessages } from "../account-messages.js";
import { readAccountForm } from "../html/account-form.js";
import {
  accountPageContext,
  currentPageUser,
  flashAccountMessage,
} from "../html/account-page-context.js";
import { htmlAccountParts } from "../html/html-account-parts.js";
import type {
  HtmlAccountRoutesOptions,
  HtmlRequestContext,
  SignedInContext,
} from "../html/html-routes-options.js";
import { pageRateLimit, refusePageOverLimit } from "../html/page-rate-limits.js";
import { signedInPage } from "../html/signed-in-page.js";
import { answerAfterFloor } from "../mail-answer-floor.js";
import { addFieldError, type FieldErrors } from "../messages.js";
import { checkNewPassword } from "../password/new-password-check.js";
import { normalizeSubmittedEmail } from "../users/email.js";
import { mailLinkOriginOrRefusal, sendAccountEmail } from "./account-mail-sending.js";
import type { EmailedTokenPurpose } from "./emailed-token-store.js";
import { consumeEmailedToken, peekEmailedToken } from "./emailed-tokens.js";
import { pathToken } from "./path-token.js";

/** The message when the confirmation differs (on `password_confirmation`), in English. */
export const CONFIRMATION_MISMATCH = accountMessages.english["accounts.confirmation_mismatch"];

type Handler = Route<HtmlRequestContext>["handle"];

/**
 * The HTML routes of emailed links: sign-in links (`GET|POST /magic_link`,
 * `GET|POST /magic_link/:token`), password reset (`GET /passwords/new`, `POST /passwords`,
 * `GET|POST /passwords/:token`) and confirmation (`POST /confirmations`,
 * `GET|POST /confirmations/:token`). Link requests answer the same, as fast, whether or not
 * the account exists (no sooner than `answerAfterFloor`'s floor, which the lookup, the token
 * and its mail fit within) and are limited per client and per target email. A `GET` of a link
 * only shows a button (with `Referrer-Policy: no-referrer`); the `POST` uses the token up. Safe mounted anywhere: see {@link pageSafety}. None without a
 * `mailer` (an app that sends no mail): they would offer what cannot be sent.
 */
export function htmlEmailLinkRoutes(
  options: HtmlAccountRoutesOptions,
): Route<MaybeSessionContext>[] {
  // An app that sends no mail has none of these: the pages do not offer them either.
  if (options.mailer === undefined) return [];
  const parts = htmlAccountParts(options);
  const consumeToken = (token: string, purpose: EmailedTokenPurpose) =>
    consumeEmailedToken(options.emailedTokens, token, purpose, parts.clock);
  const peekToken = (token: string, purpose: EmailedTokenPurpose) =>
    peekEmailedToken(options.emailedTokens, token, purpose, parts.clock);
  const loadUser = (id: number) => options.users.findById(id);
  const mailSending = {
    ...parts,
    emailedTokens: options.emailedTokens,
    tokenMailTransaction: options.tokenMailTransaction,
  };
  const { pages } = options;

  /** POST of an email form: the same 303 and flash for every address. */
  async function requestLink(
    request: Request,
    context: HtmlRequestContext,
    purpose: Extract<EmailedTokenPurpose, "magic_link" | "password_reset">,
    sentMessage: AccountMessageId,
  ): Promise<Response> {
    const form = await readAccountForm(request, context, options);
    if (!form.ok) return form.response;
    // Undefined for text longer than any address: no account has it, so it gets the answer of
    // an unknown address without being counted, and a stranger cannot grow the counters with it.
    const email = normalizeSubmittedEmail(form.value.get("email") ?? "");
    // Counted here, not by a middleware: a body that names no address touches no store.
    if (email !== undefined) {
      const client = rateLimitClientKey(context.clientAddress);
      const limited = await refusePageOverLimit(options, context, purpose, [
        client,
        `email:${email}`,
      ]);
      if (limited) return limited;
    }
    // Decided before the lookup, so a configuration error cannot tell which accounts exist.
    const mail = mailLinkOriginOrRefusal(options, request);
    if (!mail.ok) return mail.response;
    await answerAfterFloor(async () => {
      const user = email ? await options.users.findByEmail(email) : undefined;
      if (user) await sendAccountEmail(mailSending, user, purpose, mail.origin, context.locale);
    });
    flashAccountMessage(context, "notice", sentMessage);
    return seeOther("/login");
  }

  /** GET of a link: a page with one button, never using the token up. */
  async function buttonPage(
    context: HtmlRequestContext,
    render: (view: { context: PageContext; token: string }) => string,
    token: string,
  ): Promise<Response> {
    const user = await currentPageUser(context, options.users);
    return htmlPage(
      200,
      render({ context: accountPageContext(context, user), token }),
      NO_REFERRER,
    );
  }

  async function newPasswordPage(
    context: HtmlRequestContext,
    token: string,
    status: number,
    errors: FieldErrors,
  ): Promise<Response> {
    const user = await currentPageUser(context, options.users);
    const html = pages.newPassword({
      context: accountPageContext(context, user),
      token,
      errors,
      offerSignOutEverywhere: parts.tracksDevices,
    });
    return htmlPage(status, html, NO_REFERRER);
  }

  function refuseLink(
    context: HtmlRequestContext,
    message: AccountMessageId,
    location: string,
  ): Response {
    flashAccountMessage(context, "alert", message);
    return seeOther(location);
  }

  const handlers = {
    async magicLinkForm(_request, context) {
      const user = await currentPageUser(context, options.users);
      return htmlPage(200, pages.magicLinkRequest({ context: accountPageContext(context, user) }));
    },

    requestMagicLink: (request, context) =>
      requestLink(request, context, "magic_link", "accounts.magic_link_sent"),

    magicLinkPage: (_request, context) =>
      buttonPage(context, pages.magicLinkConfirm, pathToken(context)),

    async useMagicLink(request, context) {
      const token = pathToken(context);
      const owner = await consumeToken(token, "magic_link");
      const user = owner.ok ? await loadUser(owner.value.userId) : undefined;
      if (!user) return refuseLink(context, "accounts.magic_link_invalid", "/magic_link");
      // The link proved the address: a sign-in link confirms it.
      await options.users.confirm(user.id, parts.clock());
      const outcome = await parts.signIns.grant(user, { method: "email_link" }, request, context);
      if (!outcome.signedIn) return seeOther(outcome.continueAt);
      flashAccountMessage(context, "notice", "accounts.signed_in");
      return seeOther("/");
    },

    async passwordResetForm(_request, context) {
      const user = await currentPageUser(context, options.users);
      return htmlPage(
        200,
        pages.passwordResetRequest({ context: accountPageContext(context, user) }),
      );
    },

    requestPasswordReset: (request, context) =>
      requestLink(request, context, "password_reset", "accounts.password_reset_sent"),

    async newPasswordForm(_request, context) {
      const token = pathToken(context);
      const owner = await peekToken(token, "password_reset");
      if (!owner.ok)
        return refuseLink(context, "accounts.password_reset_invalid", "/passwords/new");
      return newPasswordPage(context, token, 200, {});
    },

    async resetPassword(request, context) {
      const token = pathToken(context);
      const valid = await peekToken(token, "password_reset");
      if (!valid.ok)
        return refuseLink(context, "accounts.password_reset_invalid", "/passwords/new");
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      const password = form.value.get("password") ?? "";
      const errors: FieldErrors = {};
      const refused = await checkNewPassword(password, {
        breachedPasswords: options.breachedPasswords,
        locale: context.locale,
      });
      for (const message of refused) addFieldError(errors, "password", message);
      if ((form.value.get("password_confirmation") ?? "") !== password) {
        // Written in the request's locale here: the page shows it as it is.
        const mismatch = accountMessages.text(context.locale, "accounts.confirmation_mismatch");
        addFieldError(errors, "password_confirmation", mismatch);
      }
      // A form with an error keeps its token: it was only peeked at.
      if (Object.keys(errors).length > 0) return newPasswordPage(context, token, 422, errors);
      const owner = await consumeToken(token, "password_reset");
      if (!owner.ok)
        return refuseLink(context, "accounts.password_reset_invalid", "/passwords/new");
      const digest = await hashPassword(password, options.passwords);
      const now = parts.clock();
      await options.users.updatePasswordDigest(owner.value.userId, digest, now);
      // The reset link proved the address too.
      await options.users.confirm(owner.value.userId, now);
      flashAccountMessage(context, "notice", "accounts.password_changed");
      const devices = options.sessions.trackedSessions;
      const signOutEverywhere =
        devices !== undefined && form.value.get("sign_out_everywhere") === "1";
      await parts.events.audited(
        "user.password_reset",
        owner.value.userId,
        { ...context, request },
        {
          details: { signed_out_others: signOutEverywhere },
        },
      );
      if (devices && signOutEverywhere) {
        const ended = await endOtherTrackedSessions(devices, owner.value.userId);
        if (context.session.userId === owner.value.userId) context.session.signOut();
        flashAccountMessage(context, "notice", "accounts.other_sessions_ended", { count: ended });
      }
      return seeOther("/login");
    },

    confirmationPage: (_request, context) =>
      buttonPage(context, pages.confirmationConfirm, pathToken(context)),

    async confirm(_request, context) {
      const token = pathToken(context);
      const owner = await consumeToken(token, "email_confirmation");
      if (!owner.ok) return refuseLink(context, "accounts.confirmation_invalid", "/");
      await options.users.confirm(owner.value.userId, parts.clock());
      flashAccountMessage(context, "notice", "accounts.confirmed");
      return seeOther("/account");
    },
  } satisfies Record<string, Handler>;

  const signedInHandlers = {
    async resendConfirmation(request, context) {
      const { user } = context;
      if (user.confirmedAt !== null) {
        flashAccountMessage(context, "notice", "accounts.already_confirmed");
        return seeOther("/account");
      }
      // The client was counted by the route's middleware; the target's address is counted here.
      const limited = await refusePageOverLimit(options, context, "email_confirmation", [
        `email:${user.email}`,
      ]);
      if (limited) return limited;
      const mail = mailLinkOriginOrRefusal(options, request);
      if (!mail.ok) return mail.response;
      await sendAccountEmail(mailSending, user, "email_confirmation", mail.origin, context.locale);
      flashAccountMessage(context, "notice", "accounts.confirmation_sent");
      return seeOther("/account");
    },
  } satisfies Record<string, RouteHandler<SignedInContext>>;

  /** A `POST` route counting `group` per client before its handler. */
  const limitedPost = (group: string, path: string, handle: Handler) =>
    withMiddleware([{ method: "POST", path, handle }], pageRateLimit(options, group));
  return withMiddleware(
    [
      { method: "GET", path: "/magic_link", handle: handlers.magicLinkForm },
      { method: "POST", path: "/magic_link", handle: handlers.requestMagicLink },
      { method: "GET", path: "/magic_link/:token", handle: handlers.magicLinkPage },
      ...limitedPost("magic_link_use", "/magic_link/:token", handlers.useMagicLink),
      { method: "GET", path: "/passwords/new", handle: handlers.passwordResetForm },
      { method: "POST", path: "/passwords", handle: handlers.requestPasswordReset },
      { method: "GET", path: "/passwords/:token", handle: handlers.newPasswordForm },
      ...limitedPost("password_reset_use", "/passwords/:token", handlers.resetPassword),
      // Signed in first: a stranger is sent to sign in without using up the client's attempts.
      ...withMiddleware(
        [{ method: "POST", path: "/confirmations", handle: signedInHandlers.resendConfirmation }],
        signedInPage(options.users),
        pageRateLimit<SignedInContext>(options, "email_confirmation"),
      ),
      { method: "GET", path: "/confirmations/:token", handle: handlers.confirmationPage },
      ...limitedPost("email_confirmation_use", "/confirmations/:token", handlers.confirm),
    ],
    pageSafety(options),
  );
}
