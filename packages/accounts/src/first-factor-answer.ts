import { errorEnvelope, type Locale } from "@tessera/core";
import { jsonAnswer } from "@tessera/http";
import { MFA_REQUIRED } from "./account-error-codes.js";
import type { AccountEvents, HookRequest, SignInMethod } from "./account-hooks.js";
import { accountMessages } from "./account-messages.js";
import type { TokenIssuer } from "./json-routes-options.js";
import { startSecondFactor } from "./mfa/second-factor-sign-in.js";
import type { SecondFactors } from "./mfa/second-factors.js";
import { tokenAnswer } from "./token-answer.js";
import type { User } from "./user.js";

/** What {@link answerFirstFactor} needs. */
export interface FirstFactorAnswering {
  readonly tokens: TokenIssuer;
  readonly events: AccountEvents;
  readonly secondFactors?: SecondFactors | undefined;
}

/**
 * The JSON answer once a user proved a first factor (`method`: a password, an emailed code, a
 * passkey): for a user with a second factor, 403 `mfa_required` with a new `mfa_token` (which
 * keeps `method` for the `onSignIn` of its completion) and the `methods` that answer it, and no
 * token; otherwise the token body of `POST /api/auth/token`, `onSignIn` announced.
 */
export async function answerFirstFactor(
  answering: FirstFactorAnswering,
  user: User,
  method: SignInMethod,
  at: HookRequest & { readonly locale?: Locale | undefined },
): Promise<Response> {
  const pending =
    answering.secondFactors && (await startSecondFactor(answering.secondFactors, user.id, method));
  if (pending) {
    const message = accountMessages.text(at.locale, "accounts.mfa_required");
    const refusal = errorEnvelope(403, message, { code: MFA_REQUIRED });
    return jsonAnswer(
      { ...refusal, mfa_token: pending.mfaToken, methods: pending.methods },
      { status: 403, locale: at.locale },
    );
  }
  const answer = tokenAnswer(await answering.tokens.issue(user.id), at.locale);
  await answering.events.signedIn(user, method, "token", {
    request: at.request,
    clientAddress: at.clientAddress,
  });
  return answer;
}
