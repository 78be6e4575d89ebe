/**
 * The alert of a callback whose state is missing, wrong, already used, or from another
 * provider's flow: the sign-in was not started in this browser, or was already finished.
 */
export const OAUTH_STATE_INVALID_MESSAGE =
  "That sign-in attempt is invalid or has expired. Please try again.";

/** The notice added when signing in removed the password of an unconfirmed account. */
export const OAUTH_PASSWORD_REMOVED_MESSAGE =
  "Your email address is now confirmed. The password set before it was confirmed no longer works: use “Forgot your password?” to choose a new one.";

/**
 * The other alerts of the callback, by provider label (`GitHub`). Each refusal redirects to
 * `/login` with one of them and changes no account.
 */
export const oauthMessages = {
  /** The user said no at the provider (`error=access_denied`). */
  cancelled: (label: string) => `Signing in with ${label} was cancelled.`,
  /** Any other `error=` from the provider. */
  providerError: (label: string) => `${label} could not sign you in. Please try again.`,
  /** A callback with a valid state but no `code`. */
  missingCode: (label: string) => `${label} did not send a sign-in code. Please try again.`,
  /** The provider could not be reached, refused the code, or answered nonsense. */
  failed: (label: string) => `Signing in with ${label} failed. Please try again.`,
  /** The provider shared no valid email address. */
  emailMissing: (label: string) =>
    `${label} did not share your email address, so you cannot sign in with it.`,
  /** The provider does not vouch for the address, so it can neither link nor create an account. */
  emailUnverified: (label: string) =>
    `Your ${label} email address is not verified, so it cannot be used to sign in. Verify it at ${label}, then try again.`,
} as const;
