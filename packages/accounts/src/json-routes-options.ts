import type { RefreshTokens, SignInAuthentication } from "@tessera/bearer";
import type { Clock, Result } from "@tessera/core";
import type { PasswordHashOptions } from "@tessera/password";
import type { RateLimiter } from "@tessera/ratelimit";
import type { AccountEvents } from "./account-hooks.js";
import type { AccountNotices } from "./notice-mail-delivery.js";
import type { Passkeys } from "./passkey/passkeys.js";
import type { BreachedPasswordCheck } from "./password/breached-passwords.js";
import type { OperatorColumn } from "./profile/operator-columns.js";
import type { FindFactorSummary } from "./second-factor/factor-summary.js";
import type { SecondFactors } from "./second-factor/second-factors.js";
import type { AccountThrottle } from "./sign-in/account-throttle.js";
import type { User } from "./users/user.js";
import type { UserStore } from "./users/user-store.js";

/**
 * Issues the JWT of `POST /api/auth/token` (an @tessera/bearer issuer fits), saying when and
 * with which factors the user signed in (`authentication`).
 */
export interface TokenIssuer {
  issue(
    userId: number,
    authentication?: SignInAuthentication,
  ): Promise<{ readonly token: string; readonly expiresIn: number }>;
}

/** Who a bearer request is, as the account routes read it: the user and the credential. */
export interface BearerCaller {
  readonly user: User;
  /**
   * `jwt` or `api_key`. An API key never manages credentials or factors; a token does after a
   * recent, full sign-in (its `authentication`).
   */
  readonly credential?: "jwt" | "api_key" | undefined;
  /** How a JWT's sign-in was made: its `auth_time` and `amr` claims. */
  readonly authentication?: SignInAuthentication | undefined;
}

/** Authenticates a bearer request (an @tessera/bearer authenticator fits). */
export interface BearerAuthentication {
  authenticate(request: Request): Promise<Result<BearerCaller, string>>;
}

/** What the JSON account routes are built from. */
export interface JsonAccountRoutesOptions {
  readonly users: UserStore;
  readonly operatorColumns?: readonly OperatorColumn[] | undefined;
  readonly tokens: TokenIssuer;
  readonly bearer: BearerAuthentication;
  /** Limits sign-up, token and account deletion per client (10 a minute by default). */
  readonly rateLimiter: RateLimiter;
  /**
   * Slows down guesses at one account, from however many clients (`accountThrottle`;
   * `accountRoutes` always gives one). Without it, passwords and second-factor answers are
   * limited per client only.
   */
  readonly throttle?: AccountThrottle | undefined;
  /** Where the owner of an account whose guesses start waiting is told. */
  readonly notices?: AccountNotices | undefined;
  readonly clock?: Clock | undefined;
  /** Hashing cost; the default is 100000 iterations. */
  readonly passwords?: PasswordHashOptions | undefined;
  /** Refuses a new password (sign-up, change) seen in data breaches (`pwnedPasswords`). */
  readonly breachedPasswords?: BreachedPasswordCheck | undefined;
  /** Where sign-ups, token sign-ins and deletions are announced (`accountEvents({ hooks })`). */
  readonly events?: AccountEvents | undefined;
  /**
   * Second factors: with them, a right password of a user who turned one on answers 403
   * `mfa_required` with an `mfa_token` instead of a token, and `/api/auth/me` says what is on.
   */
  readonly secondFactors?: SecondFactors | undefined;
  /** Passkeys: with them, `/api/auth/me` counts the user's passkeys. */
  readonly passkeys?: Passkeys | undefined;
  /** Reads what `/api/auth/me` says of both in one lookup instead of asking each store. */
  readonly findFactorSummary?: FindFactorSummary | undefined;
  /**
   * Refresh tokens (`refreshTokens` of @tessera/bearer): with them, a token sign-in whose body
   * says `"refresh": true` also answers a `refresh_token`.
   */
  readonly refreshTokens?: RefreshTokens | undefined;
}
