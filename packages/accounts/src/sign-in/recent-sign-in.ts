import type { SignInAuthentication } from "@tessera/bearer";
import type { Clock } from "@tessera/core";
import { hasSecondFactor } from "../second-factor/second-factor-sign-in.js";
import type { SecondFactors } from "../second-factor/second-factors.js";
import type { User } from "../users/user.js";
import { areTwoFactors } from "./sign-in-factors.js";

/** How long a full sign-in lets a person change credentials without proving it is them again. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

// A sign-in stamped this far ahead of the clock is not trusted as recent: processes' clocks
// differ by far less, and the stamp is always taken from a clock (never from the client).
const CLOCK_SKEW_MS = 60_000;

/** What the recent-sign-in check reads: the clock, and the factors users may have. */
export interface RecentSignInParts {
  readonly clock: Clock;
  readonly secondFactors?: SecondFactors | undefined;
}

/**
 * Whether `user` has made a recent, full sign-in ("sudo mode"): `authentication` (a token's or
 * a session's) made within {@link RECENT_SIGN_IN_MS} with the password or a passkey that
 * verified its user (any first step for a user without a password, who has nothing stronger),
 * and with a second factor when the user has one. `passwordConfirmed`: the request itself
 * carried the right password, a fresh first step; a user with a second factor still needs a
 * recent one. Never while an operator acts as the user (`authentication.actor`): whoever
 * impersonates cannot change a password, an address, factors or keys. What changes credentials
 * or factors asks for this.
 */
export async function isRecentFullSignIn(
  parts: RecentSignInParts,
  user: User,
  authentication: SignInAuthentication | undefined,
  confirmed: { readonly passwordConfirmed?: boolean | undefined } = {},
): Promise<boolean> {
  if (authentication?.actor !== undefined) return false;
  const age = authentication ? parts.clock() - authentication.at : Number.POSITIVE_INFINITY;
  const recent = authentication && age <= RECENT_SIGN_IN_MS && age >= -CLOCK_SKEW_MS;
  const factors = recent ? authentication.factors : [];
  const strongFirstStep =
    confirmed.passwordConfirmed === true ||
    (recent &&
      (user.passwordDigest === "" ||
        factors[0] === "password" ||
        (factors[0] === "passkey" && factors.includes("user_verification"))));
  if (!strongFirstStep) return false;
  return areTwoFactors(factors) || !(await hasSecondFactor(parts.secondFactors, user.id));
}
