import { htmlPage, type Route, type RouteHandler, seeOther, withMiddleware } from "@tessera/http";
import { type MaybeSessionContext, pageSafety } from "@tessera/session";
import { accountMessages } from "../account-messages.js";
import { readAccountForm } from "../html/account-form.js";
import { accountPageContext, flashAccountMessage } from "../html/account-page-context.js";
import { htmlAccountParts } from "../html/html-account-parts.js";
import type { HtmlAccountRoutesOptions, HtmlRequestContext } from "../html/html-routes-options.js";
import { pageRateLimit, tooManyRequestsPage } from "../html/page-rate-limits.js";
import { PENDING_MFA_METHOD, pendingSignInMethod } from "../sign-in/pending-sign-in-method.js";
import {
  PENDING_MFA_REMEMBER,
  PENDING_MFA_TOKEN,
  SECOND_FACTOR_PATH,
} from "../sign-in/sign-in-grant.js";
import { recordFailedSecondStep } from "./failed-second-step.js";
import { completeSecondFactor, pendingSecondFactorMethods } from "./second-factor-sign-in.js";
import type { SecondFactors } from "./second-factors.js";

/** What the second-factor page is built from: the HTML account routes' options, with factors. */
export interface HtmlSecondFactorRoutesOptions extends HtmlAccountRoutesOptions {
  readonly secondFactors: SecondFactors;
}

/**
 * The second step of an HTML sign-in for a user with a second factor: `GET|POST
 * /login/second_factor` (a TOTP or backup code). Nobody is signed in until it succeeds; a
 * browser with no waiting sign-in, or whose `mfa_token` expired or took five wrong codes, is
 * sent back to `/login`. The code is rate limited per client and per account.
 */
export function htmlSecondFactorRoutes(
  options: HtmlSecondFactorRoutesOptions,
): Route<MaybeSessionContext>[] {
  const parts = htmlAccountParts(options);
  const loadUser = (id: number) => options.users.findById(id);
  const { pages } = options;

  /** Forgets the waiting sign-in and sends the browser back to log in, with `alert` if given. */
  const backToLogin = (context: HtmlRequestContext, alert: boolean) => {
    for (const name of [PENDING_MFA_TOKEN, PENDING_MFA_METHOD, PENDING_MFA_REMEMBER]) {
      context.session.take(name);
    }
    if (alert) flashAccountMessage(context, "alert", "accounts.second_factor.expired");
    return seeOther("/login");
  };

  /** Whether the waiting user has a passkey to answer with: the page then offers it. */
  const offersPasskey = async (mfaToken: string) =>
    (await pendingSecondFactorMethods(options.secondFactors, mfaToken)).includes("passkey");

  const handlers = {
    async form(_request, context) {
      const mfaToken = context.session.get(PENDING_MFA_TOKEN);
      if (mfaToken === undefined) return seeOther("/login");
      return htmlPage(
        200,
        pages.secondFactor({
          context: accountPageContext(context, undefined),
          error: undefined,
          passkey: await offersPasskey(mfaToken),
        }),
      );
    },

    async answer(request, context) {
      const mfaToken = context.session.get(PENDING_MFA_TOKEN);
      if (mfaToken === undefined) return seeOther("/login");
      const form = await readAccountForm(request, context, options);
      if (!form.ok) return form.response;
      // The page's script puts a passkey's answer (JSON) in `passkey`; else a code was typed.
      const passkey = form.value.get("passkey");
      const completed = await completeSecondFactor(
        options.secondFactors,
        mfaToken,
        passkey ? { passkey: parsedJson(passkey) } : { code: form.value.get("code") ?? "" },
        options.throttle?.throttle,
      );
      if (!completed.ok) {
        await recordFailedSecondStep(parts.signIns.events, completed, { ...context, request });
      }
      if (!completed.ok && completed.reason === "throttled") {
        return tooManyRequestsPage(options, context, completed.retryAfterSeconds);
      }
      const user = completed.ok ? await loadUser(completed.value.userId) : undefined;
      if (!user || !completed.ok) {
        // A wrong code may be typed again; a void sign-in (or a deleted user) must start over.
        if (completed.ok || completed.reason === "void") return backToLogin(context, true);
        const error = accountMessages.text(context.locale, "accounts.second_factor.invalid");
        return htmlPage(
          422,
          pages.secondFactor({
            context: accountPageContext(context, undefined),
            error,
            passkey: await offersPasskey(mfaToken),
          }),
        );
      }
      // A challenge stored before its first factor was kept (migration 0014) is announced as
      // this page announced it until then: the method its sign-in put in the session.
      const method =
        completed.value.firstFactor ?? pendingSignInMethod(context.session.get(PENDING_MFA_METHOD));
      const rememberMe = context.session.get(PENDING_MFA_REMEMBER) === "1";
      // What the way in left for after its second step (a provider's link): taken before the
      // sign-in empties the session, done once the user is signed in.
      const pendingStep = parts.signIns.takePendingStep(context, user);
      const proof = { method, secondFactor: completed.value.factor };
      const outcome = await parts.signIns.grant(user, proof, request, context, { rememberMe });
      if (!outcome.signedIn) return seeOther(outcome.continueAt);
      await pendingStep?.();
      flashAccountMessage(context, "notice", "accounts.signed_in");
      return seeOther(outcome.rememberedPage ?? "/");
    },
  } satisfies Record<string, RouteHandler<HtmlRequestContext>>;

  return withMiddleware(
    [
      { method: "GET", path: SECOND_FACTOR_PATH, handle: handlers.form },
      ...withMiddleware(
        [{ method: "POST", path: SECOND_FACTOR_PATH, handle: handlers.answer }],
        pageRateLimit(options, "login_second_factor"),
      ),
    ],
    pageSafety(options),
  );
}

/** A passkey answer as the form carried it; what is not JSON is refused by the verification. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
