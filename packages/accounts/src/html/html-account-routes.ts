import { formatTimestamp } from "@tessera/core";
import { htmlPage, type Route, type RouteHandler, seeOther, withMiddleware } from "@tessera/http";
import { type MaybeSessionContext, pageSafety, requireUser } from "@tessera/session";
import { deleteUser } from "../account-deletion.js";
import { normalizeEmail } from "../email.js";
import { checkPassword, findUserByPassword } from "../password-sign-in.js";
import { signUp } from "../signup.js";
import { type AccountFlow, accountFlow } from "./account-flow.js";
import type {
  HtmlAccountRoutesOptions,
  HtmlRequestContext,
  SignedInContext,
} from "./html-routes-options.js";

/** The flash after a successful sign-up. */
export const WELCOME_MESSAGE =
  "Welcome! Your account is ready. Check your email to confirm your address.";
/** The answer to a failed login, the same for an unknown email and a wrong password. */
export const INVALID_LOGIN_MESSAGE = "Invalid email or password.";
/** Flash after a successful login. */
export const SIGNED_IN_MESSAGE = "Signed in.";
/** Flash after logout. */
export const SIGNED_OUT_MESSAGE = "Signed out.";
/** Flash after the account was deleted. */
export const ACCOUNT_DELETED_MESSAGE = "Your account has been deleted.";
/** Where sign-up goes when no page was remembered: the account page, with its reminder. */
export const AFTER_SIGNUP_PATH = "/account";

type Handler = Route<HtmlRequestContext>["handle"];

/**
 * The HTML routes of sign-up, login, logout, the account page and account deletion:
 * `GET|POST /signup`, `GET|POST /login`, `POST /logout`, `GET /account`, `POST /account/delete`.
 * Safe mounted anywhere: see {@link pageSafety}.
 */
export function htmlAccountRoutes(options: HtmlAccountRoutesOptions): Route<MaybeSessionContext>[] {
  const flow: AccountFlow = accountFlow(options);
  const { pages } = options;

  const handlers = {
    async signupForm(_request, context) {
      const user = await flow.currentUser(context);
      return htmlPage(
        200,
        pages.signup({ context: flow.pageContext(context, user), email: "", errors: {} }),
      );
    },

    async signup(request, context) {
      const form = await flow.readForm(request, context);
      if (!form.ok) return form.response;
      const email = form.value.get("email") ?? "";
      const result = await signUp(
        {
          users: options.users,
          operatorColumns: options.operatorColumns ?? [],
          ...flow.passwordOptions,
        },
        { email, password: form.value.get("password") ?? "" },
        { events: flow.events, request, clientAddress: context.clientAddress },
      );
      if (!result.ok) {
        const user = await flow.currentUser(context);
        return htmlPage(
          422,
          pages.signup({ context: flow.pageContext(context, user), email, errors: result.fields }),
        );
      }
      const origin = flow.linkOrigin(request);
      if (origin.ok) await flow.sendAccountEmail(result.user, "email_confirmation", origin.value);
      else flow.reportMailError(new Error(origin.reason), "email_confirmation");
      const destination = context.session.takeRememberedPage() ?? AFTER_SIGNUP_PATH;
      await flow.signIn(result.user, "password", request, context);
      context.session.flash("notice", WELCOME_MESSAGE);
      return seeOther(destination);
    },

    async loginForm(_request, context) {
      const user = await flow.currentUser(context);
      return htmlPage(
        200,
        pages.login({ context: flow.pageContext(context, user), email: "", error: undefined }),
      );
    },

    async login(request, context) {
      const form = await flow.readForm(request, context);
      if (!form.ok) return form.response;
      const email = form.value.get("email") ?? "";
      const user = await findUserByPassword(
        options.users,
        email,
        form.value.get("password") ?? "",
        flow.passwordOptions,
      );
      if (!user) {
        const current = await flow.currentUser(context);
        return htmlPage(
          422,
          pages.login({
            context: flow.pageContext(context, current),
            email,
            error: INVALID_LOGIN_MESSAGE,
          }),
        );
      }
      const destination = context.session.takeRememberedPage() ?? "/";
      await flow.signIn(user, "password", request, context, {
        rememberMe: form.value.get("remember_me") === "1",
      });
      context.session.flash("notice", SIGNED_IN_MESSAGE);
      return seeOther(destination);
    },

    async logout(_request, context) {
      await flow.signOut(context);
      context.session.flash("notice", SIGNED_OUT_MESSAGE);
      return seeOther("/");
    },

    async account(request, context) {
      const access = await requireUser(context.session, request, flow.loadUser);
      if (!access.ok) return access.response;
      const user = access.value;
      return htmlPage(
        200,
        pages.account({
          context: flow.pageContext(context, user),
          email: user.email,
          memberSince: formatTimestamp(user.createdAt),
          confirmed: user.confirmedAt !== null,
          deletionField: user.passwordDigest === "" ? "email" : "password",
          deletionError: undefined,
          showDevices: flow.tracksDevices,
        }),
      );
    },
  } satisfies Record<string, Handler>;

  const signedInHandlers = {
    async deleteAccount(request, context) {
      const { user } = context;
      const form = await flow.readForm(request, context);
      if (!form.ok) return form.response;
      // The password confirms, or the email for users who have no password.
      const withPassword = user.passwordDigest !== "";
      const confirmed = withPassword
        ? await checkPassword(
            options.users,
            user,
            form.value.get("password") ?? "",
            flow.passwordOptions,
          )
        : normalizeEmail(form.value.get("email") ?? "") === user.email;
      if (!confirmed) {
        return htmlPage(
          422,
          pages.account({
            context: flow.pageContext(context, user),
            email: user.email,
            memberSince: formatTimestamp(user.createdAt),
            confirmed: user.confirmedAt !== null,
            deletionField: withPassword ? "password" : "email",
            deletionError: withPassword
              ? "The password is incorrect."
              : "That is not your email address.",
            showDevices: flow.tracksDevices,
          }),
        );
      }
      await deleteUser(options.users, flow.events, user, {
        request,
        clientAddress: context.clientAddress,
      });
      context.session.signOut();
      context.session.flash("notice", ACCOUNT_DELETED_MESSAGE);
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
        flow.rateLimit("signup"),
      ),
      { method: "GET", path: "/login", handle: loginForm },
      ...withMiddleware(
        [{ method: "POST", path: "/login", handle: login }],
        flow.rateLimit("login"),
      ),
      { method: "POST", path: "/logout", handle: logout },
      { method: "GET", path: "/account", handle: account },
      // Signed in first: a stranger is sent to sign in without using up the client's attempts.
      ...withMiddleware(
        [{ method: "POST", path: "/account/delete", handle: deleteAccount }],
        flow.signedIn(),
        flow.rateLimit<SignedInContext>("account_delete"),
      ),
    ],
    pageSafety(options),
  );
}
