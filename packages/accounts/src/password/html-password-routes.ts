import { htmlPage, type Route, seeOther, withMiddleware } from "@tessera/http";
import {
  checkTrackedSession,
  type MaybeSessionContext,
  pageSafety,
  type TrackedSessionStore,
} from "@tessera/session";
import { accountMessages } from "../account-messages.js";
import { readAccountForm } from "../html/account-form.js";
import { accountPageContext, flashAccountMessage } from "../html/account-page-context.js";
import { htmlAccountParts } from "../html/html-account-parts.js";
import type {
  HtmlAccountRoutesOptions,
  HtmlRequestContext,
  SignedInContext,
} from "../html/html-routes-options.js";
import { pageRateLimit } from "../html/page-rate-limits.js";
import { signedInPage } from "../html/signed-in-page.js";
import { addFieldError, type FieldErrors } from "../messages.js";
import type { AccountNotices } from "../notice-mail-delivery.js";
import { readSessionAuthentication } from "../sign-in/session-authentication.js";
import type { User } from "../users/user.js";
import { changePassword } from "./change-password.js";
import { judgeCurrentPassword } from "./current-password.js";
import type { PasswordPage } from "./password-pages.js";

/** What the password page's routes are built from: the HTML routes' parts and the page. */
export interface HtmlPasswordRoutesOptions extends HtmlAccountRoutesOptions {
  readonly passwordPage: PasswordPage;
  /** Where `Your password was changed` goes; without it no notice is mailed. */
  readonly notices?: AccountNotices | undefined;
}

/**
 * `GET /account/password` and `POST /account/password` (signed in): the current password (a
 * user without one sets one, within 10 minutes of signing in), the new one twice and "Sign out
 * my other sessions" (ticked by default: every other session and token ends, this browser stays
 * signed in). 303 to `/account` with `Your password has been changed.`; 422 with the field
 * messages; 403 when the sign-in is too old or lacks its second factor. Rate limited per client.
 */
export function htmlPasswordRoutes(
  options: HtmlPasswordRoutesOptions,
): Route<MaybeSessionContext>[] {
  const { clock, events } = htmlAccountParts(options);
  const devices: TrackedSessionStore | undefined = options.sessions.trackedSessions;
  const parts = {
    users: options.users,
    clock,
    passwords: options.passwords,
    secondFactors: options.secondFactors,
    events,
    trackedSessions: devices,
    notices: options.notices,
    breachedPasswords: options.breachedPasswords,
  };

  const page = (
    context: HtmlRequestContext,
    user: User,
    status: number,
    view: {
      errors?: FieldErrors | undefined;
      error?: string | undefined;
      signOutOthers?: boolean | undefined;
    } = {},
  ) =>
    htmlPage(
      status,
      options.passwordPage({
        context: accountPageContext(context, user),
        hasPassword: user.passwordDigest !== "",
        errors: view.errors ?? {},
        error: view.error,
        signOutOthers: view.signOutOthers ?? true,
      }),
    );

  async function passwordForm(_request: Request, context: SignedInContext): Promise<Response> {
    return page(context, context.user, 200);
  }

  async function changeOwnPassword(request: Request, context: SignedInContext): Promise<Response> {
    const form = await readAccountForm(request, context, options);
    if (!form.ok) return form.response;
    const { user, locale } = context;
    const password = form.value.get("password") ?? "";
    const signOutOthers = form.value.get("sign_out_others") === "1";
    const judgement = await judgeCurrentPassword(
      parts,
      user,
      readSessionAuthentication(context.session),
      form.value.get("current_password") ?? "",
    );
    if (judgement === "incorrect") {
      const errors: FieldErrors = {};
      const message = accountMessages.text(locale, "accounts.password.incorrect");
      addFieldError(errors, "current_password", message);
      return page(context, user, 422, { errors, signOutOthers });
    }
    if (judgement === "not-recent") {
      const error = accountMessages.text(locale, "accounts.reauthentication_required");
      return page(context, user, 403, { error, signOutOthers });
    }
    if ((form.value.get("password_confirmation") ?? "") !== password) {
      const errors: FieldErrors = {};
      const mismatch = accountMessages.text(locale, "accounts.confirmation_mismatch");
      addFieldError(errors, "password_confirmation", mismatch);
      return page(context, user, 422, { errors, signOutOthers });
    }
    const current = devices && (await checkTrackedSession(devices, context.session, parts.clock));
    const changed = await changePassword(
      parts,
      user,
      password,
      { signOutOthers, keepDeviceId: current?.ok ? current.value.id : undefined },
      { request, clientAddress: context.clientAddress, locale },
    );
    if (!changed.ok) return page(context, user, 422, { errors: changed.fields, signOutOthers });
    // This browser outlives the change that ends every sign-in made before it.
    if (signOutOthers) context.session.renewSignIn();
    flashAccountMessage(context, "notice", "accounts.password.changed");
    return seeOther("/account");
  }

  return withMiddleware(
    [
      ...withMiddleware(
        [{ method: "GET", path: "/account/password", handle: passwordForm }],
        signedInPage(options.users),
      ),
      // Signed in first: a stranger is sent to sign in without using up the client's attempts.
      ...withMiddleware(
        [{ method: "POST", path: "/account/password", handle: changeOwnPassword }],
        signedInPage(options.users),
        pageRateLimit<SignedInContext>(options, "account_password"),
      ),
    ],
    pageSafety(options),
  );
}
