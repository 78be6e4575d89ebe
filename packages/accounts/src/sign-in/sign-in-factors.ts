import type { SignInMethod } from "../account-hooks.js";
import type { SecondFactorMethod } from "../second-factor/second-factor-sign-in.js";

/**
 * A factor a sign-in was made with, as tokens (`amr`) and tracked sessions record it: the
 * first step's (`password`, `magic_link`, `email_code`, `oauth`, `passkey`), a second factor
 * (`totp`, `backup_code`, `passkey`), or `user_verification` after a passkey that verified its
 * user (a PIN or biometrics), which makes that passkey count as two factors.
 */
export type SignInFactor =
  | "password"
  | "magic_link"
  | "email_code"
  | "oauth"
  | "user_verification"
  | SecondFactorMethod;

/** The factor each first step stands for. */
const FACTOR_OF_METHOD: Readonly<Record<SignInMethod, SignInFactor>> = {
  password: "password",
  email_link: "magic_link",
  email_code: "email_code",
  oauth: "oauth",
  passkey: "passkey",
};

/** What a person proved on the way in, as routes hand it to the sign-in grant. */
export interface SignInProof {
  /** The first step: a password, an emailed link or code, a provider, a passkey. */
  readonly method: SignInMethod;
  /** For a passkey: whether it verified its user; then it is both factors. */
  readonly userVerified?: boolean | undefined;
  /** The second factor that answered the challenge, once one did. */
  readonly secondFactor?: SecondFactorMethod | undefined;
}

/** The factors a proof stands for, first step first. */
export function signInFactors(proof: SignInProof): SignInFactor[] {
  const first = FACTOR_OF_METHOD[proof.method];
  if (proof.secondFactor) return [first, proof.secondFactor];
  if (proof.method === "passkey" && proof.userVerified) return [first, "user_verification"];
  return [first];
}

/**
 * Whether these factors are two: a first step and a second factor, or a passkey that verified
 * its user. One factor never answers for itself: a passkey that only saw a touch is answered
 * by a code, never by a passkey again (see `startSecondFactor`).
 */
export function areTwoFactors(factors: readonly string[]): boolean {
  return factors.length >= 2;
}
