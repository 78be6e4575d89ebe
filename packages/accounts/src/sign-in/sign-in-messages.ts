/**
 * The English texts of the sign-in grant: the second step it asks for and the refusals of a change
 * without a recent sign-in; `accountMessages` holds them all.
 */
export const signInTexts = {
  "accounts.mfa_required": "A second factor is required to sign in.",
  "accounts.reauthentication_required":
    "This needs a recent sign-in: confirm it is you, then try again within 10 minutes.",
  "accounts.api_key_not_allowed": "An API key cannot manage credentials; sign in to do this.",
} as const;
