import type { SignInMethod } from "../account-hooks.js";

/**
 * The first factor of a waiting sign-in, as sessions kept it before the challenge did: only
 * read, for a challenge stored before its first factor was.
 */
export const PENDING_MFA_METHOD = "mfa_method";

// Session values allow no underscore: each method is kept under a name of its own.
const METHOD_IN_SESSION: Readonly<Record<SignInMethod, string>> = {
  password: "password",
  email_link: "email-link",
  email_code: "email-code",
  oauth: "oauth",
  passkey: "passkey",
};

/**
 * The sign-in method a waiting sign-in started with, as a session written before the challenge
 * kept it says (`password` when it says nothing).
 */
export function pendingSignInMethod(value: string | undefined): SignInMethod {
  const entry = Object.entries(METHOD_IN_SESSION).find(([, stored]) => stored === value);
  return (entry?.[0] as SignInMethod | undefined) ?? "password";
}
