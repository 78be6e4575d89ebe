import { formatTimestamp, type Locale } from "@tessera/core";
import {
  htmlPage,
  type Route,
  type RouteHandler,
  retryAfter,
  seeOther,
  withMiddleware,
} from "@tessera/http";
import { type MaybeSessionContext, pageSafety, requireUser, signOutDevice } from "@tessera/session";
import { accountMessages } from "../account-messages.js";
import { linkOriginOf, sendAccountEmail } from "../email-link/account-mail-sending.js";
import { readAccountForm } from "../html/account-form.js";
import {
  accountPageContext,
  currentPageUser,
  flashAccountMessage,
} from "../html/account-page-context.js";
import type { ProfileField } from "../html/account-pages.js";
import { accountFieldName } from "../html/form-fields.js";
import { htmlAccountParts } from "../html/html-account-parts.js";
import type {
  HtmlAccountRoutesOptions,
  HtmlRequestContext,
  SignedInContext,
} from "../html/html-routes-options.js";
import { pageRateLimit } from "../html/page-rate-limits.js";
import { isRecentPageSignIn, signedInPage } from "../html/signed-in-page.js";
import { checkPassword, signInWithPassword } from "../password/password-sign-in.js";
import { profileColumns } from "../profile/update-profile.js";
import { deleteUser } from "./account-deletion.js";
import { normalizeEmail } from "./email.js";
import { signUp } from "./signup.js";
import type { User } from "./user.js";

/** Where sign-up goes when no page was remembered: the account page, with its reminder. */
export const AFTER_SIGNUP_PATH = "/account";

type Handler = Route<HtmlRequestContext>["handle"];

/**
 * The HTML routes of sign-up, login, logout, the account page and account deletion:
 * `GET|POST /signup`, `GET|POST /login`, `POST /logout`, `GET /account`, `POST /account/delete`.
 * Safe mounted anywhere: see {@link pageSafety}.
 */
export function htmlAccountRoutes(options: HtmlAccountRoutesOptions): Route<MaybeSessionContext>[] {
  const parts = htmlAccountParts(options);
  const loadUser = (id: number) => options.users.findById(id);
  const mailSending = {
    ...parts,
    emailedTokens: options.emailedTokens,
    tokenMailTransaction: options.tokenMailTransaction,
  };
  const { pages } = options;
  const showEmailChange = parts.offersEmailLinks && options.emailChanges !== undefined;
  const editable = profileColumns(options.operatorColumns ?? []);
  const profileOf = (user: User, locale: Locale | undefined): ProfileField[] =>
    editable.map((column) => ({
      name: column.name,
      label: accountFieldName(column.name, locale),
      value: String(user.columns[column.name] ?? ""),
    }));

  /** `/account` of `user`, with the deletion form's error when there is one. */
  const accountPage = (
    context: HtmlRequestContext,
    user: User,
    status: number,
    deletionError: string | undefined,
  ) =>
    htmlPage(
      status,
      pages.account({
        context: accountPageContext(context, user),
        email: user.email,
        memberSince: formatTimestamp(user.createdAt),
        confirmed: user.confirmedAt !== null,
        emailLinks: parts.offersEmailLinks,
        confirmationMailSent: parts.deliversMail,
        deletionField: user.passwordDigest === "" ? "email" : "password",
        deletionError,
        showDevices: parts.tracksDevices,
        showSecurity: options.secondFactors !== undefined || options.passkeys !== undefined,
        showActivity: options.auditLog !== undefined,
        profile: profileOf(user, context.locale),
        showEmailChange,
      }),
    );

  const handlers = {
    async signupForm(_request, context) {
      const user = await currentPageUser(context, options.users);
      return htmlPage(
        200,
        pages.signup({ context: accountPageContext(context, user), email: "", errors: {} }),
      );
    },

    async signup(request, context) {
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      const email = form.value.get("email") ?? "";
      const result = await signUp(
        {
          users: options.users,
          operatorColumns: options.operatorColumns ?? [],
          ...parts.passwordOptions,
          breachedPasswords: options.breachedPasswords,
        },
        { email, password: form.value.get("password") ?? "" },
        {
          events: parts.events,
          request,
          clientAddress: context.clientAddress,
          locale: context.locale,
        },
      );
      if (!result.ok) {
        const user = await currentPageUser(context, options.users);
        return htmlPage(
          422,
          pages.signup({
            context: accountPageContext(context, user),
            email,
            errors: result.fields,
          }),
        );
      }
      if (parts.deliversMail) {
        const origin = linkOriginOf(options, request);
        if (origin.ok) {
          const { locale } = context;
          await sendAccountEmail(
            mailSending,
            result.user,
            "email_confirmation",
            origin.value,
            locale,
          );
        } else parts.reportMailError(new Error(origin.reason), "email_confirmation");
      }
      const outcome = await parts.signIns.grant(
        result.user,
        { method: "password" },
        request,
        context,
      );
      if (!outcome.signedIn) return seeOther(outcome.continueAt);
      const destination = outcome.rememberedPage ?? AFTER_SIGNUP_PATH;
      // Only a delivered mail may be promised.
      flashAccountMessage(
        context,
        "notice",
        parts.deliversMail ? "accounts.welcome" : "accounts.welcome_without_mail",
      );
      return seeOther(destination);
    },

    async loginForm(_request, context) {
      const user = await currentPageUser(context, options.users);
      return htmlPage(
        200,
        pages.login({
          context: accountPageContext(context, user),
          email: "",
          error: undefined,
          emailLinks: parts.offersEmailLinks,
          passkeySignIn: options.passkeys !== undefined,
        }),
      );
    },

    async login(request, context) {
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      const email = form.value.get("email") ?? "";
      const password = form.value.get("password") ?? "";
      const { locale } = context;
      const signIn = await signInWithPassword(
        { ...options, ...parts.passwordOptions, events: parts.events },
        email,
        password,
        { request, clientAddress: context.clientAddress, locale },
      );
      if (!signIn.ok) {
        const current = await currentPageUser(context, options.users);
        const throttled = signIn.reason === "throttled";
        const page = pages.login({
          context: accountPageContext(context, current),
          email,
          error: accountMessages.text(
            locale,
            throttled ? "accounts.account_throttled" : "accounts.invalid_login",
          ),
          emailLinks: parts.offersEmailLinks,
          passkeySignIn: options.passkeys !== undefined,
        });
        return throttled
          ? htmlPage(429, page, retryAfter(signIn.retryAfterSeconds))
          : htmlPage(422, page);
      }
      const { user } = signIn;
      const signInOptions = { rememberMe: form.value.get("remember_me") === "1" };
      const proof = { method: "password" } as const;
      const outcome = await parts.signIns.grant(user, proof, request, context, signInOptions);
      if (!outcome.signedIn) return seeOther(outcome.continueAt);
      const destination = outcome.rememberedPage ?? "/";
      flashAccountMessage(context, "notice", "accounts.signed_in");
      return seeOther(destination);
    },

    async logout(request, context) {
      const { userId } = context.session;
      await signOutDevice(options.sessions, context);
      if (userId !== undefined) {
        await parts.events.audited("user.signed_out", userId, { ...context, request });
      }
      flashAccountMessage(context, "notice", "accounts.signed_out");
      return seeOther("/");
    },

    async account(request, context) {
      const access = await requireUser(context.session, request, loadUser, context.locale);
      if (!access.ok) return access.response;
      const user = access.value;
      return accountPage(context, user, 200, undefined);
    },
  } satisfies Record<string, Handler>;

  const signedInHandlers = {
    async deleteAccount(request, context) {
      const { user } = context;
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      // The password confirms, or the email for users who have no password.
      const withPassword = user.passwordDigest !== "";
      const confirmed = withPassword
        ? await checkPassword(
            options.users,
            user,
            form.value.get("password") ?? "",
            parts.passwordOptions,
          )
        : normalizeEmail(form.value.get("email") ?? "") === user.email;
      // The password is a fresh first step; a second factor, or a user without a password,
      // needs this browser's recent, full sign-in (or its confirming it is them again).
      const recent =
        confirmed &&
        (await isRecentPageSignIn(parts, context, user, { passwordConfirmed: withPassword }));
      if (!confirmed || !recent) {
        const refusal = !confirmed
          ? withPassword
            ? "accounts.password_incorrect"
            : "accounts.not_your_email"
          : "accounts.reauthentication_required";
        const message = accountMessages.text(context.locale, refusal);
        return accountPage(context, user, confirmed ? 403 : 422, message);
      }
      const deletion = await deleteUser(options.users, parts.events, user, {
        request,
        clientAddress: context.clientAddress,
      });
      if (!deletion.ok) return accountPage(context, user, 409, deletion.refusal.message);
      context.session.signOut();
      flashAccountMessage(context, "notice", "accounts.account_deleted");
      return seeOther("/");
    },
  } satisfies Record<string, RouteHandler<SignedInContext>>;
  const { signupForm, signup, loginForm, login, logout, account } = handlers;
  const { deleteAccount } = signedInHandlers;
  return withMiddleware(
    [
      { method: "GET", path: "/signup", handle: signupForm },
      ...withMiddleware(
        [{ method: "POST", path: "/signup", handle: signup }],
        pageRateLimit(options, "signup"),
      ),
      { method: "GET", path: "/login", handle: loginForm },
      ...withMiddleware(
        [{ method: "POST", path: "/login", handle: login }],
        pageRateLimit(options, "login"),
      ),
      { method: "POST", path: "/logout", handle: logout },
      { method: "GET", path: "/account", handle: account },
      // Signed in first: a stranger is sent to sign in without using up the client's attempts.
      ...withMiddleware(
        [{ method: "POST", path: "/account/delete", handle: deleteAccount }],
        signedInPage(options.users),
        pageRateLimit<SignedInContext>(options, "account_delete"),
      ),
    ],
    pageSafety(options),
  );
}
