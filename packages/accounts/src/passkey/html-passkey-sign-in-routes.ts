import {
  jsonAnswer,
  jsonError,
  type Route,
  type RouteHandler,
  readJsonBody,
  withMiddleware,
} from "@tessera/http";
import { type MaybeSessionContext, pageSafety } from "@tessera/session";
import { INVALID_CREDENTIALS } from "../account-error-codes.js";
import { accountMessages } from "../account-messages.js";
import { flashAccountMessage } from "../html/account-page-context.js";
import { htmlAccountParts } from "../html/html-account-parts.js";
import type { HtmlAccountRoutesOptions, HtmlRequestContext } from "../html/html-routes-options.js";
import { pageRateLimit } from "../html/page-rate-limits.js";
import { secondFactorPasskeyOptions } from "../second-factor/second-factor-sign-in.js";
import { PENDING_MFA_TOKEN, SECOND_FACTOR_PATH } from "../sign-in/sign-in-grant.js";
import { passkeyAuthenticationOptions, verifyPasskeyAssertion } from "./passkey-authentication.js";
import type { Passkeys } from "./passkeys.js";

/** What the pages' passkey sign-in is built from: the HTML account routes' options and passkeys. */
export interface HtmlPasskeySignInRoutesOptions extends HtmlAccountRoutesOptions {
  readonly passkeys: Passkeys;
}

/**
 * The pages' passkey steps, called by their script (JSON in and out, same-origin, cross-site
 * checked): `POST /login/passkey/options` and `POST /login/passkey` `{challenge_id, response,
 * remember_me}` (signs the browser in and answers `{location}`; a passkey that did not verify its
 * user, for a user with a second factor, goes on to the second-factor page), and
 * `POST /login/second_factor/passkey/options` for the waiting sign-in's passkeys. Rate limited.
 */
export function htmlPasskeySignInRoutes(
  options: HtmlPasskeySignInRoutesOptions,
): Route<MaybeSessionContext>[] {
  const parts = htmlAccountParts(options);
  const loadUser = (id: number) => options.users.findById(id);
  const { passkeys } = options;
  const refused = (context: HtmlRequestContext) =>
    jsonError(401, accountMessages.text(context.locale, "accounts.login.passkey_failed"), {
      code: INVALID_CREDENTIALS,
      locale: context.locale,
    });

  const handlers = {
    async options(_request, { locale }) {
      const offered = await passkeyAuthenticationOptions(passkeys, { purpose: "sign_in" });
      return jsonAnswer({ options: offered, challenge_id: offered.challenge }, { locale });
    },

    async signIn(request, context) {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const { challenge_id: challengeId, response } = body.value;
      if (typeof challengeId !== "string") return refused(context);
      const scope = { purpose: "sign_in" } as const;
      const assertion = await verifyPasskeyAssertion(passkeys, response, scope, challengeId);
      const user = assertion.ok ? await loadUser(assertion.value.userId) : undefined;
      if (!assertion.ok || !user) return refused(context);
      const signInOptions = { rememberMe: body.value.remember_me === true };
      // A passkey that verified its user is both factors; one that only saw a touch is one.
      const proof = { method: "passkey", userVerified: assertion.value.userVerified } as const;
      const outcome = await parts.signIns.grant(user, proof, request, context, signInOptions);
      if (!outcome.signedIn) {
        return jsonAnswer({ location: outcome.continueAt }, { locale: context.locale });
      }
      flashAccountMessage(context, "notice", "accounts.signed_in");
      return jsonAnswer({ location: outcome.rememberedPage ?? "/" }, { locale: context.locale });
    },

    async secondFactorOptions(_request, context) {
      const mfaToken = context.session.get(PENDING_MFA_TOKEN);
      const factors = options.secondFactors;
      if (mfaToken === undefined || !factors) return refused(context);
      const offered = await secondFactorPasskeyOptions(factors, mfaToken);
      return offered.ok ? jsonAnswer(offered.value, { locale: context.locale }) : refused(context);
    },
  } satisfies Record<string, RouteHandler<HtmlRequestContext>>;

  return withMiddleware(
    withMiddleware(
      [
        { method: "POST", path: "/login/passkey/options", handle: handlers.options },
        { method: "POST", path: "/login/passkey", handle: handlers.signIn },
        {
          method: "POST",
          path: `${SECOND_FACTOR_PATH}/passkey/options`,
          handle: handlers.secondFactorOptions,
        },
      ],
      pageRateLimit(options, "login_passkey"),
    ),
    pageSafety(options),
  );
}
