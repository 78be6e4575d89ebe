/**
 * The English texts of the sign-in grant: the second step it asks for and the refusals of a change
 * without a recent sign-in, and the per-account throttle's refusal and notice mail;
 * `accountMessages` holds them all.
 */
export const signInTexts = {
  "accounts.mfa_required": "A second factor is required to sign in.",
  "accounts.reauthentication_required":
    "This needs a recent sign-in: confirm it is you, then try again within 10 minutes.",
  "accounts.api_key_not_allowed": "An API key cannot manage credentials; sign in to do this.",
  "accounts.impersonation_not_allowed":
    "Not while an administrator acts as this user: only they can change their credentials.",
  "accounts.account_banned": "This account is banned.",
  "accounts.account_banned_until": "This account is banned until {until}.",
  "accounts.account_throttled":
    "Too many failed attempts to sign in to this account; wait a while, or sign in another way.",
  "accounts.mail.throttled_subject": "Someone is trying to sign in to your account",
  "accounts.mail.throttled_intro":
    "Someone typed wrong passwords for {email} many times, up to {when}: further attempts must now wait, longer each time, up to an hour. None of them was accepted.",
  "accounts.mail.throttled_not_you":
    "If this wasn't you, nothing is needed; to be safe, choose a new password: {link}",
} as const;
