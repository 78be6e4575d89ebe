import type { RefreshTokens } from "@tessera/bearer";
import { type Clock, formatTimestamp, type Locale, systemClock } from "@tessera/core";
import { jsonAnswer, jsonError } from "@tessera/http";
import {
  LOGIN_PATH,
  type SessionCookies,
  type SessionRouteContext,
  signInDevice,
} from "@tessera/session";
import { accountErrorEnvelope } from "../account-errors.js";
import type { AccountEvents, AccountRefusal, HookRequest } from "../account-hooks.js";
import { accountMessages } from "../account-messages.js";
import type { JsonAccountRoutesOptions, TokenIssuer } from "../json-routes-options.js";
import {
  type SecondFactorMethod,
  startSecondFactor,
} from "../second-factor/second-factor-sign-in.js";
import type { SecondFactors } from "../second-factor/second-factors.js";
import { tokenAnswer } from "../token-answer.js";
import { isBanned, type User } from "../users/user.js";
import { rememberSessionAuthentication } from "./session-authentication.js";
import { signInErrors } from "./sign-in-errors.js";
import { areTwoFactors, type SignInProof, signInFactors } from "./sign-in-factors.js";

/** The page that asks for the second factor of a waiting sign-in. */
export const SECOND_FACTOR_PATH = "/login/second_factor";

/** Session values of a sign-in waiting for its second factor. */
export const PENDING_MFA_TOKEN = "mfa_token";
/** Whether the waiting sign-in asked to be remembered (`1`) or not (`0`). */
export const PENDING_MFA_REMEMBER = "mfa_remember";

/** What every sign-in grant needs: where sign-ins are announced, the clock, the factors. */
export interface SignInGrantParts {
  readonly events: AccountEvents;
  readonly clock: Clock;
  /** Without them nobody has a second factor, and every first step signs in. */
  readonly secondFactors?: SecondFactors | undefined;
}

/** What the token transport of the grant issues: access tokens, and refresh tokens if asked. */
export interface TokenGrantParts extends SignInGrantParts {
  readonly tokens: TokenIssuer;
  readonly refreshTokens?: RefreshTokens | undefined;
}

/** The token grant's parts from a JSON route group's options and `events`; the system clock by default. */
export function tokenGrantParts(
  options: Pick<JsonAccountRoutesOptions, "tokens" | "clock" | "secondFactors" | "refreshTokens">,
  events: AccountEvents,
): TokenGrantParts {
  const clock = options.clock ?? systemClock;
  return {
    tokens: options.tokens,
    refreshTokens: options.refreshTokens,
    events,
    clock,
    secondFactors: options.secondFactors,
  };
}

/**
 * The refusal of a banned user (403 `account_banned`), before any other step: a ban keeps
 * every way in shut, whatever the proof, and asks for no second factor first.
 */
function bannedRefusal(
  parts: SignInGrantParts,
  user: User,
  locale: Locale | undefined,
): AccountRefusal | undefined {
  if (!isBanned(user, parts.clock())) return undefined;
  const until = user.ban?.until;
  const message =
    until == null
      ? accountMessages.text(locale, "accounts.account_banned")
      : accountMessages.text(locale, "accounts.account_banned_until", {
          until: `${formatTimestamp(until)} UTC`,
        });
  return { code: signInErrors.accountBanned.code, message };
}

/** A second step the sign-in waits for: its `mfa_token` and the factors that answer it. */
export interface PendingSecondStep {
  readonly mfaToken: string;
  readonly methods: readonly SecondFactorMethod[];
}

/**
 * The one rule of every way in: a user with a second factor signs in only with two factors.
 * For a proof of one (any first step but a passkey that verified its user), the challenge the
 * second step answers, or undefined when the proof is enough.
 */
export async function pendingSecondStep(
  parts: SignInGrantParts,
  user: User,
  proof: SignInProof,
): Promise<PendingSecondStep | undefined> {
  if (!parts.secondFactors || areTwoFactors(signInFactors(proof))) return undefined;
  return startSecondFactor(parts.secondFactors, user.id, proof.method);
}

/**
 * The token transport of the sign-in grant, for JSON routes: 403 `mfa_required` with a new
 * `mfa_token` and the `methods` that answer it while a second factor is due; 403 with the code
 * and message of a `beforeSignIn` refusal; otherwise the body of `POST /api/auth/token`, whose
 * token says when and with which factors the user signed in (`auth_time`, `amr`), and
 * `onSignIn` announced. With `at.refresh` (the body's `"refresh": true`) and refresh tokens
 * configured, the body also holds a `refresh_token` of a new family. Every JSON way in ends
 * here.
 */
export async function grantTokenSignIn(
  parts: TokenGrantParts,
  user: User,
  proof: SignInProof,
  at: HookRequest & {
    readonly locale?: Locale | undefined;
    readonly refresh?: boolean | undefined;
  },
): Promise<Response> {
  const banned = bannedRefusal(parts, user, at.locale);
  if (banned) return jsonError(403, banned.message, { code: banned.code, locale: at.locale });
  const pending = await pendingSecondStep(parts, user, proof);
  if (pending) {
    const { mfaRequired } = signInErrors;
    const refusal = accountErrorEnvelope(mfaRequired, at.locale);
    return jsonAnswer(
      { ...refusal, mfa_token: pending.mfaToken, methods: pending.methods },
      { status: mfaRequired.status, locale: at.locale },
    );
  }
  const request = { request: at.request, clientAddress: at.clientAddress };
  const refusal = await parts.events.mayNotSignIn(user, proof.method, "token", request);
  if (refusal) return jsonError(403, refusal.message, { code: refusal.code, locale: at.locale });
  const authentication = { at: parts.clock(), factors: signInFactors(proof) };
  const refresh =
    at.refresh && parts.refreshTokens
      ? await parts.refreshTokens.issue({
          userId: user.id,
          authentication,
          userAgent: at.request.headers.get("user-agent"),
          ipAddress: at.clientAddress,
        })
      : undefined;
  const issued = await parts.tokens.issue(user.id, authentication);
  const answer = tokenAnswer(issued, at.locale, refresh);
  await parts.events.signedIn(user, proof.method, "token", request);
  return answer;
}

/**
 * What the cookie transport did: signed the user in (and took the page remembered for after
 * sign-in, which signing in empties), or did not, and says where the browser goes on:
 * {@link SECOND_FACTOR_PATH} while the sign-in waits for its second factor, the login page
 * (with the refusal's alert flashed) when `beforeSignIn` refused it.
 */
export type SessionSignInOutcome =
  | { readonly signedIn: true; readonly rememberedPage: string | undefined }
  | { readonly signedIn: false; readonly continueAt: string };

/**
 * The cookie transport of the sign-in grant, for HTML routes. While a second factor is due, the
 * sign-in waits for it (its `mfa_token` and remember-me in the session, nobody signed in, the
 * remembered page kept): send the browser to the second-factor page. A `beforeSignIn` refusal
 * signs nobody in and flashes its message. Otherwise the session is
 * emptied and signed in, the device recorded when tracked (with its factors), the sign-in's
 * time and factors kept for `isRecentFullSignIn`, `onSignIn` announced. Every HTML way in ends
 * here.
 */
export async function grantSessionSignIn(
  parts: SignInGrantParts & { readonly sessions: SessionCookies },
  user: User,
  proof: SignInProof,
  request: Request,
  context: SessionRouteContext,
  options: { readonly rememberMe?: boolean | undefined } = {},
): Promise<SessionSignInOutcome> {
  const banned = bannedRefusal(parts, user, context.locale);
  if (banned) {
    context.session.flash("alert", banned.message);
    return { signedIn: false, continueAt: LOGIN_PATH };
  }
  const pending = await pendingSecondStep(parts, user, proof);
  if (pending) {
    context.session.set(PENDING_MFA_TOKEN, pending.mfaToken);
    context.session.set(PENDING_MFA_REMEMBER, options.rememberMe ? "1" : "0");
    return { signedIn: false, continueAt: SECOND_FACTOR_PATH };
  }
  const at = { request, clientAddress: context.clientAddress };
  const refusal = await parts.events.mayNotSignIn(user, proof.method, "session", at);
  if (refusal) {
    context.session.flash("alert", refusal.message);
    return { signedIn: false, continueAt: LOGIN_PATH };
  }
  const rememberedPage = context.session.takeRememberedPage();
  const factors = signInFactors(proof);
  await signInDevice(parts.sessions, request, context, user.id, { ...options, factors });
  rememberSessionAuthentication(context.session, { at: parts.clock(), factors });
  await parts.events.signedIn(user, proof.method, "session", at);
  return { signedIn: true, rememberedPage };
}
