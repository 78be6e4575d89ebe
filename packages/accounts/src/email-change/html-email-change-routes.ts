import {
  htmlPage,
  NO_REFERRER,
  type Route,
  type RouteHandler,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import { type MaybeSessionContext, pageSafety } from "@tessera/session";
import { accountMessages } from "../account-messages.js";
import { mailLinkOriginOrRefusal } from "../email-link/account-mail-sending.js";
import { pathToken } from "../email-link/path-token.js";
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
import { addFieldError, type FieldErrors } from "../messages.js";
import { deliversMail } from "../missing-mailer.js";
import { judgeCurrentPassword } from "../password/current-password.js";
import { readSessionAuthentication } from "../sign-in/session-authentication.js";
import { normalizeEmail } from "../users/email.js";
import type { User } from "../users/user.js";
import { confirmEmailChange } from "./email-change-confirmation.js";
import type { EmailChangePages } from "./email-change-pages.js";
import { requestEmailChange } from "./email-change-request.js";
import type { EmailChangeStore } from "./email-change-store.js";
import { peekEmailChange } from "./email-change-tokens.js";
import { newEmailErrors } from "./new-email-address.js";

/** What the email change pages' routes are built from: the HTML routes' parts, store, pages. */
export interface HtmlEmailChangeRoutesOptions extends HtmlAccountRoutesOptions {
  readonly emailChanges: EmailChangeStore;
  readonly emailChangePages: EmailChangePages;
}

const REQUEST_GROUP = "email_change";

/**
 * The pages of changing the account's address, confirmed by the new one:
 * - `GET /account/email`, `POST /account/email` (signed in): the new address and the current
 *   password (none for a user without one, who needs a sign-in of the last 10 minutes); 303 to
 *   `/account` with `Check your new address for a confirmation link.`, a link mailed to the new
 *   address and a notice to the current one; 422 with the field messages; 403 when the sign-in
 *   is too old or lacks its second factor. Limited per client and per new address.
 * - `GET /email_changes/:token`: a page naming the new address with a Confirm button (the token
 *   is only looked at); `POST /email_changes/:token` uses it: 303 to `/account` with `Your email
 *   address has been changed.`. A link that cannot be used, or an address taken meanwhile, is a
 *   303 to `/account` with an alert. No sign-in needed: the link is the proof, and may be opened
 *   in another browser. Limited per client.
 * None without a `mailer`; with a `missingMailer`, `POST /account/email` answers 500 naming its
 * setting. Safe mounted anywhere: see {@link pageSafety}.
 */
export function htmlEmailChangeRoutes(
  options: HtmlEmailChangeRoutesOptions,
): Route<MaybeSessionContext>[] {
  if (options.mailer === undefined) return [];
  const parts = htmlAccountParts(options);
  const pages = options.emailChangePages;
  const proof = {
    users: options.users,
    clock: parts.clock,
    passwords: options.passwords,
    secondFactors: options.secondFactors,
  };
  const confirmation = {
    users: options.users,
    emailChanges: options.emailChanges,
    events: parts.events,
    clock: parts.clock,
  };
  const mailing = deliversMail(options.mailer)
    ? {
        emailChanges: options.emailChanges,
        mailer: options.mailer,
        tokenMailTransaction: options.tokenMailTransaction,
        reportMailError: parts.reportMailError,
        clock: parts.clock,
      }
    : undefined;

  const formPage = (
    context: HtmlRequestContext,
    user: User,
    status: number,
    view: {
      email?: string | undefined;
      errors?: FieldErrors | undefined;
      error?: string | undefined;
    } = {},
  ) =>
    htmlPage(
      status,
      pages.emailChangeForm({
        context: accountPageContext(context, user),
        currentEmail: user.email,
        email: view.email ?? "",
        hasPassword: user.passwordDigest !== "",
        errors: view.errors ?? {},
        error: view.error,
      }),
    );

  const signedInHandlers = {
    changeForm: async (_request, context) => formPage(context, context.user, 200),

    async requestChange(request, context) {
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      const mail = mailLinkOriginOrRefusal(options, request);
      if (!mail.ok) return mail.response;
      const { user, locale } = context;
      const typed = form.value.get("email") ?? "";
      const judgement = await judgeCurrentPassword(
        proof,
        user,
        readSessionAuthentication(context.session),
        form.value.get("current_password") ?? "",
      );
      if (judgement === "not-recent") {
        const error = accountMessages.text(locale, "accounts.reauthentication_required");
        return formPage(context, user, 403, { email: typed, error });
      }
      const email = normalizeEmail(typed);
      const errors = (await newEmailErrors(options.users, email)) ?? {};
      if (judgement === "incorrect") {
        const message = accountMessages.text(locale, "accounts.password.incorrect");
        addFieldError(errors, "current_password", message);
      }
      if (Object.keys(errors).length > 0) {
        return formPage(context, user, 422, { email: typed, errors });
      }
      // The client was counted by the route's middleware; the new address, a mailbox not yet
      // proven the user's, is counted here.
      const limited = await refusePageOverLimit(options, context, REQUEST_GROUP, [
        `email:${email}`,
      ]);
      if (limited) return limited;
      // Always set here: without a mailer that delivers, mailLinkOriginOrRefusal answered 500.
      if (mailing) await requestEmailChange(mailing, user, email, mail.origin, locale);
      await parts.events.audited(
        "user.email_change_requested",
        user.id,
        { ...context, request },
        {
          details: { new_email: email },
        },
      );
      flashAccountMessage(context, "notice", "accounts.email_change.sent");
      return seeOther("/account");
    },
  } satisfies Record<string, RouteHandler<SignedInContext>>;

  const handlers = {
    async confirmPage(_request, context) {
      const token = pathToken(context);
      const change = await peekEmailChange(options.emailChanges, token, parts.clock);
      if (!change.ok) {
        flashAccountMessage(context, "alert", "accounts.email_change.invalid");
        return seeOther("/account");
      }
      const user = await currentPageUser(context, options.users);
      const page = pages.emailChangeConfirm({
        context: accountPageContext(context, user),
        token,
        newEmail: change.value.newEmail,
      });
      return htmlPage(200, page, NO_REFERRER);
    },

    async confirm(request, context) {
      const changed = await confirmEmailChange(confirmation, pathToken(context), {
        request,
        clientAddress: context.clientAddress,
      });
      if (changed.ok) flashAccountMessage(context, "notice", "accounts.email_change.changed");
      else if (changed.reason === "email-taken") {
        flashAccountMessage(context, "alert", "accounts.email_change.taken");
      } else flashAccountMessage(context, "alert", "accounts.email_change.invalid");
      return seeOther("/account");
    },
  } satisfies Record<string, RouteHandler<HtmlRequestContext>>;

  return withMiddleware(
    [
      ...withMiddleware(
        [{ method: "GET", path: "/account/email", handle: signedInHandlers.changeForm }],
        signedInPage(options.users),
      ),
      // Signed in first: a stranger is sent to sign in without using up the client's attempts.
      ...withMiddleware(
        [{ method: "POST", path: "/account/email", handle: signedInHandlers.requestChange }],
        signedInPage(options.users),
        pageRateLimit<SignedInContext>(options, REQUEST_GROUP),
      ),
      { method: "GET", path: "/email_changes/:token", handle: handlers.confirmPage },
      ...withMiddleware(
        [{ method: "POST", path: "/email_changes/:token", handle: handlers.confirm }],
        pageRateLimit(options, "email_change_use"),
      ),
    ],
    pageSafety(options),
  );
}
