import type { Clock } from "@tessera/core";
import type { SessionCookies, SessionRouteContext } from "@tessera/session";
import type { AccountEvents } from "../account-hooks.js";
import { hasSecondFactor } from "../second-factor/second-factor-sign-in.js";
import type { SecondFactors } from "../second-factor/second-factors.js";
import type { User } from "../users/user.js";
import type { SignInProof } from "./sign-in-factors.js";
import { grantSessionSignIn, type SessionSignInOutcome } from "./sign-in-grant.js";

/**
 * The session value of work a waiting sign-in does once its second step passes (see
 * {@link SessionSignIns.grant}'s `afterSecondStep`): `<step>~<user id>~<value>`.
 */
export const PENDING_STEP_VALUE = "mfa_then";

const PENDING_STEP = /^([a-z_]{1,32})~([1-9][0-9]{0,15})~([A-Za-z0-9._-]{1,76})$/;

/** Work that waits for a sign-in's second step: what it does for the user, with its value. */
export type AfterSecondStep = (user: User, value: string) => Promise<void>;

/**
 * The cookie transport of the sign-in grant bound to accounts' sessions, factors and events,
 * for ways in that other packages add (provider sign-in): `accountRoutes(...).signIns`. Their
 * sign-ins then follow the same rule as accounts' own, second factor included.
 */
export interface SessionSignIns {
  /** The cookie sessions the account pages use. */
  readonly sessions: SessionCookies;
  /** Where sign-ups and sign-ins are announced (`onSignUp`, `onSignIn`). */
  readonly events: AccountEvents;
  /** Whether the user has a second factor, which every sign-in then asks for. */
  hasSecondFactor(user: User): Promise<boolean>;
  /**
   * Removes the user's TOTP (with its backup codes) and passkeys: for an account whose address
   * was never proven, once someone proves it, since whoever set them did not.
   */
  removeSecondFactors(userId: number): Promise<void>;
  /**
   * Signs the user in, or keeps the sign-in waiting for its second factor (see
   * `grantSessionSignIn`). `afterSecondStep` names work registered with
   * {@link SessionSignIns.afterSecondStep} and its value (at most 76 URL-safe characters): it
   * runs for this user once the second step passes, and never otherwise.
   */
  grant(
    user: User,
    proof: SignInProof,
    request: Request,
    context: SessionRouteContext,
    options?: {
      readonly rememberMe?: boolean | undefined;
      readonly afterSecondStep?: { readonly step: string; readonly value: string } | undefined;
    },
  ): Promise<SessionSignInOutcome>;
  /** Registers the work `step` names (a later registration of the same name replaces it). */
  afterSecondStep(step: string, work: AfterSecondStep): void;
  /**
   * Takes the waiting work out of the session: call it when the second step passed, before
   * signing in (which empties the session), and run what it gives once signed in.
   */
  takePendingStep(context: SessionRouteContext, user: User): (() => Promise<void>) | undefined;
}

/** The {@link SessionSignIns} of accounts' parts. */
export function sessionSignIns(parts: {
  readonly sessions: SessionCookies;
  readonly events: AccountEvents;
  readonly clock: Clock;
  readonly secondFactors?: SecondFactors | undefined;
}): SessionSignIns {
  const steps = new Map<string, AfterSecondStep>();
  const factors = parts.secondFactors;
  return {
    sessions: parts.sessions,
    events: parts.events,
    hasSecondFactor: (user) => hasSecondFactor(factors, user.id),
    async removeSecondFactors(userId) {
      if (!factors) return;
      await factors.store.deleteTotp(userId);
      const passkeys = factors.passkeys?.store;
      for (const passkey of (await passkeys?.listPasskeys(userId)) ?? []) {
        await passkeys?.deletePasskey(userId, passkey.id);
      }
    },
    async grant(user, proof, request, context, options = {}) {
      const { afterSecondStep, ...signInOptions } = options;
      context.session.take(PENDING_STEP_VALUE);
      const outcome = await grantSessionSignIn(parts, user, proof, request, context, signInOptions);
      const pending =
        afterSecondStep && `${afterSecondStep.step}~${user.id}~${afterSecondStep.value}`;
      if (!outcome.signedIn && pending && PENDING_STEP.test(pending)) {
        context.session.set(PENDING_STEP_VALUE, pending);
      }
      return outcome;
    },
    afterSecondStep(step, work) {
      if (!/^[a-z_]{1,32}$/.test(step)) throw new TypeError(`invalid step name ${step}`);
      steps.set(step, work);
    },
    takePendingStep(context, user) {
      const match = PENDING_STEP.exec(context.session.take(PENDING_STEP_VALUE) ?? "");
      const work = match && steps.get(match[1]!);
      if (!match || !work || Number(match[2]) !== user.id) return undefined;
      return () => work(user, match[3]!);
    },
  };
}
