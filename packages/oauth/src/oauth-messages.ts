import { defineMessages, type MessageIdOf } from "@tessera/core";

/**
 * The messages `@tessera/oauth` writes for people, in English: the login page's buttons and the
 * alerts of the callback, which redirects to `/login` with one of them and changes no account
 * on a refusal. `{provider}` is the provider's label (`GitHub`). Flashed in the request's locale.
 */
export const oauthMessages = defineMessages({
  /** A callback whose state is missing, wrong, already used, or from another provider's flow. */
  "oauth.state_invalid": "That sign-in attempt is invalid or has expired. Please try again.",
  /** The notice added when signing in removed the password of an unconfirmed account. */
  "oauth.password_removed":
    "Your email address is now confirmed. The password set before it was confirmed no longer works: use “Forgot your password?” to choose a new one.",
  /** The user said no at the provider (`error=access_denied`). */
  "oauth.cancelled": "Signing in with {provider} was cancelled.",
  /** Any other `error=` from the provider. */
  "oauth.provider_error": "{provider} could not sign you in. Please try again.",
  /** A callback with a valid state but no `code`. */
  "oauth.missing_code": "{provider} did not send a sign-in code. Please try again.",
  /** The provider could not be reached, refused the code, or answered nonsense. */
  "oauth.failed": "Signing in with {provider} failed. Please try again.",
  /** The provider shared no valid email address. */
  "oauth.email_missing":
    "{provider} did not share your email address, so you cannot sign in with it.",
  /** The provider does not vouch for the address, so it can neither link nor create an account. */
  "oauth.email_unverified":
    "Your {provider} email address is not verified, so it cannot be used to sign in. Verify it at {provider}, then try again.",
  /** The login page's button of one provider. */
  "oauth.continue_with": "Continue with {provider}",
});

/** An id of {@link oauthMessages}. */
export type OAuthMessageId = MessageIdOf<typeof oauthMessages>;
